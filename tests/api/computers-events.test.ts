// @needs server chromium
// GET /computers/{id}/events on a browser session (docs/contract.md "Streams"):
// each action's request and response with the ActionResult's request_id, tabs too;
// `ended` when the session terminates; JSON errors before the stream starts; and
// watching is not activity.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, createSession, startSite, waitFor, type Site } from "./computers-fixtures";
import { sse, type SseEvent } from "./stream-client";

let site: Site;
const created: string[] = [];
const a = () => ({ base: inject("baseUrl"), key: inject("apiKey") });

beforeAll(async () => {
  site = await startSite();
});

afterAll(async () => {
  await Promise.all(created.map((id) => api("DELETE", `/computers/${id}`)));
  await site.close();
});

async function session() {
  const s = await createSession();
  created.push(s.id);
  return s;
}

/** Opens the stream and waits for its first comment, after which the subscription is live. */
async function subscribe(id: string) {
  const stream = await sse(a(), `/computers/${id}/events`);
  expect(stream.status).toBe(200);
  expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
  expect(await stream.next()).toEqual({ event: "comment", data: "subscribed" });
  return stream;
}

const about = (requestId: string) => (e: SseEvent) => e.data?.request_id === requestId;

describe("session events", () => {
  it("shows an action's request and response with the request_id of its ActionResult", async () => {
    const s = await session();
    const stream = await subscribe(s.id);
    const nav = await api("POST", `/computers/${s.id}/navigate`, { url: `${site.url}/page?n=events` });
    expect(nav.body.status).toBe("success");
    const requestId: string = nav.body.request_id;
    const seen = (await stream.until((e) => e.event === "action_response" && about(requestId)(e))).filter(
      about(requestId),
    );
    expect(seen.map((e) => e.event)).toEqual(["action_request", "action_response"]);
    expect(seen[0].data).toMatchObject({
      request_id: requestId,
      action: { type: "go_to_url", url: `${site.url}/page?n=events` },
    });
    expect(Date.parse(seen[0].data.timestamp)).not.toBeNaN();
    expect(seen[1].data).toEqual({ request_id: requestId, status: "success", timestamp: expect.any(String) });
    stream.abort();
  });

  it("shows every action of a batch, a failed one with its error, and tab calls", async () => {
    const s = await session();
    const stream = await subscribe(s.id);
    const batch = await api("POST", `/computers/${s.id}/batch`, {
      actions: [
        { type: "wait", ms: 1 },
        { type: "click", x: 5, y: 5, tab_id: "tab_gone" },
      ],
    });
    expect(batch.body.status).toBe("error");
    const requestId: string = batch.body.request_id;
    const seen = (await stream.until((e) => e.event === "action_response" && e.data.status === "error")).filter(
      about(requestId),
    );
    expect(seen.map((e) => [e.event, e.data.action?.type ?? e.data.status])).toEqual([
      ["action_request", "wait"],
      ["action_response", "success"],
      ["action_request", "click"],
      ["action_response", "error"],
    ]);
    expect(seen[3].data.error_message).toBe(batch.body.results[1].error_message);

    const tab = await api("POST", `/computers/${s.id}/tabs`, { url: `${site.url}/page?n=tab` });
    expect(tab.status).toBe(200);
    const tabEvents = (
      await stream.until((e) => e.event === "action_response" && about(tab.body.request_id)(e))
    ).filter(about(tab.body.request_id));
    expect(tabEvents.map((e) => e.event)).toEqual(["action_request", "action_response"]);
    expect(tabEvents[0].data.action.type).toBe("new_tab");
    stream.abort();
  });

  it("is not activity, and ends with `ended` when the session terminates", async () => {
    const s = await session();
    const before = (await api("GET", `/computers/${s.id}`)).body;
    const stream = await subscribe(s.id);
    const during = (await api("GET", `/computers/${s.id}`)).body;
    expect(during.idle_expires_at).toBe(before.idle_expires_at);
    expect(during.status).toBe(before.status);
    expect((await api("DELETE", `/computers/${s.id}`)).status).toBe(204);
    const rest = await stream.rest();
    expect(rest.at(-1)).toEqual({ event: "ended", data: { reason: "deleted", timestamp: expect.any(String) } });
    // A terminated session has no stream: the JSON 409 of every operation on it.
    const late = await sse(a(), `/computers/${s.id}/events`);
    expect(late.status).toBe(409);
    expect(JSON.parse(await late.text()).error.code).toBe("conflict");
  });

  it("drops a subscriber whose client disconnected", async () => {
    const s = await session();
    const subscribers = async () =>
      ((await (await fetch(`${inject("baseUrl")}/api/health`)).json()) as any).checks.sessions
        .event_subscribers as number;
    const stream = await subscribe(s.id);
    expect(await subscribers()).toBe(1);
    stream.abort();
    await waitFor("the subscriber to be dropped", subscribers, (n) => n === 0, 5000, 50);
  });

  it("sends a heartbeat comment on a quiet stream, which stays open for what follows", async () => {
    const s = await session();
    const stream = await subscribe(s.id);
    // Nothing but the heartbeat (every 15 s) comes first on a stream where nothing happens.
    expect(await stream.until((e) => e.event === "comment", 20_000)).toEqual([{ event: "comment", data: "heartbeat" }]);
    expect((await api("DELETE", `/computers/${s.id}`)).status).toBe(204);
    expect((await stream.rest()).at(-1)).toEqual({
      event: "ended",
      data: { reason: "deleted", timestamp: expect.any(String) },
    });
  }, 30_000);

  it("answers a foreign or unknown session with a JSON 404 and no key with a 401", async () => {
    const s = await session();
    const foreign = await sse({ base: inject("baseUrl"), key: inject("apiKeyB") }, `/computers/${s.id}/events`);
    expect(foreign.status).toBe(404);
    expect(JSON.parse(await foreign.text()).error.code).toBe("not_found");
    const unknown = await sse(a(), `/computers/comp_nope/events`);
    expect(unknown.status).toBe(404);
    const anonymous = await sse({ base: inject("baseUrl"), key: "nope" }, `/computers/${s.id}/events`);
    expect(anonymous.status).toBe(401);
  });
});
