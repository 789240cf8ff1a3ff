-- DropIndex
DROP INDEX "UsageBucket_prompt_lastAt_idx";

-- AlterTable
ALTER TABLE "UsageBucket" ADD COLUMN     "clientVersion" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "promptId" INTEGER;

-- CreateIndex
CREATE INDEX "UsageBucket_promptId_lastAt_idx" ON "UsageBucket"("promptId", "lastAt");

-- Backfill (issue 37, items 15 and 16, and issue 36, item 1), no semicolons in comments:
-- the migration runner splits statements at every one.
-- Recorded text is cut to what recording keeps now: a client could store megabytes a name.
UPDATE "UsageBucket" SET "prompt" = substr("prompt", 1, 200), "client" = substr("client", 1, 200)
WHERE length("prompt") > 200 OR length("client") > 200;
-- A fetch that served no version counted the name asked for: now one (unknown) key.
UPDATE "UsageBucket" SET "prompt" = '(unknown)' WHERE "version" = 0 AND "prompt" <> '(other)';
-- Rows of a prompt that still has the name they were served under: keyed by its id.
UPDATE "UsageBucket" b SET "promptId" = p."id" FROM "Prompt" p WHERE p."name" = b."prompt" AND b."version" > 0;
-- MCP clients (no token) were recorded as "name version": split at the last space when the
-- last word looks like a version (a digit or v and a digit first, then letters, digits, . + _ -).
UPDATE "UsageBucket" SET
  "client" = substring("client" from '^(.*[^ ]) +v?[0-9][0-9A-Za-z.+_-]*$'),
  "clientVersion" = substring("client" from ' (v?[0-9][0-9A-Za-z.+_-]*)$')
WHERE "transport" IN ('stdio', 'http', 'sse') AND "token" = ''
  AND "client" ~ '^.*[^ ] +v?[0-9][0-9A-Za-z.+_-]*$';
