-- q= search text (issue 22.3): a column, not a table rebuild.
ALTER TABLE "Prompt" ADD COLUMN "searchText" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "Prompt_updatedAt_id_idx" ON "Prompt"("updatedAt", "id");

-- Backfill: name, then the latest version's title, description and message text, one per line
-- (the same text src/db/repositories/prompt-search.ts writes).
UPDATE "Prompt" SET "searchText" = "name" || char(10) || COALESCE((
  SELECT COALESCE(v."title", '') || char(10) || COALESCE(v."description", '') || char(10) || COALESCE((
    SELECT group_concat(m."text", char(10)) FROM (
      SELECT "text" FROM "PromptMessage" WHERE "versionId" = v."id" AND "text" IS NOT NULL ORDER BY "position"
    ) m
  ), '')
  FROM "PromptVersion" v WHERE v."promptId" = "Prompt"."id" AND v."number" = "Prompt"."latestVersion"
), '');
