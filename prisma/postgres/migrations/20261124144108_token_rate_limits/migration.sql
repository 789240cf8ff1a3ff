-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "mcpRatePerMinute" INTEGER,
ADD COLUMN     "writeRatePerMinute" INTEGER;
