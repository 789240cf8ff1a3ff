-- Data-model security fixes (issues 15, 24, 25): soft delete of prompts, resource
-- visibility, template binding allow-lists, unique token names.

-- AlterTable
ALTER TABLE "Prompt" ADD COLUMN     "deletedAt" TIMESTAMP(3),
ADD COLUMN     "deletedBy" TEXT;

-- AlterTable
ALTER TABLE "Resource" ADD COLUMN     "visibility" TEXT NOT NULL DEFAULT 'bound';
-- Resources stored before visibility existed were all listed and readable over MCP:
-- keep that explicit. New resources default to 'bound'.
UPDATE "Resource" SET "visibility" = 'public';

-- AlterTable
ALTER TABLE "ResourceBinding" ADD COLUMN     "allow" TEXT;

-- Token names become unique: a later duplicate gets its id as a suffix.
UPDATE "ApiToken" SET "name" = "name" || '-' || "id"
WHERE EXISTS (SELECT 1 FROM "ApiToken" o WHERE o."name" = "ApiToken"."name" AND o."id" < "ApiToken"."id");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_name_key" ON "ApiToken"("name");

-- CreateIndex
CREATE INDEX "Prompt_deletedAt_idx" ON "Prompt"("deletedAt");
