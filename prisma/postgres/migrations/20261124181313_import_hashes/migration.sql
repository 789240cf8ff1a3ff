-- CreateTable
CREATE TABLE "ImportHash" (
    "root" TEXT NOT NULL,
    "file" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "deps" TEXT NOT NULL DEFAULT '[]',
    "promptId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,

    CONSTRAINT "ImportHash_pkey" PRIMARY KEY ("root","file")
);
