-- CreateTable
CREATE TABLE "nodes" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "url" TEXT NOT NULL,
    "browserSlots" INTEGER NOT NULL,
    "desktopSlots" INTEGER NOT NULL,
    "load" INTEGER NOT NULL DEFAULT 0,
    "startedAt" DATETIME NOT NULL,
    "renewedAt" DATETIME NOT NULL,
    "leaseUntil" DATETIME NOT NULL,
    "reapedAt" DATETIME,
    "secretFingerprint" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "nodes_leaseUntil_idx" ON "nodes"("leaseUntil");
