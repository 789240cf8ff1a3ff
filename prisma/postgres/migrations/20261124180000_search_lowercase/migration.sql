-- q= search text stored lowercased (issue 21.1): the search lowercases q once and uses
-- LIKE (still served by the pg_trgm index), instead of ILIKE folding every row's whole
-- text on every search.
UPDATE "Prompt" SET "searchText" = lower("searchText");
