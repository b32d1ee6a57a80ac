// Fallbacks: a model's backends are tried in order until one accepts the
// request. Only failures that say "this backend, not this request" move on
// (a timeout, no connection, a 5xx, a 429); a 400 is the client's and is
// answered at once. Each backend is tried at most once, and only before it
// accepted: a backend "accepts" when its `generate`/`embed`/`forward` resolves,
// which is before the first byte of a streamed answer reaches the client, so a
// stream that already started is never retried elsewhere. Every try is kept in
// an AttemptLog that ends up in the usage row. Backends failing again and
// again are cooled down (Cooldowns) and skipped while a later one remains.
import { isAppError } from "@/lib/api/errors";
import { getEnv } from "@/lib/env";
import { Cooldowns, type CoolingBackend } from "@/lib/models/limits/cooldown";
import type { ModelBackendEntry, ResolvedModel } from "@/lib/models/types";
import { singleton, singletonKey } from "@/lib/singleton";
import type { RequestSignal } from "@/lib/models/gateway/request-signal";

export interface Attempt {
  backend: string;
  /** The status this try would have answered (200: accepted; 499: the client left). */
  status: number;
  error?: string;
  ms: number;
}

/** The tries of one request, and which backend answered. */
export class AttemptLog {
  readonly attempts: Attempt[] = [];
  answeredBy: string | undefined;
}

const cooldownsKey = singletonKey<Cooldowns>("models.cooldowns");

export function getCooldowns(): Cooldowns {
  return singleton(cooldownsKey, () => {
    const env = getEnv();
    return new Cooldowns({ failures: env.MODEL_COOLDOWN_FAILURES, coolMs: env.MODEL_COOLDOWN_SECONDS * 1000 });
  });
}

/** /api/health: the backends being skipped now. */
export function coolingBackends(): CoolingBackend[] {
  return getCooldowns().cooling();
}

const CLIENT_CLOSED = 499;

/** Upstream 5xx (our 502), timeouts (504), no connection (502), 429, and local backends that cannot serve (5xx). */
const movesOn = (status: number) => status >= 500 || status === 429;

/**
 * Runs `attempt` on the model's backends in order until one resolves; rethrows
 * the last failure when none did. A cooling backend is skipped unless it is
 * the last in the list, so a request always gets at least one try.
 */
export async function withFallback<T>(
  model: ResolvedModel,
  log: AttemptLog,
  signal: RequestSignal,
  attempt: (entry: ModelBackendEntry) => Promise<T>,
): Promise<T> {
  const cooldowns = getCooldowns();
  const last = model.backends.length - 1;
  let failure: unknown;
  for (let i = 0; i <= last; i++) {
    const entry = model.backends[i]!;
    if (i < last && cooldowns.isCooling(model.id, entry.name)) continue;
    const started = performance.now();
    try {
      const result = await attempt(entry);
      log.attempts.push({ backend: entry.name, status: 200, ms: Math.round(performance.now() - started) });
      log.answeredBy = entry.name;
      cooldowns.succeeded(model.id, entry.name);
      return result;
    } catch (err) {
      const status = signal.aborted ? CLIENT_CLOSED : isAppError(err) ? err.status : 500;
      const error = err instanceof Error ? err.message : String(err);
      log.attempts.push({ backend: entry.name, status, error, ms: Math.round(performance.now() - started) });
      if (status === CLIENT_CLOSED || !movesOn(status)) throw err;
      // A backend with no alternative is never skipped, so a cool-down would only mislead /api/health.
      if (last > 0) cooldowns.failed(model.id, entry.name);
      failure = err;
    }
  }
  throw failure;
}
