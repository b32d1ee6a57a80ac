// API keys belong to an organization. Lookups are by hash; every query is
// scoped by organization so a foreign id is simply "not found".
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/api/errors";
import { apiKeyCache, pgNotifyStatement, type CachedApiKey } from "@/lib/auth/api-key-cache";
import { bearerKey, generateApiKey, hashApiKey } from "@/lib/auth/api-key-format";
import { forwardedPrincipal } from "@/lib/cluster/forwarded-identity";
import { dbProvider, getDb } from "@/lib/db";

export interface ApiPrincipal {
  organizationId: string;
  apiKeyId: string;
}

/** One key as the dashboard's JSON shows it (snake_case, like every JSON Cabin writes). */
export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  created_by: { id: string; name: string; email: string } | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

// lastUsedAt is advisory; writing it at most once a minute keeps the hot path read-only.
const LAST_USED_RESOLUTION_MS = 60_000;

export async function createApiKey(input: { organizationId: string; name: string; createdById?: string | null }) {
  const generated = generateApiKey();
  const row = await getDb().apiKey.create({
    data: {
      id: randomUUID(),
      organizationId: input.organizationId,
      name: input.name,
      prefix: generated.prefix,
      hash: generated.hash,
      createdById: input.createdById ?? null,
    },
  });
  return { id: row.id, key: generated.key, prefix: row.prefix, name: row.name, organizationId: row.organizationId };
}

export async function listApiKeys({ organizationId }: { organizationId: string }): Promise<ApiKeySummary[]> {
  const rows = await getDb().apiKey.findMany({
    where: { organizationId },
    include: { createdBy: { select: { id: true, name: true, email: true } } },
    orderBy: { createdAt: "desc" },
  });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
    revoked_at: r.revokedAt?.toISOString() ?? null,
  }));
}

/** Revokes one key of the organization; revoking twice is harmless. Every server refuses it from the next request. */
export async function revokeApiKey(where: { organizationId: string; id: string } | { prefix: string }) {
  const db = getDb();
  const key = "prefix" in where
    ? await db.apiKey.findUnique({ where: { prefix: where.prefix } })
    : await db.apiKey.findFirst({ where: { id: where.id, organizationId: where.organizationId } });
  if (!key) throw new AppError("not_found", "API key not found");
  if (key.revokedAt) return key;
  const revoke = db.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
  const revoked = dbProvider() === "postgresql"
    ? (await db.$transaction([revoke, db.$executeRawUnsafe(pgNotifyStatement)]))[0]
    : await revoke;
  apiKeyCache().revoked();
  return revoked;
}

/** An organization was deleted with its keys: every server stops accepting them now. */
export async function forgetDeletedKeys(): Promise<void> {
  if (dbProvider() === "postgresql") await getDb().$executeRawUnsafe(pgNotifyStatement);
  apiKeyCache().revoked();
}

async function loadApiKey(hash: string): Promise<CachedApiKey | null> {
  const row = await getDb().apiKey.findUnique({
    where: { hash },
    select: { id: true, organizationId: true, revokedAt: true, lastUsedAt: true },
  });
  if (!row) return null;
  return {
    principal: { organizationId: row.organizationId, apiKeyId: row.id },
    revoked: row.revokedAt !== null,
    lastUsedAt: row.lastUsedAt?.getTime() ?? null,
  };
}

/** Resolves `Authorization: Bearer …` to its organization, or rejects with a 401. */
export async function authenticateApiKey(authorization: string | null): Promise<ApiPrincipal> {
  return authenticateApiKeyNow(authorization);
}

/**
 * As `authenticateApiKey`, but a cached key is answered at once (a value, not
 * a promise; a 401 is thrown), as on nearly every request of the model
 * gateway (`withModelApi`); only a key not in `apiKeyCache` costs a promise.
 */
export function authenticateApiKeyNow(authorization: string | null): ApiPrincipal | Promise<ApiPrincipal> {
  if (!authorization) {
    throw unauthorized("Missing API key: send it as 'Authorization: Bearer <API_KEY>'");
  }
  // A request another node forwarded, its key checked there (docs/cluster.md).
  const forwarded = forwardedPrincipal(authorization);
  if (forwarded) return forwarded;
  const key = bearerKey(authorization);
  if (!key) throw unauthorized("Malformed API key or Authorization header");
  const hash = hashApiKey(key);
  const cache = apiKeyCache();
  const hit = cache.cached(hash);
  return hit ? admitKey(hit) : cache.resolve(hash, () => loadApiKey(hash)).then(admitKey);
}

function admitKey(found: CachedApiKey | null): ApiPrincipal {
  if (!found) throw unauthorized("Invalid API key");
  if (found.revoked) throw unauthorized("This API key has been revoked");
  const now = Date.now();
  if (!found.lastUsedAt || now - found.lastUsedAt > LAST_USED_RESOLUTION_MS) {
    found.lastUsedAt = now;
    // Not awaited on purpose: usage bookkeeping must not delay the request.
    getDb().apiKey.update({ where: { id: found.principal.apiKeyId }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
  return found.principal;
}

function unauthorized(message: string) {
  return new AppError("unauthorized", message, { detail: "invalid_api_key" });
}
