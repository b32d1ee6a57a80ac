-- CreateTable
CREATE TABLE "usage_month_totals" (
    "scope" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "month" INTEGER NOT NULL,
    "costUsd" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "usage_month_totals_pkey" PRIMARY KEY ("scope","subjectId","month")
);

-- Backfill from the usage recorded so far (months as year * 12 + month index, UTC).
INSERT INTO "usage_month_totals" ("scope", "subjectId", "month", "costUsd")
SELECT 'organization', "organizationId", (EXTRACT(YEAR FROM "createdAt")::int * 12 + EXTRACT(MONTH FROM "createdAt")::int - 1) AS "month", SUM("costUsd")
FROM "usage_records" GROUP BY "organizationId", 3;
INSERT INTO "usage_month_totals" ("scope", "subjectId", "month", "costUsd")
SELECT 'key', "apiKeyId", (EXTRACT(YEAR FROM "createdAt")::int * 12 + EXTRACT(MONTH FROM "createdAt")::int - 1) AS "month", SUM("costUsd")
FROM "usage_records" WHERE "apiKeyId" IS NOT NULL GROUP BY "apiKeyId", 3;
