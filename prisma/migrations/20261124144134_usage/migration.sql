-- CreateTable
CREATE TABLE "UsageBucket" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "instance" TEXT NOT NULL,
    "grain" TEXT NOT NULL,
    "start" DATETIME NOT NULL,
    "prompt" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "client" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "fetches" INTEGER NOT NULL,
    "latencyMs" REAL NOT NULL,
    "lastAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "UsageBucket_start_idx" ON "UsageBucket"("start");

-- CreateIndex
CREATE INDEX "UsageBucket_prompt_lastAt_idx" ON "UsageBucket"("prompt", "lastAt");
