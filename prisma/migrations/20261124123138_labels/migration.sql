-- CreateTable
CREATE TABLE "PromptLabel" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "promptId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "versionId" INTEGER NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PromptLabel_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "Prompt" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PromptLabel_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "PromptVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "PromptLabel_name_promptId_idx" ON "PromptLabel"("name", "promptId");

-- CreateIndex
CREATE INDEX "PromptLabel_versionId_idx" ON "PromptLabel"("versionId");

-- CreateIndex
CREATE UNIQUE INDEX "PromptLabel_promptId_name_key" ON "PromptLabel"("promptId", "name");

-- Every active pointer becomes a `production` label (Prompt.activeVersionId stays,
-- kept equal to it by the write path).
INSERT INTO "PromptLabel" ("promptId", "name", "versionId", "updatedAt")
SELECT "id", 'production', "activeVersionId", "updatedAt" FROM "Prompt" WHERE "activeVersionId" IS NOT NULL;
