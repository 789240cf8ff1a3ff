-- q= search text (issue 22.3). pg_trgm lets a GIN index serve ILIKE on it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- AlterTable
ALTER TABLE "Prompt" ADD COLUMN     "searchText" TEXT NOT NULL DEFAULT '';

-- Backfill: name, then the latest version's title, description and message text, one per line
-- (the same text src/db/repositories/prompt-search.ts writes).
UPDATE "Prompt" p SET "searchText" = p."name" || chr(10) || COALESCE((
  SELECT COALESCE(v."title", '') || chr(10) || COALESCE(v."description", '') || chr(10) || COALESCE((
    SELECT string_agg(m."text", chr(10) ORDER BY m."position") FROM "PromptMessage" m WHERE m."versionId" = v."id" AND m."text" IS NOT NULL
  ), '')
  FROM "PromptVersion" v WHERE v."promptId" = p."id" AND v."number" = p."latestVersion"
), '');

-- CreateIndex
CREATE INDEX "Prompt_updatedAt_id_idx" ON "Prompt"("updatedAt", "id");

-- CreateIndex
CREATE INDEX "Prompt_searchText_trgm_idx" ON "Prompt" USING GIN ("searchText" gin_trgm_ops);
