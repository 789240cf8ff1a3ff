-- q= search text stored lowercased (issue 21.1): the search lowercases q once and uses
-- LIKE, instead of folding every row's text on every search. SQLite's lower() folds
-- ASCII only (as its LIKE did); the next version written refolds a prompt in full.
UPDATE "Prompt" SET "searchText" = lower("searchText");
