-- CreateTable
CREATE TABLE "nodes" (
    "id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "browserSlots" INTEGER NOT NULL,
    "desktopSlots" INTEGER NOT NULL,
    "load" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "renewedAt" TIMESTAMP(3) NOT NULL,
    "leaseUntil" TIMESTAMP(3) NOT NULL,
    "reapedAt" TIMESTAMP(3),
    "secretFingerprint" TEXT NOT NULL,

    CONSTRAINT "nodes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "nodes_leaseUntil_idx" ON "nodes"("leaseUntil");
