-- Lookups of live prompts by name (`deletedAt IS NULL AND name IN (…)`, every batch of
-- an import) read every live prompt on SQLite: without statistics its planner took the
-- index on deletedAt alone for the IS NULL (issue 21, bench/history.md 35). The index
-- leads with deletedAt still (the bin, the purge) and adds name, so both terms probe it.
-- DropIndex
DROP INDEX "Prompt_deletedAt_idx";

-- CreateIndex
CREATE INDEX "Prompt_deletedAt_name_idx" ON "Prompt"("deletedAt", "name");
