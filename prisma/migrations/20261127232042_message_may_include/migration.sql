-- Which messages may include another prompt (issue 21, bench/history.md 35): the check
-- gate asked it by scanning every message's text, once per import batch. Hand-written
-- ADD COLUMN instead of the engine's table rebuild, and the rows already stored are
-- marked by the same rule the write path applies (a text include is a substring).
-- AlterTable
ALTER TABLE "PromptMessage" ADD COLUMN "mayInclude" BOOLEAN NOT NULL DEFAULT false;

-- Backfill
UPDATE "PromptMessage" SET "mayInclude" = true WHERE "type" = 'include' OR ("type" = 'text' AND "text" LIKE '%{{>%');

-- CreateIndex
CREATE INDEX "PromptMessage_mayInclude_idx" ON "PromptMessage"("mayInclude");
