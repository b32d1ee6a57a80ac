// The session API (docs/contract.md "Sessions"):
// one function per route, each scoped to the caller's organization.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { assertServedHere, findOwnedComputer, reachSession } from "@/lib/computers/sessions/access";
import { parseCreateOptions, type CreateBody } from "@/lib/computers/sessions/create-options";
import type { ComputerKind, ProxyConfig, SavedState, WarmReservation } from "@/lib/computers/driver";
import { asAppError } from "@/lib/computers/actions/failures";
import { toSession, toSessionListItem, type SessionObject } from "@/lib/computers/sessions/lifecycle";
import {
  listComputerPage,
  parsePageQuery,
  type PagePosition,
  type PageQuery,
} from "@/lib/computers/sessions/list-page";
import { parseProxyUrl } from "@/lib/computers/egress/proxy";
import { getSessionManager } from "@/lib/computers/registry";
import { loadState } from "@/lib/computers/state/state-store";
import { openSessionProfile } from "@/lib/computers/profiles/profile-sessions";
import { assertRoomForReplay, recordNewSession } from "@/lib/computers/replays/replays";
import * as store from "@/lib/computers/sessions/store";

/** Who a session is created or managed for: an API key's organization, or a member in the dashboard (apiKeyId null). */
export interface SessionCaller {
  organizationId: string;
  apiKeyId: string | null;
  /** The dashboard member acting, named on the sessions they create. */
  userId?: string | null;
}

export async function createComputer(input: {
  principal: SessionCaller;
  body: unknown;
  origin: string;
}): Promise<SessionObject> {
  const env = getEnv();
  const options = parseCreateOptions(input.body, env.PLAN_MAX_LIFETIME_SECONDS);
  const manager = getSessionManager();
  const driver = manager.driverFor(options.kind);
  if (!driver) {
    throw new AppError(
      "not_implemented",
      `${options.kind} sessions are not available on this server yet; create a browser session (kind: "browser")`,
      { param: "kind", detail: "kind_not_available" },
    );
  }
  let proxy: ProxyConfig | undefined;
  if (options.useAdvancedProxy) {
    if (!env.ADVANCED_PROXY_URL) {
      throw new AppError(
        "invalid_request",
        "use_advanced_proxy: the operator of this server has not configured an advanced proxy (ADVANCED_PROXY_URL)",
        { param: "use_advanced_proxy", detail: "proxy_not_configured" },
      );
    }
    proxy = parseProxyUrl(env.ADVANCED_PROXY_URL);
  }
  const id = store.newComputerId();
  const profile = options.profile
    ? await openSessionProfile({ organizationId: input.principal.organizationId, ref: options.profile, computerId: id })
    : null;
  const restore = options.environmentId
    ? await loadEnvironment(input.principal.organizationId, options.environmentId, options.kind)
    : profile?.restore;
  const spec = { organizationId: input.principal.organizationId, viewport: options.display, stealth: options.stealth };
  let warm: WarmReservation | null = null;
  try {
    // Before the row exists: a refused request leaves nothing behind.
    driver.validate({ ...spec, proxy, restore });
    if (options.record) await assertRoomForReplay(input.principal.organizationId);
    const start = () =>
      manager.start({
        id,
        profileId: profile?.writerProfileId,
        organizationId: input.principal.organizationId,
        apiKeyId: input.principal.apiKeyId,
        createdByUserId: input.principal.userId ?? null,
        options,
        proxy,
        restore,
        warm: warm ?? undefined,
      });
    // A computer started ahead (standby) needs no start slot: only what still has to start queues.
    warm = driver.reserveWarm?.({ ...spec, proxy, restore }) ?? null;
    const row = warm ? await start() : await manager.admission.run(start, input.principal.organizationId);
    if (options.record) await recordNewSession(row);
    return toSession(row, input.origin);
  } catch (err) {
    await profile?.release().catch((e) => getLogger().warn({ err: e, id }, "could not let go of a profile"));
    throw asAppError(err);
  } finally {
    warm?.release();
  }
}

/**
 * The typed create for in-process clients (MCP, agent tasks): the body has the create schema's own type
 * (`CreateBody`), checked again by `createComputer` as POST /computers checks it.
 */
export function createSession(input: { principal: SessionCaller; body: CreateBody; origin: string }) {
  return createComputer(input);
}

