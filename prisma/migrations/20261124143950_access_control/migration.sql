-- Access control (issue 19, docs/access.md): columns, not table rebuilds.
-- Tokens made before roles existed are admin tokens with the admin role.
ALTER TABLE "ApiToken" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'admin';
ALTER TABLE "ApiToken" ADD COLUMN "role" TEXT NOT NULL DEFAULT 'admin';
ALTER TABLE "ApiToken" ADD COLUMN "label" TEXT;
ALTER TABLE "ApiToken" ADD COLUMN "tags" TEXT;

-- Prompt tags: a JSON array of tag names, sorted.
ALTER TABLE "Prompt" ADD COLUMN "tags" TEXT NOT NULL DEFAULT '[]';
