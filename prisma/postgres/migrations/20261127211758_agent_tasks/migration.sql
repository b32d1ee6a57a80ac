-- CreateTable
CREATE TABLE "agent_tasks" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "hostId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "instruction" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "maxSteps" INTEGER NOT NULL,
    "temperature" DOUBLE PRECISION,
    "screenshotMode" TEXT NOT NULL,
    "viewportWidth" INTEGER NOT NULL,
    "viewportHeight" INTEGER NOT NULL,
    "persistent" BOOLEAN NOT NULL DEFAULT false,
    "environmentId" TEXT,
    "computerId" TEXT,
    "ownsComputer" BOOLEAN NOT NULL DEFAULT true,
    "terminateOnCompletion" BOOLEAN NOT NULL DEFAULT true,
    "options" TEXT NOT NULL DEFAULT '{}',
    "result" TEXT,
    "endReason" TEXT,
    "errorMessage" TEXT,
    "idempotencyKey" TEXT,
    "stepCount" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "agent_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_task_steps" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "action" TEXT,
    "modelText" TEXT,
    "screenshot" TEXT,
    "injected" TEXT,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "modelMs" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "actionMs" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "totalMs" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_task_steps_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "agent_tasks_organizationId_createdAt_idx" ON "agent_tasks"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "agent_tasks_hostId_status_idx" ON "agent_tasks"("hostId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "agent_tasks_organizationId_idempotencyKey_key" ON "agent_tasks"("organizationId", "idempotencyKey");

-- CreateIndex
CREATE UNIQUE INDEX "agent_task_steps_taskId_index_key" ON "agent_task_steps"("taskId", "index");

-- AddForeignKey
ALTER TABLE "agent_tasks" ADD CONSTRAINT "agent_tasks_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_task_steps" ADD CONSTRAINT "agent_task_steps_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "agent_tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
