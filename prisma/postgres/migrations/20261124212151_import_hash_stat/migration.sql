-- AlterTable
ALTER TABLE "ImportHash" ADD COLUMN     "stat" TEXT NOT NULL DEFAULT '';
