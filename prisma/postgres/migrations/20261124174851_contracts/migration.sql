-- AlterTable
ALTER TABLE "PromptArgument" ADD COLUMN     "defaultValue" TEXT,
ADD COLUMN     "type" TEXT NOT NULL DEFAULT 'string';

-- AlterTable
ALTER TABLE "PromptMessage" ADD COLUMN     "includeArguments" TEXT,
ADD COLUMN     "includeLabel" TEXT,
ADD COLUMN     "includePrompt" TEXT,
ADD COLUMN     "includeVersion" INTEGER;

-- AlterTable
ALTER TABLE "PromptVersion" ADD COLUMN     "testCases" TEXT;
