-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN "mcpRatePerMinute" INTEGER;
ALTER TABLE "ApiToken" ADD COLUMN "writeRatePerMinute" INTEGER;
