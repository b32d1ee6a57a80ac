// @needs server chromium
// One session-end event (SessionEndBus, docs/computers.md "How a session ends"): a
// DELETE reaches every subscriber of a browser session's end — the /events stream, a
// /ws viewer and a CDP client — each with the same reason. (The order is unit-tested:
// tests/unit/computers-session-end.test.ts.) The row is terminated before anyone hears the end: an /events
// subscriber told of an inactivity end reads the session as terminated at once.
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, createSession, startSite, type Site } from "./computers-fixtures";
import { sse } from "./stream-client";

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site.close());

function openSocket(url: string) {
  const ws = new WebSocket(url);
  const texts: any[] = [];
  ws.on("message", (data, isBinary) => {
    if (!isBinary) texts.push(JSON.parse(data.toString()));
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const opened = new Promise((resolve, reject) => (ws.on("open", resolve), ws.on("error", reject)));
  return { ws, texts, closed, opened };
}

describe("the session-end event", () => {
  it("reaches /events, the live view and CDP clients with one reason", async () => {
    const s = await createSession({ persistent: true });
    await api("POST", `/computers/${s.id}/navigate`, { url: `${site.url}/page?n=end` });
    const events = await sse({ base: inject("baseUrl"), key: inject("apiKey") }, `/computers/${s.id}/events`);
    expect(await events.next()).toEqual({ event: "comment", data: "subscribed" });
    const viewer = openSocket(s.endpoints.ws);
    const cdp = openSocket(s.endpoints.cdp);
    await Promise.all([viewer.opened, cdp.opened]);

    expect((await api("DELETE", `/computers/${s.id}`)).status).toBe(204);
    const rest = await events.rest();
    expect(rest.at(-1)).toEqual({ event: "ended", data: { reason: "deleted", timestamp: expect.any(String) } });
    expect(await cdp.closed).toEqual({ code: 4000, reason: "session ended: deleted" });
    await viewer.closed;
    expect(viewer.texts.at(-1)).toEqual({ type: "ended", reason: "deleted" });
  });

  it("reaches its subscribers once the row is terminated, whatever ended it", async () => {
    const s = await createSession({ inactivity_timeout_seconds: 2 });
    const events = await sse({ base: inject("baseUrl"), key: inject("apiKey") }, `/computers/${s.id}/events`);
    expect(await events.next()).toEqual({ event: "comment", data: "subscribed" });
    const heard = await events.until((e) => e.event === "ended", 20_000);
    expect(heard.at(-1)).toEqual({ event: "ended", data: { reason: "inactivity", timestamp: expect.any(String) } });
    // Read once, not polled: the row was written before the event was sent.
    const row = await api("GET", `/computers/${s.id}`);
    expect(row.body).toMatchObject({ status: "terminated", termination_reason: "inactivity" });
  }, 30_000);
});
