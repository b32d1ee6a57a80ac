-- CreateTable
CREATE TABLE "usage_month_totals" (
    "scope" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "month" INTEGER NOT NULL,
    "costUsd" REAL NOT NULL,

    PRIMARY KEY ("scope", "subjectId", "month")
);

-- Backfill from the usage recorded so far (months as year * 12 + month index, UTC).
INSERT INTO "usage_month_totals" ("scope", "subjectId", "month", "costUsd")
SELECT 'organization', "organizationId", CAST(strftime('%Y', "createdAt") AS INTEGER) * 12 + CAST(strftime('%m', "createdAt") AS INTEGER) - 1 AS "month", SUM("costUsd")
FROM "usage_records" GROUP BY "organizationId", "month";
INSERT INTO "usage_month_totals" ("scope", "subjectId", "month", "costUsd")
SELECT 'key', "apiKeyId", CAST(strftime('%Y', "createdAt") AS INTEGER) * 12 + CAST(strftime('%m', "createdAt") AS INTEGER) - 1 AS "month", SUM("costUsd")
FROM "usage_records" WHERE "apiKeyId" IS NOT NULL GROUP BY "apiKeyId", "month";
