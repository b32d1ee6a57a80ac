-- CreateTable
CREATE TABLE "session_timelines" (
    "computerId" TEXT NOT NULL PRIMARY KEY,
    "events" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "endedAt" DATETIME NOT NULL,
    CONSTRAINT "session_timelines_computerId_fkey" FOREIGN KEY ("computerId") REFERENCES "computers" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "session_timelines_endedAt_idx" ON "session_timelines"("endedAt");
