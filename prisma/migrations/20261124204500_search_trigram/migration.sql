-- q= search index for SQLite (issue 21): an FTS5 trigram index of Prompt.searchText, so
-- a query of 3 or more characters reads the prompts holding all its trigrams instead
-- of every prompt's text (PostgreSQL has had its pg_trgm index since prompt_search).
-- Contentless (the text stays in Prompt only) and detail=none (no positions): the index
-- only narrows the candidates, prompt-list.ts still checks each with LIKE.
-- Raw SQL that Prisma's schema does not describe: the triggers keep it in step with
-- every write of "searchText", whichever statement makes it.
CREATE VIRTUAL TABLE "PromptSearch" USING fts5("searchText", tokenize = 'trigram', content = '', contentless_delete = 1, detail = 'none');

INSERT INTO "PromptSearch" ("rowid", "searchText") SELECT "id", "searchText" FROM "Prompt";

CREATE TRIGGER "Prompt_search_insert" AFTER INSERT ON "Prompt" BEGIN
  INSERT INTO "PromptSearch" ("rowid", "searchText") VALUES (new."id", new."searchText");
END;

CREATE TRIGGER "Prompt_search_update" AFTER UPDATE OF "searchText" ON "Prompt" WHEN old."searchText" IS NOT new."searchText" BEGIN
  DELETE FROM "PromptSearch" WHERE "rowid" = old."id";
  INSERT INTO "PromptSearch" ("rowid", "searchText") VALUES (new."id", new."searchText");
END;

CREATE TRIGGER "Prompt_search_delete" AFTER DELETE ON "Prompt" BEGIN
  DELETE FROM "PromptSearch" WHERE "rowid" = old."id";
END;
