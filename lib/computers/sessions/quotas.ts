// Per-organization quotas on this host's sessions (docs/security.md "Quotas"): how many
// browser and desktop sessions one organization may run at once, and how many it
// may create per minute. Pure rules; the SessionManager calls `QuotaGate.admit`
// with no await between the check and registering the session, so two creates at
// quota − 1 cannot both pass. Limits come from the settings (ORG_MAX_*), each
// overridable per organization by the operator (`organizationQuotas`).
import { AppError } from "@/lib/api/errors";
import type { ComputerKind } from "@/lib/computers/driver";
import { msUntilDue } from "@/lib/computers/sessions/lifecycle";
import type { Env } from "@/lib/env";

export interface OrganizationQuotas {
  browserSessions: number;
  desktopSessions: number;
  /** 0 = no limit. */
  createsPerMinute: number;
}

/** The operator's per-organization values (null = the server's setting). */
export interface QuotaOverrides {
  maxBrowserSessions: number | null;
  maxDesktopSessions: number | null;
  sessionCreatesPerMinute: number | null;
}

export const QUOTA_SETTING = {
  browserSessions: "ORG_MAX_BROWSER_SESSIONS",
  desktopSessions: "ORG_MAX_DESKTOP_SESSIONS",
  createsPerMinute: "ORG_SESSION_CREATES_PER_MINUTE",
} as const;

/**
 * The server's defaults: desktops default to a quarter of the host's slots, so two or three organizations never take
 * them all.
 */
export function defaultQuotas(
  env: Pick<
    Env,
    "ORG_MAX_BROWSER_SESSIONS" | "ORG_MAX_DESKTOP_SESSIONS" | "ORG_SESSION_CREATES_PER_MINUTE" | "DESKTOP_MAX_SESSIONS"
  >,
): OrganizationQuotas {
  return {
    browserSessions: env.ORG_MAX_BROWSER_SESSIONS,
    desktopSessions: env.ORG_MAX_DESKTOP_SESSIONS ?? Math.max(1, Math.floor(env.DESKTOP_MAX_SESSIONS / 4)),
    createsPerMinute: env.ORG_SESSION_CREATES_PER_MINUTE,
  };
}

export function effectiveQuotas(defaults: OrganizationQuotas, overrides: QuotaOverrides | null): OrganizationQuotas {
  return {
    browserSessions: overrides?.maxBrowserSessions ?? defaults.browserSessions,
    desktopSessions: overrides?.maxDesktopSessions ?? defaults.desktopSessions,
    createsPerMinute: overrides?.sessionCreatesPerMinute ?? defaults.createsPerMinute,
  };
}

/** What the gate needs of a live session (LiveSession has these). */
export interface QuotaSession {
  organizationId: string;
  kind: ComputerKind;
  ending: unknown;
  expiresAt: Date;
  idleExpiresAt: Date;
  autoKill: boolean;
}

/** Sessions not ending count: a deleted session frees its slot as soon as its row is terminated. */
export function liveUsage(sessions: Iterable<QuotaSession>, organizationId: string): Record<ComputerKind, number> {
  const usage: Record<ComputerKind, number> = { browser: 0, desktop: 0 };
  for (const s of sessions) if (s.organizationId === organizationId && !s.ending) usage[s.kind]++;
  return usage;
}

/**
 * What the organization runs, and created in the last minute, on the other nodes
 * (lib/computers/sessions/quotas-shared.ts).
 */
export interface QuotaElsewhere {
  sessions: QuotaSession[];
  /** Creation times (ms) within the last minute. */
  createdAt: number[];
}

const WINDOW_MS = 60_000;
const MAX_RETRY_AFTER_SECONDS = 60;

const clampSeconds = (ms: number) => String(Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(ms / 1000))));

export class QuotaGate {
  /** Creation times (ms) per organization within the last minute, oldest first. */
  private readonly recentCreates = new Map<string, number[]>();

  /**
   * Throws a 429 naming the quota when the organization may not start another session of
   * `kind` now; otherwise counts the creation. Synchronous on purpose (see the file comment).
   */
  admit(input: {
    sessions: Iterable<QuotaSession>;
    organizationId: string;
    kind: ComputerKind;
    quotas: OrganizationQuotas;
    /** The other nodes' share (a cluster on PostgreSQL; docs/cluster.md). */
    elsewhere?: QuotaElsewhere | null;
    now?: number;
  }): void {
    const { organizationId, kind, quotas } = input;
    const now = input.now ?? Date.now();
    const all = [...input.sessions, ...(input.elsewhere?.sessions ?? [])];
    const mine = all.filter((s) => s.organizationId === organizationId && s.kind === kind && !s.ending);
    const limit = kind === "browser" ? quotas.browserSessions : quotas.desktopSessions;
    if (mine.length >= limit) {
      // The earliest a slot frees by itself (a lifetime or idle deadline); a DELETE frees one at once.
      const soonest = Math.min(...mine.map((s) => msUntilDue(s, new Date(now))));
      const setting = kind === "browser" ? QUOTA_SETTING.browserSessions : QUOTA_SETTING.desktopSessions;
      throw new AppError(
        "rate_limited",
        `Quota reached: your organization may run ${limit} ${kind} session${limit === 1 ? "" : "s"} at once on ` +
          `this server (quota ${setting}) and runs ${mine.length}; end one (DELETE /computers/{id}) or retry when ` +
          `one ends`,
        { detail: "session_quota_exceeded", headers: { "retry-after": clampSeconds(soonest) } },
      );
    }
    if (quotas.createsPerMinute > 0) {
      const recent = (this.recentCreates.get(organizationId) ?? []).filter((at) => at > now - WINDOW_MS);
      const counted = [...recent, ...(input.elsewhere?.createdAt ?? [])].sort((x, y) => x - y);
      if (counted.length >= quotas.createsPerMinute) {
        this.recentCreates.set(organizationId, recent);
        throw new AppError(
          "rate_limited",
          `Creation rate reached: your organization may create ${quotas.createsPerMinute} sessions per minute ` +
            `on this server (quota ${QUOTA_SETTING.createsPerMinute})`,
          {
            detail: "session_create_rate_exceeded",
            headers: {
              "retry-after": clampSeconds(counted[counted.length - quotas.createsPerMinute]! + WINDOW_MS - now),
            },
          },
        );
      }
      recent.push(now);
      this.recentCreates.set(organizationId, recent);
    }
    this.forgetIdle(now);
  }

  /** Organizations with no creation in the last minute are dropped, so the map stays as small as the active set. */
  private forgetIdle(now: number) {
    if (this.recentCreates.size < 1000) return;
    for (const [org, times] of this.recentCreates)
      if (!times.length || times.at(-1)! <= now - WINDOW_MS) this.recentCreates.delete(org);
  }
}