/** environment_id: a persistent session of the same organization and kind that has saved state. */
async function loadEnvironment(organizationId: string, environmentId: string, kind: ComputerKind): Promise<SavedState> {
  const param = "environment_id";
  const source = await store.findComputer({ id: environmentId, organizationId });
  if (!source) {
    throw new AppError("not_found", `environment_id '${environmentId}' does not name a session of your organization`, {
      param,
      detail: "environment_not_found",
    });
  }
  if (!source.persistent) {
    throw new AppError(
      "invalid_request",
      `environment_id '${environmentId}' was not created with persistent: true, so it has no saved state`,
      {
        param,
        detail: "environment_not_persistent",
      },
    );
  }
  if (source.kind !== kind) {
    throw new AppError(
      "invalid_request",
      `environment_id '${environmentId}' is a ${source.kind} session; it cannot start a ${kind} session`,
      {
        param,
        detail: "environment_kind_mismatch",
      },
    );
  }
  // A session just deleted may still be saving its state in the background (deleteComputer).
  await getSessionManager().tornDown(environmentId);
  let state: SavedState | null;
  try {
    state = await loadState({ computerId: environmentId, organizationId });
  } catch (err) {
    getLogger().error({ err, environmentId }, "saved state unreadable");
    throw new AppError("internal", `The saved state of '${environmentId}' cannot be read: ${(err as Error).message}`);
  }
  if (!state) {
    throw new AppError(
      "invalid_request",
      `environment_id '${environmentId}' has no saved state yet: state is saved when the session ends and ` +
        `every ${getEnv().STATE_SAVE_INTERVAL_SECONDS} s while it runs`,
      { param, detail: "environment_has_no_state" },
    );
  }
  return state;
}

export { nextPageHeaders } from "@/lib/computers/sessions/list-page";

const listQuery = z.object({ type: z.enum(["live", "persistent"]).optional() });

/** What GET /computers lists: which sessions, and one page of them (`limit`/`cursor`) or, null, all. */
export interface SessionListQuery {
  type?: "live" | "persistent";
  page: PageQuery | null;
}

/** GET /computers's query string as a typed query (a 400 naming a bad `type`, `limit` or `cursor`). */
export function parseSessionListQuery(query: URLSearchParams): SessionListQuery {
  const { type } = parseWith(listQuery, Object.fromEntries(query));
  return { type, page: parsePageQuery(query) };
}

/**
 * GET /computers: every session, or one page of them (listComputerPage) and the position the next page
 * starts after (null on the last; the route names it in headers, `nextPageHeaders`).
 */
export async function listComputers(input: {
  principal: ApiPrincipal;
  query: SessionListQuery;
}): Promise<{ items: ReturnType<typeof toSessionListItem>[]; next: PagePosition | null }> {
  const { type, page } = input.query;
  // A persistent session just deleted is listed once its background save is done.
  if (type === "persistent") await getSessionManager().statesSaved(input.principal.organizationId);
  const organizationId = input.principal.organizationId;
  const filter = type ?? "all";
  if (!page)
    return { items: (await store.listComputers({ organizationId, filter })).map(toSessionListItem), next: null };
  const { rows, next } = await listComputerPage({ organizationId, filter, ...page });
  return { items: rows.map(toSessionListItem), next };
}

/** The organization's sessions, live or persistent ones, as GET /computers lists them without paging. */
export async function listSessions(input: { principal: ApiPrincipal; type: "live" | "persistent" }) {
  if (input.type === "persistent") await getSessionManager().statesSaved(input.principal.organizationId);
  const rows = await store.listComputers({ organizationId: input.principal.organizationId, filter: input.type });
  return rows.map(toSessionListItem);
}

/** GET /computers/{id} and /status: a read, not activity (polling must not keep a session alive). */
export async function getComputer(input: {
  principal: ApiPrincipal;
  id: string;
  origin: string;
}): Promise<SessionObject> {
  return toSession(await findOwnedComputer(input.principal, input.id), input.origin);
}

export async function keepAlive(input: {
  principal: SessionCaller;
  id: string;
  origin: string;
}): Promise<SessionObject> {
  const { row, live } = await reachSession(input.principal, input.id);
  const fresh = await store.findComputerById(row.id);
  return toSession(fresh ?? { ...row, status: "running", idleExpiresAt: live.idleExpiresAt }, input.origin);
}

/**
 * DELETE: answers once the row is terminated; the tear-down (saving a persistent session's
 * state, then closing its computer) goes on in the background, and a create from its
 * environment_id waits for that save (loadEnvironment). A terminated session is already done.
 */
export async function deleteComputer(input: { principal: SessionCaller; id: string }): Promise<void> {
  const row = await findOwnedComputer(input.principal, input.id);
  if (row.status === "terminated") return;
  assertServedHere(row);
  await getSessionManager().terminate(row.id, "deleted", "row");
}
