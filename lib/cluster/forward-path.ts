// Which session or agent task each route addresses, declared once and only here (docs/cluster.md
// "Forwarding"), so that the node running it answers: by a path segment (PATH_ROUTES: everything under
// /computers/{id}, including the /ws, /cdp and vnc upgrades, the dashboard's /api/sessions/{id},
// /agent/tasks/{id} and /api/tasks/{id}: a task's loop runs on the node that started it), or by a body field
// (BODY_ROUTES: a task started on an existing session, an MCP tool call). The one forwarder in front of Next
// (`forwardHttp`) reads both: the body ones by reading a matching request's small JSON body first
// (`bodySessionOf`). No handler forwards. Pure.

const SESSION_ID = /^comp_[0-9a-f]{24}$/;
const TASK_ID = /^task_[0-9a-f]{24}$/;

type Surface = "computers" | "dashboard";

/** A route that names its session or task in a path segment, right after `prefix`. */
interface PathRoute {
  prefix: string[];
  addresses: "session" | "task";
  surface: Surface;
}

export const PATH_ROUTES: readonly PathRoute[] = [
  { prefix: ["computers"], addresses: "session", surface: "computers" },
  { prefix: ["api", "sessions"], addresses: "session", surface: "dashboard" },
  { prefix: ["agent", "tasks"], addresses: "task", surface: "computers" },
  { prefix: ["api", "tasks"], addresses: "task", surface: "dashboard" },
];

/** A JSON-RPC `tools/call` naming a session in its `session_id` argument (MCP, docs/mcp.md). */
function toolCallSession(message: unknown): unknown {
  const call = message as { method?: unknown; params?: { arguments?: { session_id?: unknown } } } | null;
  return call?.method === "tools/call" ? call.params?.arguments?.session_id : null;
}

const computerId = (body: unknown) => (body as { computer_id?: unknown } | null)?.computer_id;

/** A route that names its session in its JSON body, which the forwarder reads before it decides. */
export interface BodyRoute {
  method: "POST";
  path: string;
  sessionOf: (body: unknown) => unknown;
  surface: Surface;
}

export const BODY_ROUTES: readonly BodyRoute[] = [
  { method: "POST", path: "/agent/tasks", sessionOf: computerId, surface: "computers" },
  { method: "POST", path: "/agent/tasks/stream", sessionOf: computerId, surface: "computers" },
  { method: "POST", path: "/api/tasks", sessionOf: computerId, surface: "dashboard" },
  { method: "POST", path: "/mcp", sessionOf: toolCallSession, surface: "computers" },
];

function addressed(url: string, kind: PathRoute["addresses"]): { id: string; surface: Surface } | null {
  const parts = url.split("?", 1)[0]!.split("/").slice(1);
  const pattern = kind === "session" ? SESSION_ID : TASK_ID;
  for (const route of PATH_ROUTES) {
    if (route.addresses !== kind || !route.prefix.every((part, i) => parts[i] === part)) continue;
    const id = parts[route.prefix.length];
    if (id && pattern.test(id)) return { id, surface: route.surface };
  }
  return null;
}

/** The session id a request path names, or null when the path is not one session's. */
export const sessionIdOfPath = (url: string) => addressed(url, "session");

/** The agent task id a request path names, or null when the path is not one task's. */
export const taskIdOfPath = (url: string) => addressed(url, "task");

/** The body-addressed route (BODY_ROUTES) a request's method and path (its query aside) match, or null. */
export function bodyRouteOf(method: string | undefined, url: string): BodyRoute | null {
  const pathname = url.split("?", 1)[0];
  return BODY_ROUTES.find((r) => r.method === method && r.path === pathname) ?? null;
}

/**
 * The session a body-addressed request's bytes name, as the forwarder reads them: null (serve here, where the
 * handler answers its usual 413 or 400) past `limit` (the handler's own, `requestBodyLimit`), or when the bytes are
 * not JSON, or name no session.
 */
export function bodySessionOf(route: BodyRoute, bytes: Buffer, limit: number): string | null {
  if (bytes.length > limit) return null;
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString("utf8"));
  } catch {
    return null;
  }
  const id = route.sessionOf(body);
  return typeof id === "string" && SESSION_ID.test(id) ? id : null;
}

/**
 * /computers/{id}/files… and …/replays… (and the dashboard's /api/sessions/{id}/files…): served by the node that holds
 * them, also
 * after the session ended.
 */
export function isSessionFilesPath(url: string): boolean {
  const parts = url.split("?", 1)[0]!.split("/");
  // final-screenshot: an ended session's last screen (the dashboard's), kept on the node that ran it.
  const kept = (part: string | undefined) => part === "files" || part === "replays" || part === "final-screenshot";
  if (parts[1] === "computers") return kept(parts[3]);
  return parts[1] === "api" && parts[2] === "sessions" && kept(parts[4]);
}

/** The bearer token's presence, and a capability `token` in the query, as a forwarding node sees them. */
export function queryToken(url: string): string | null {
  const query = url.indexOf("?");
  if (query < 0) return null;
  return new URLSearchParams(url.slice(query + 1)).get("token");
}
