-- CreateTable
CREATE TABLE "replays" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "taskId" TEXT,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "framerate" INTEGER NOT NULL,
    "maxDurationSeconds" INTEGER,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    "sizeBytes" BIGINT NOT NULL DEFAULT 0,
    "width" INTEGER,
    "height" INTEGER,
    "durationSeconds" REAL,
    "fileName" TEXT NOT NULL,
    CONSTRAINT "replays_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "computers" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "replays_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "replays_sessionId_startedAt_idx" ON "replays"("sessionId", "startedAt");

-- CreateIndex
CREATE INDEX "replays_organizationId_idx" ON "replays"("organizationId");

-- CreateIndex
CREATE INDEX "replays_nodeId_status_idx" ON "replays"("nodeId", "status");

-- CreateIndex
CREATE INDEX "replays_taskId_idx" ON "replays"("taskId");
