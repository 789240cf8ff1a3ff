-- status=pending as a column of its own (issue 21): the production label points at a
-- version older than the latest. Kept by the write path (prompts-repo.ts bumpLatest,
-- labels-repo.ts move) in the same transaction. The index serves the filter, which
-- probed the active version of every prompt before (a full walk at 100,000 prompts).
-- AlterTable
ALTER TABLE "Prompt" ADD COLUMN     "pending" BOOLEAN NOT NULL DEFAULT false;

UPDATE "Prompt" SET "pending" = true
WHERE EXISTS (SELECT 1 FROM "PromptVersion" v WHERE v."id" = "Prompt"."activeVersionId" AND v."number" < "Prompt"."latestVersion");

-- CreateIndex
CREATE INDEX "Prompt_pending_name_idx" ON "Prompt"("pending", "name");
