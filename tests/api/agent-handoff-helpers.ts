// Pieces of agent-tasks-handoff.test.ts: a task stream read as it comes, a
// take-over token signed with the server's own secret (for an expired one), and
// a live-view WebSocket opened and ready.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import WebSocket from "ws";
import { expect } from "vitest";
import type { AgentWorld } from "./agent-fixtures";

export interface Event {
  event: string;
  data: any;
}

/** GET /agent/tasks/{id}/stream, read as it comes. */
export async function follow(world: Pick<AgentWorld, "server" | "key">, taskId: string) {
  const res = await fetch(`${world.server.url}/agent/tasks/${taskId}/stream`, {
    headers: { authorization: `Bearer ${world.key}`, accept: "text/event-stream" },
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: Event[] = [];
  let buffer = "";
  let cursor = 0;
  const until = async (match: (e: Event) => boolean, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const at = events.findIndex((e, i) => i >= cursor && match(e));
      if (at >= 0) {
        cursor = at + 1;
        return events[at]!;
      }
      if (Date.now() > deadline) throw new Error(`no matching event; read: ${events.map((e) => e.event).join(",")}`);
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`stream ended; read: ${events.map((e) => e.event).join(",")}`);
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const record = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = /^event: (.*)$/m.exec(record)?.[1];
        const data = /^data: (.*)$/m.exec(record)?.[1];
        if (name && data) events.push({ event: name, data: JSON.parse(data) });
      }
    }
  };
  return { events, until, cancel: () => reader.cancel().catch(() => {}) };
}

/** A take-over token signed with the server's own secret (its capability-token format) for any expiry. */
export function signedToken(
  world: Pick<AgentWorld, "server">,
  taskId: string,
  handoffId: string,
  expiresAtSeconds: number,
): string {
  const secret = readFileSync(path.join(world.server.dataDir, "secret"), "utf8").trim();
  const text = ["cabin.task-handoff.v1", taskId, handoffId, String(expiresAtSeconds)].join("\0");
  return `${expiresAtSeconds}.${createHmac("sha256", secret).update(text).digest("base64url")}`;
}

/** Opens the live view's WebSocket and waits until it is open. */
export async function openLiveView(url: string) {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_req, res) => reject(new Error(`status ${res.statusCode}`)));
    ws.once("error", reject);
  });
  return ws;
}
