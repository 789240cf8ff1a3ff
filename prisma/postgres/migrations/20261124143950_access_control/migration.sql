-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'admin',
ADD COLUMN     "label" TEXT,
ADD COLUMN     "role" TEXT NOT NULL DEFAULT 'admin',
ADD COLUMN     "tags" TEXT;

-- AlterTable
ALTER TABLE "Prompt" ADD COLUMN     "tags" TEXT NOT NULL DEFAULT '[]';
