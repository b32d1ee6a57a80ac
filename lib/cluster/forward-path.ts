// Which requests belong to one session, so that the node running it must answer
// them (docs/cluster.md "Forwarding"): every path under /computers/{id} (actions,
// streams, screenshots, the /ws, /cdp and vnc upgrades) and the dashboard's
// /api/sessions/{id}; and every request for one agent task (its loop runs on the
// node that started it): /agent/tasks/{id}… and the dashboard's /api/tasks/{id}…. Pure.

const SESSION_ID = /^comp_[0-9a-f]{24}$/;

/** The session id a request path names, or null when the path is not one session's. */
export function sessionIdOfPath(url: string): { id: string; surface: "computers" | "dashboard" } | null {
  const path = url.split("?", 1)[0]!;
  const parts = path.split("/");
  // ["", "computers", id, ...] or ["", "api", "sessions", id, ...]
  if (parts[1] === "computers" && parts[2] && SESSION_ID.test(parts[2])) return { id: parts[2], surface: "computers" };
  if (parts[1] === "api" && parts[2] === "sessions" && parts[3] && SESSION_ID.test(parts[3]))
    return { id: parts[3], surface: "dashboard" };
  return null;
}

/** /computers/{id}/files… and …/replays… (and the dashboard's /api/sessions/{id}/…): served by the node that holds them, also after the session ended. */
export function isSessionFilesPath(url: string): boolean {
  const parts = url.split("?", 1)[0]!.split("/");
  // final-screenshot: an ended session's last screen (the dashboard's), kept on the node that ran it.
  const kept = (part: string | undefined) => part === "files" || part === "replays" || part === "final-screenshot";
  if (parts[1] === "computers") return kept(parts[3]);
  return parts[1] === "api" && parts[2] === "sessions" && kept(parts[4]);
}

const TASK_ID = /^task_[0-9a-f]{24}$/;

/** The agent task id a request path names, or null when the path is not one task's. */
export function taskIdOfPath(url: string): { id: string; surface: "computers" | "dashboard" } | null {
  const parts = url.split("?", 1)[0]!.split("/");
  // ["", "agent", "tasks", id, ...] or ["", "api", "tasks", id, ...]
  if (parts[2] !== "tasks" || !parts[3] || !TASK_ID.test(parts[3])) return null;
  if (parts[1] === "agent") return { id: parts[3], surface: "computers" };
  return parts[1] === "api" ? { id: parts[3], surface: "dashboard" } : null;
}

/** The bearer token's presence, and a capability `token` in the query, as a forwarding node sees them. */
export function queryToken(url: string): string | null {
  const query = url.indexOf("?");
  if (query < 0) return null;
  return new URLSearchParams(url.slice(query + 1)).get("token");
}
