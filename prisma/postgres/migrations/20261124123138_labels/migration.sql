-- CreateTable
CREATE TABLE "PromptLabel" (
    "id" SERIAL NOT NULL,
    "promptId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "versionId" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PromptLabel_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PromptLabel_name_promptId_idx" ON "PromptLabel"("name", "promptId");

-- CreateIndex
CREATE INDEX "PromptLabel_versionId_idx" ON "PromptLabel"("versionId");

-- CreateIndex
CREATE UNIQUE INDEX "PromptLabel_promptId_name_key" ON "PromptLabel"("promptId", "name");

-- AddForeignKey
ALTER TABLE "PromptLabel" ADD CONSTRAINT "PromptLabel_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "Prompt"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PromptLabel" ADD CONSTRAINT "PromptLabel_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "PromptVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every active pointer becomes a `production` label (Prompt.activeVersionId stays,
-- kept equal to it by the write path).
INSERT INTO "PromptLabel" ("promptId", "name", "versionId", "updatedAt")
SELECT "id", 'production', "activeVersionId", "updatedAt" FROM "Prompt" WHERE "activeVersionId" IS NOT NULL;
