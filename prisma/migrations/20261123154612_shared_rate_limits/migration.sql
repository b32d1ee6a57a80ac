-- CreateTable
CREATE TABLE "model_rate_buckets" (
    "scope" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "requests" REAL NOT NULL,
    "tokens" REAL NOT NULL,
    "updatedAtMs" REAL NOT NULL,
    "lastGrant" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("scope", "subject")
);
