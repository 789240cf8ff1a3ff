-- CreateTable
CREATE TABLE "UsageBucket" (
    "id" SERIAL NOT NULL,
    "instance" TEXT NOT NULL,
    "grain" TEXT NOT NULL,
    "start" TIMESTAMP(3) NOT NULL,
    "prompt" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "client" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "fetches" INTEGER NOT NULL,
    "latencyMs" DOUBLE PRECISION NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UsageBucket_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "UsageBucket_start_idx" ON "UsageBucket"("start");

-- CreateIndex
CREATE INDEX "UsageBucket_prompt_lastAt_idx" ON "UsageBucket"("prompt", "lastAt");
