-- CreateTable
CREATE TABLE "auth_rate_limits" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "count" INTEGER NOT NULL,
    "lastRequestMs" REAL NOT NULL,
    "allowed" BOOLEAN NOT NULL DEFAULT true
);

-- CreateTable
CREATE TABLE "login_backoffs" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "inFlight" INTEGER NOT NULL DEFAULT 0,
    "inFlightSinceMs" REAL NOT NULL DEFAULT 0,
    "nextAtMs" REAL NOT NULL DEFAULT 0,
    "lastFailureAtMs" REAL NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "budget_spend" (
    "scope" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "month" INTEGER NOT NULL,
    "costUsd" REAL NOT NULL,

    PRIMARY KEY ("scope", "subjectId", "month")
);
