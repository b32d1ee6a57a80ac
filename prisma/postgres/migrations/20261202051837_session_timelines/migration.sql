-- CreateTable
CREATE TABLE "session_timelines" (
    "computerId" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "endedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "session_timelines_pkey" PRIMARY KEY ("computerId")
);

-- CreateIndex
CREATE INDEX "session_timelines_endedAt_idx" ON "session_timelines"("endedAt");

-- AddForeignKey
ALTER TABLE "session_timelines" ADD CONSTRAINT "session_timelines_computerId_fkey" FOREIGN KEY ("computerId") REFERENCES "computers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
