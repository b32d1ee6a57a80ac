// Session lifecycle rules (docs/contract.md), as pure functions: deadlines, what
// ends a session, and the public Session object. Unit tested.
import { sessionEndpoints } from "@/lib/computers/endpoints";

export type ComputerStatus = "ready" | "running" | "terminated";
export const LIVE_STATUSES: ComputerStatus[] = ["ready", "running"];

export type TerminationReason =
  | "deleted"
  | "max_lifetime"
  | "inactivity"
  | "last_tab_closed"
  | "server_shutdown"
  | "crashed"
  | "provision_failed";

export interface Deadlines {
  expiresAt: Date;
  idleExpiresAt: Date;
}

export interface LifetimeSettings {
  createdAt: Date;
  maxLifetimeSeconds: number;
  inactivityTimeoutSeconds: number;
}

export function initialDeadlines(s: LifetimeSettings): Deadlines & { lastActivityAt: Date } {
  const expiresAt = new Date(s.createdAt.getTime() + s.maxLifetimeSeconds * 1000);
  return {
    expiresAt,
    idleExpiresAt: idleDeadlineAfter(s.createdAt, s.inactivityTimeoutSeconds, expiresAt),
    lastActivityAt: s.createdAt,
  };
}

/**
 * Activity moves only the idle deadline; expires_at is fixed at creation. The
 * idle deadline never passes expires_at (docs/contract.md): clients schedule
 * keepalives by it, and the reaper ends the session at expires_at anyway.
 */
export function idleDeadlineAfter(activityAt: Date, inactivityTimeoutSeconds: number, expiresAt: Date): Date {
  return new Date(Math.min(activityAt.getTime() + inactivityTimeoutSeconds * 1000, expiresAt.getTime()));
}

export interface DueInput {
  expiresAt: Date;
  idleExpiresAt: Date;
  autoKill: boolean;
}

/** Why a live session must end now, or null. Lifetime wins when both are due. */
export function dueReason(s: DueInput, now: Date): TerminationReason | null {
  if (now.getTime() >= s.expiresAt.getTime()) return "max_lifetime";
  if (s.autoKill && now.getTime() >= s.idleExpiresAt.getTime()) return "inactivity";
  return null;
}

/** Milliseconds until the next deadline that applies (for scheduling), never negative. */
export function msUntilDue(s: DueInput, now: Date): number {
  const next = s.autoKill ? Math.min(s.expiresAt.getTime(), s.idleExpiresAt.getTime()) : s.expiresAt.getTime();
  return Math.max(0, next - now.getTime());
}

/** The columns of a Computer row the public object is built from. */
export interface ComputerRowLike {
  id: string;
  kind: string;
  status: string;
  createdAt: Date;
  expiresAt: Date;
  idleExpiresAt: Date;
  lastActivityAt: Date;
  terminatedAt: Date | null;
  terminationReason: string | null;
  maxLifetimeSeconds: number;
  inactivityTimeoutSeconds: number;
  autoKill: boolean;
  persistent: boolean;
  environmentId: string | null;
  useAdvancedProxy: boolean;
  stealth: boolean;
  contextId: string | null;
  displayWidth: number;
  displayHeight: number;
  displayScale: number;
}

/** Session object: every field of docs/contract.md "Sessions". */
/** `origin`: the public origin of the request being answered (publicOrigin), for `endpoints`. */
export function toSession(row: ComputerRowLike, origin: string) {
  // Rows written before the clamp in idleDeadlineAfter may still hold a later idle deadline.
  const idleExpiresAt = Math.min(row.idleExpiresAt.getTime(), row.expiresAt.getTime());
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    idle_expires_at: new Date(idleExpiresAt).toISOString(),
    last_activity_at: row.lastActivityAt.toISOString(),
    max_lifetime_seconds: row.maxLifetimeSeconds,
    inactivity_timeout_seconds: row.inactivityTimeoutSeconds,
    auto_kill: row.autoKill,
    idle_timeout_enabled: row.autoKill,
    persistent: row.persistent,
    environment_id: row.environmentId,
    use_advanced_proxy: row.useAdvancedProxy,
    stealth: row.stealth,
    display: { width: row.displayWidth, height: row.displayHeight, scale: row.displayScale },
    context_id: row.contextId,
    termination_reason: row.terminationReason,
    terminated_at: row.terminatedAt?.toISOString() ?? null,
    endpoints: sessionEndpoints(row, origin),
  };
}

export type SessionObject = ReturnType<typeof toSession>;

export function toSessionListItem(row: Pick<ComputerRowLike, "id" | "kind" | "status" | "createdAt">) {
  return { id: row.id, kind: row.kind, status: row.status, created_at: row.createdAt.toISOString() };
}
