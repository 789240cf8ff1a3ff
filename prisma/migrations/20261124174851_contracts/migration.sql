-- AlterTable
ALTER TABLE "PromptMessage" ADD COLUMN "includeArguments" TEXT;
ALTER TABLE "PromptMessage" ADD COLUMN "includeLabel" TEXT;
ALTER TABLE "PromptMessage" ADD COLUMN "includePrompt" TEXT;
ALTER TABLE "PromptMessage" ADD COLUMN "includeVersion" INTEGER;

-- AlterTable
ALTER TABLE "PromptVersion" ADD COLUMN "testCases" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PromptArgument" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "versionId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "title" TEXT,
    "description" TEXT,
    "required" BOOLEAN NOT NULL DEFAULT false,
    "choices" TEXT,
    "maxLength" INTEGER,
    "type" TEXT NOT NULL DEFAULT 'string',
    "defaultValue" TEXT,
    CONSTRAINT "PromptArgument_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "PromptVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_PromptArgument" ("choices", "description", "id", "maxLength", "name", "position", "required", "title", "versionId") SELECT "choices", "description", "id", "maxLength", "name", "position", "required", "title", "versionId" FROM "PromptArgument";
DROP TABLE "PromptArgument";
ALTER TABLE "new_PromptArgument" RENAME TO "PromptArgument";
CREATE UNIQUE INDEX "PromptArgument_versionId_name_key" ON "PromptArgument"("versionId", "name");
CREATE UNIQUE INDEX "PromptArgument_versionId_position_key" ON "PromptArgument"("versionId", "position");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
