-- CreateTable
CREATE TABLE "session_files" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "computerId" TEXT NOT NULL,
    "hostId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mimeType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_files_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "session_files_computerId_createdAt_idx" ON "session_files"("computerId", "createdAt");

-- CreateIndex
CREATE INDEX "session_files_organizationId_idx" ON "session_files"("organizationId");

-- AddForeignKey
ALTER TABLE "session_files" ADD CONSTRAINT "session_files_computerId_fkey" FOREIGN KEY ("computerId") REFERENCES "computers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session_files" ADD CONSTRAINT "session_files_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
