// The dashboard's view of the session domain: organization-scoped, paginated
// lists with what a person needs to see (who created a session, its tabs, its
// deadlines against the server's clock), and create/stop/keep-alive through
// the same service functions as the public API (createComputer, deleteComputer,
// keepAlive), attributed to the team (apiKeyId null) rather than a key.
import { z } from "zod";
import { parseWith } from "@/lib/api/request";
import type { Member } from "@/lib/auth/member";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { LIVE_STATUSES } from "@/lib/computers/sessions/lifecycle";
import { getSessionManager } from "@/lib/computers/registry";
import type { ComputerRow } from "@/lib/computers/sessions/store";
import { createComputer, deleteComputer, keepAlive, type SessionCaller } from "@/lib/computers/service";
import { tasksOfSessions, type SessionTask } from "@/lib/computers/dashboard/session-tasks";

export const SESSION_FILTERS = ["live", "ended", "persistent", "all"] as const;
export type SessionFilter = (typeof SESSION_FILTERS)[number];
export const MAX_PAGE_SIZE = 100;

const listQuery = z.object({
  filter: z.enum(SESSION_FILTERS).default("all"),
  q: z.string().trim().max(256).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(25),
});

/** One row of the dashboard's session list (snake_case JSON). */
export interface DashboardSession {
  id: string;
  kind: string;
  status: string;
  termination_reason: string | null;
  context_id: string | null;
  created_at: string;
  expires_at: string;
  idle_expires_at: string;
  terminated_at: string | null;
  auto_kill: boolean;
  persistent: boolean;
  /** Open tabs of a live browser session on this host; null when not known (ended, desktop, other host). */
  tab_count: number | null;
  /** The key that created the session, or null when a team member created it in the dashboard. */
  created_by_key: { name: string; prefix: string } | null;
  /** The member who created it in the dashboard (null for a key's session, or once the member is deleted). */
  created_by_member: { name: string; email: string } | null;
  /** The agent task that drives (or drove) the session: the live one, else the latest; null when none. */
  task: SessionTask | null;
}

export interface DashboardSessionList {
  /** The server's clock when the list was read: clients count down against it, not their own. */
  now: string;
  data: DashboardSession[];
  page: number;
  page_size: number;
  total: number;
}

function filterWhere(filter: SessionFilter) {
  switch (filter) {
    case "live":
      return { status: { in: LIVE_STATUSES } };
    case "ended":
      return { status: "terminated" };
    case "persistent":
      return { persistent: true };
    case "all":
      return {};
  }
}

/** Tabs come from the running handle's own count (no action, so reading is not activity). */
function tabCountOf(row: { id: string; kind: string; status: string }): number | null {
  if (row.kind !== "browser" || row.status === "terminated") return null;
  const pages = getSessionManager().get(row.id)?.handle?.resources().pages;
  return typeof pages === "number" ? pages : null;
}

/** The columns a list row is built from (a Computer row with its key's name and prefix). */
export type DashboardSessionRow = ComputerRow & {
  apiKey: { name: string; prefix: string } | null;
  createdBy: { name: string; email: string } | null;
};

/** The relations a list row or the session page reads beside the Computer row. */
export const DASHBOARD_SESSION_INCLUDE = {
  apiKey: { select: { name: true, prefix: true } },
  createdBy: { select: { name: true, email: true } },
} as const;

/** One row as the dashboard shows it; the session page (readSessionDetail) adds to it. */
export function toDashboardSession(r: DashboardSessionRow, task: SessionTask | null = null): DashboardSession {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    termination_reason: r.terminationReason,
    context_id: r.contextId,
    created_at: r.createdAt.toISOString(),
    expires_at: r.expiresAt.toISOString(),
    // The same clamp as toSession: the idle deadline never passes expires_at.
    idle_expires_at: new Date(Math.min(r.idleExpiresAt.getTime(), r.expiresAt.getTime())).toISOString(),
    terminated_at: r.terminatedAt?.toISOString() ?? null,
    auto_kill: r.autoKill,
    persistent: r.persistent,
    tab_count: tabCountOf(r),
    created_by_key: r.apiKey ? { name: r.apiKey.name, prefix: r.apiKey.prefix } : null,
    created_by_member: r.createdBy ? { name: r.createdBy.name, email: r.createdBy.email } : null,
    task,
  };
}

/** The rows as shown, each with the task that drives it. */
export async function withTasks(organizationId: string, rows: DashboardSessionRow[]): Promise<DashboardSession[]> {
  const tasks = await tasksOfSessions(
    organizationId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toDashboardSession(r, tasks.get(r.id) ?? null));
}

export async function listDashboardSessions(input: {
  organizationId: string;
  query: URLSearchParams;
}): Promise<DashboardSessionList> {
  const { filter, q, page, page_size } = parseWith(listQuery, Object.fromEntries(input.query));
  const where = {
    organizationId: input.organizationId,
    ...filterWhere(filter),
    ...(q ? { OR: [{ id: { contains: q } }, { contextId: { contains: q } }] } : {}),
  };
  const db = getDb();
  const [total, rows] = await Promise.all([
    db.computer.count({ where }),
    db.computer.findMany({
      where,
      include: DASHBOARD_SESSION_INCLUDE,
      // Live first: the statuses sort "ready" < "running" < "terminated", then newest first.
      orderBy: [{ status: "asc" }, { createdAt: "desc" }, { id: "asc" }],
      skip: (page - 1) * page_size,
      take: page_size,
    }),
  ]);
  return {
    now: new Date().toISOString(),
    page,
    page_size,
    total,
    data: await withTasks(input.organizationId, rows),
  };
}

/** What the "New session" form offers: the plan's limits, the operator's options, and saved environments. */
export async function sessionCreateOptions(input: { organizationId: string }) {
  const env = getEnv();
  const manager = getSessionManager();
  const environments = await getDb().computer.findMany({
    where: { organizationId: input.organizationId, persistent: true, state: { isNot: null } },
    select: { id: true, kind: true, contextId: true, createdAt: true },
    orderBy: { createdAt: "desc" },
    take: MAX_PAGE_SIZE,
  });
  return {
    plan_max_lifetime_seconds: env.PLAN_MAX_LIFETIME_SECONDS,
    proxy_configured: Boolean(env.ADVANCED_PROXY_URL),
    kinds: (["browser", "desktop"] as const).filter((kind) => manager.driverFor(kind)),
    environments: environments.map((e) => ({
      id: e.id,
      kind: e.kind,
      context_id: e.contextId,
      created_at: e.createdAt.toISOString(),
    })),
  };
}

export type SessionCreateOptions = Awaited<ReturnType<typeof sessionCreateOptions>>;

function teamCaller(member: Member): SessionCaller {
  return { organizationId: member.organizationId, apiKeyId: null, userId: member.userId };
}

/** POST /api/sessions: the body of POST /computers, created for the member's team. */
export function createSessionAs(member: Member, body: unknown, origin: string) {
  return createComputer({ principal: teamCaller(member), body, origin });
}

export function stopSessionAs(member: Member, id: string) {
  return deleteComputer({ principal: teamCaller(member), id });
}

export function keepSessionAliveAs(member: Member, id: string, origin: string) {
  return keepAlive({ principal: teamCaller(member), id, origin });
}
