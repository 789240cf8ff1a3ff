-- The exact totals of the prompt list (issue 21): label=production, status=inactive and
-- archived=false count 90,000 live prompts at 100,000. This index covers those counts,
-- which read every Prompt row before (SQLite about 45 ms of CPU on a slow machine).
-- CreateIndex
CREATE INDEX "Prompt_activeVersionId_deletedAt_archived_idx" ON "Prompt"("activeVersionId", "deletedAt", "archived");
