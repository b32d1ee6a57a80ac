// The model API's two rate limiters, per organization and per API key: on
// PostgreSQL shared by every process on the database (SharedRateLimiter over
// pgRateBucketStore), on SQLite per process (RateLimiter). A limiter with no
// limit set (both 0) stays per process: it never asks the database.
import { dbProvider } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { RateLimiter, type ModelRateLimiter, type RateLimits } from "@/lib/models/limits/rate-limit";
import { SharedRateLimiter } from "@/lib/models/limits/shared-rate-limit";
import { pgRateBucketStore } from "@/lib/models/limits/shared-rate-store";
import { singleton, singletonKey } from "@/lib/singleton";

function limiterFor(scope: "organization" | "key", limits: RateLimits): ModelRateLimiter {
  const subject = scope === "key" ? "API key" : "organization";
  const limited = limits.requestsPerMinute > 0 || limits.tokensPerMinute > 0;
  if (limited && dbProvider() === "postgresql") {
    return new SharedRateLimiter(limits, pgRateBucketStore(scope), getLogger(), Date.now, subject);
  }
  return new RateLimiter(limits, Date.now, subject);
}

const rateLimiterKey = singletonKey<ModelRateLimiter>("models.rateLimiter");

/** Limits per organization, all its keys together (MODEL_RATE_LIMIT_*; 0 = none). */
export function getRateLimiter(): ModelRateLimiter {
  return singleton(rateLimiterKey, () => {
    const env = getEnv();
    return limiterFor("organization", {
      requestsPerMinute: env.MODEL_RATE_LIMIT_RPM,
      tokensPerMinute: env.MODEL_RATE_LIMIT_TPM,
    });
  });
}

const keyRateLimiterKey = singletonKey<ModelRateLimiter>("models.keyRateLimiter");

/** Limits per API key, on top of the organization's (MODEL_KEY_RATE_LIMIT_*; 0 = none). */
export function getKeyRateLimiter(): ModelRateLimiter {
  return singleton(keyRateLimiterKey, () => {
    const env = getEnv();
    return limiterFor("key", {
      requestsPerMinute: env.MODEL_KEY_RATE_LIMIT_RPM,
      tokensPerMinute: env.MODEL_KEY_RATE_LIMIT_TPM,
    });
  });
}
