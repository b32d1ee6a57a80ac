// The PostgreSQL side of SharedRateLimiter: one statement per lease, an upsert
// on the subject's ModelRateBucket row that refills both buckets by the time
// passed on the database's clock (so the app hosts' clocks do not matter),
// adds back the units given back, grants what it can of those wanted, debits
// the tokens and answers the new levels, all under the row's lock.
import { getDb } from "@/lib/db";
import type { RateLimits } from "@/lib/models/limits/rate-limit";
import type { BucketLevels, LeaseRequest, RateBucketStore } from "@/lib/models/limits/shared-rate-limit";

// $1 scope, $2 subject, $3 requests/min, $4 tokens/min, $5 wanted, $6 given back, $7 tokens used.
const refilled = (column: string, cap: string, extra: string) =>
  `LEAST(${cap}, b."${column}"${extra} + (EXCLUDED."updatedAtMs" - b."updatedAtMs") * ${cap} / 60000.0)`;
const RPM = "$3::double precision";
const TPM = "$4::double precision";
const requestsNow = refilled("requests", RPM, " + $6::double precision");
const grant = `LEAST($5::double precision, GREATEST(0, FLOOR(${requestsNow})))`;

const LEASE_SQL = `
INSERT INTO "model_rate_buckets" AS b ("scope", "subject", "requests", "tokens", "updatedAtMs", "lastGrant")
VALUES ($1, $2, ${RPM} - LEAST($5::double precision, ${RPM}), ${TPM} - $7::double precision,
        EXTRACT(EPOCH FROM clock_timestamp()) * 1000, LEAST($5::double precision, ${RPM})::int)
ON CONFLICT ("scope", "subject") DO UPDATE SET
  "lastGrant" = (${grant})::int,
  "requests" = ${requestsNow} - ${grant},
  "tokens" = ${refilled("tokens", TPM, "")} - $7::double precision,
  "updatedAtMs" = EXCLUDED."updatedAtMs"
RETURNING "lastGrant" AS granted, "requests", "tokens"`;

export function pgRateBucketStore(scope: "organization" | "key"): RateBucketStore {
  return {
    async lease(subject: string, limits: RateLimits, request: LeaseRequest): Promise<BucketLevels> {
      const rows = await getDb().$queryRawUnsafe<{ granted: number; requests: number; tokens: number }[]>(
        LEASE_SQL,
        scope,
        subject,
        limits.requestsPerMinute,
        limits.tokensPerMinute,
        request.want,
        request.giveBack,
        request.tokens,
      );
      const row = rows[0]!;
      return { granted: Number(row.granted), requests: Number(row.requests), tokens: Number(row.tokens) };
    },
  };
}
