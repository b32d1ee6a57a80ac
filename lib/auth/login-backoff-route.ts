// Applies LoginBackoff to Better Auth's email sign-in: the route reads the account
// from the body and the client's address from the header the custom server sets
// (clientAddress), refuses a pair that must wait with 429 + retry-after and a
// message the login form shows, and records the answer (401 = a failure).
// On PostgreSQL the entries are shared by every node (pgLoginBackoffStore).
import { CLIENT_ADDRESS_HEADER } from "@/lib/api/client-address";
import { LoginBackoff, type BackoffSettings, type LoginBackoffStore } from "@/lib/auth/login-backoff";
import { pgLoginBackoffStore } from "@/lib/auth/login-backoff-shared";
import { dbProvider } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { singleton, singletonKey } from "@/lib/singleton";

const BACKOFF = singletonKey<LoginBackoffStore>("loginBackoff");

function settings(): BackoffSettings {
  const env = getEnv();
  return {
    freeFailures: env.LOGIN_BACKOFF_FREE_FAILURES,
    baseMs: env.LOGIN_BACKOFF_BASE_SECONDS * 1000,
    maxMs: env.LOGIN_BACKOFF_MAX_SECONDS * 1000,
  };
}

/** On PostgreSQL the pairs' entries are rows every node shares; on SQLite (one node) they live in memory. */
function backoff(): LoginBackoffStore {
  return singleton(BACKOFF, () =>
    dbProvider() === "postgresql" ? pgLoginBackoffStore(settings) : new LoginBackoff(settings),
  );
}

async function accountOf(req: Request): Promise<string | null> {
  try {
    const body = (await req.clone().json()) as { email?: unknown };
    return typeof body?.email === "string" ? body.email.trim().toLowerCase() : null;
  } catch {
    return null; // Better Auth answers the malformed body itself
  }
}

function waitText(seconds: number): string {
  return seconds < 120 ? `${seconds} second${seconds === 1 ? "" : "s"}` : `${Math.ceil(seconds / 60)} minutes`;
}

export async function withLoginBackoff(req: Request, handle: (req: Request) => Promise<Response>): Promise<Response> {
  if (req.method !== "POST" || !new URL(req.url).pathname.endsWith("/sign-in/email")) return handle(req);
  const account = await accountOf(req);
  if (!account) return handle(req);
  const key = `${account}\n${req.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown"}`;
  const waitMs = await backoff().begin(key);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    return Response.json(
      {
        code: "TOO_MANY_FAILED_SIGN_INS",
        message: `Too many failed sign-ins for this account from your address. Try again in ${waitText(seconds)}.`,
      },
      { status: 429, headers: { "retry-after": String(seconds), "x-should-retry": "true" } },
    );
  }
  let outcome: "failed" | "succeeded" | "other" = "other";
  try {
    const res = await handle(req);
    outcome = res.status === 401 ? "failed" : res.ok ? "succeeded" : "other";
    return res;
  } finally {
    // The answer stands even if the record fails; the pair's attempt then stops counting as in flight after
    // IN_FLIGHT_STALE_MS.
    await Promise.resolve(backoff().finish(key, outcome)).catch((err: unknown) =>
      getLogger().warn({ err }, "could not record a sign-in's outcome for the login backoff"),
    );
  }
}
