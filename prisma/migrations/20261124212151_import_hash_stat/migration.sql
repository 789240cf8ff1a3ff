-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ImportHash" (
    "root" TEXT NOT NULL,
    "file" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "deps" TEXT NOT NULL DEFAULT '[]',
    "promptId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "stat" TEXT NOT NULL DEFAULT '',

    PRIMARY KEY ("root", "file")
);
INSERT INTO "new_ImportHash" ("deps", "file", "hash", "name", "promptId", "revision", "root") SELECT "deps", "file", "hash", "name", "promptId", "revision", "root" FROM "ImportHash";
DROP TABLE "ImportHash";
ALTER TABLE "new_ImportHash" RENAME TO "ImportHash";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
