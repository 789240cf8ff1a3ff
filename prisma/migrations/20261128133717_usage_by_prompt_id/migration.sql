-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_UsageBucket" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "instance" TEXT NOT NULL,
    "grain" TEXT NOT NULL,
    "start" DATETIME NOT NULL,
    "prompt" TEXT NOT NULL,
    "promptId" INTEGER,
    "version" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "client" TEXT NOT NULL,
    "clientVersion" TEXT NOT NULL DEFAULT '',
    "token" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "fetches" INTEGER NOT NULL,
    "latencyMs" REAL NOT NULL,
    "lastAt" DATETIME NOT NULL
);
INSERT INTO "new_UsageBucket" ("client", "fetches", "grain", "id", "instance", "label", "lastAt", "latencyMs", "outcome", "prompt", "start", "token", "transport", "version") SELECT "client", "fetches", "grain", "id", "instance", "label", "lastAt", "latencyMs", "outcome", "prompt", "start", "token", "transport", "version" FROM "UsageBucket";
DROP TABLE "UsageBucket";
ALTER TABLE "new_UsageBucket" RENAME TO "UsageBucket";
CREATE INDEX "UsageBucket_start_idx" ON "UsageBucket"("start");
CREATE INDEX "UsageBucket_promptId_lastAt_idx" ON "UsageBucket"("promptId", "lastAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Backfill (issue 37, items 15 and 16, and issue 36, item 1), no semicolons in comments:
-- the migration runner splits statements at every one.
-- Recorded text is cut to what recording keeps now: a client could store megabytes a name.
UPDATE "UsageBucket" SET "prompt" = substr("prompt", 1, 200), "client" = substr("client", 1, 200)
WHERE length("prompt") > 200 OR length("client") > 200;
-- A fetch that served no version counted the name asked for: now one (unknown) key.
UPDATE "UsageBucket" SET "prompt" = '(unknown)' WHERE "version" = 0 AND "prompt" <> '(other)';
-- Rows of a prompt that still has the name they were served under: keyed by its id.
UPDATE "UsageBucket" SET "promptId" = (SELECT p."id" FROM "Prompt" p WHERE p."name" = "UsageBucket"."prompt")
WHERE "version" > 0;
-- MCP clients (no token) were recorded as "name version": split at the last space when the
-- last word looks like a version (a digit or v and a digit first, then letters, digits, . + _ -).
-- rtrim(c, <c without spaces>) is c up to and including its last space.
UPDATE "UsageBucket" SET
  "client" = rtrim(rtrim("client", replace("client", ' ', ''))),
  "clientVersion" = substr("client", length(rtrim("client", replace("client", ' ', ''))) + 1)
WHERE "transport" IN ('stdio', 'http', 'sse') AND "token" = ''
  AND length(rtrim(rtrim("client", replace("client", ' ', '')))) > 0
  AND (substr("client", length(rtrim("client", replace("client", ' ', ''))) + 1) GLOB '[0-9]*'
    OR substr("client", length(rtrim("client", replace("client", ' ', ''))) + 1) GLOB 'v[0-9]*')
  AND NOT substr("client", length(rtrim("client", replace("client", ' ', ''))) + 1) GLOB '*[^0-9A-Za-z.+_-]*';
