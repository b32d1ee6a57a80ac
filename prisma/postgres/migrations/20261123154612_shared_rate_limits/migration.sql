-- CreateTable
CREATE TABLE "model_rate_buckets" (
    "scope" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "requests" DOUBLE PRECISION NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "updatedAtMs" DOUBLE PRECISION NOT NULL,
    "lastGrant" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "model_rate_buckets_pkey" PRIMARY KEY ("scope","subject")
);
