-- CreateTable
CREATE TABLE "auth_rate_limits" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "lastRequestMs" DOUBLE PRECISION NOT NULL,
    "allowed" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "auth_rate_limits_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "login_backoffs" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "inFlight" INTEGER NOT NULL DEFAULT 0,
    "inFlightSinceMs" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "nextAtMs" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "lastFailureAtMs" DOUBLE PRECISION NOT NULL DEFAULT 0,

    CONSTRAINT "login_backoffs_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "budget_spend" (
    "scope" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "month" INTEGER NOT NULL,
    "costUsd" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "budget_spend_pkey" PRIMARY KEY ("scope","subjectId","month")
);
