// @needs server chromium
// GET /computers/{id}/events replays the session's kept events (docs/watching-sessions.md):
// `?since=0` gives what happened before the client subscribed, `Last-Event-ID` resumes after
// the last event a client saw, a bad value is a 400 naming it, and without either nothing is replayed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, createSession, startSite, type Site } from "./computers-fixtures";
import { sse } from "./stream-client";

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

describe("session events replay", () => {
  it("replays events from before the subscription, resumes after Last-Event-ID, and refuses a bad cursor", async () => {
    const s = await createSession();
    created.push(s.id);
    const first = await api("POST", `/computers/${s.id}/navigate`, { url: `${site.url}/page?n=replay1` });
    const second = await api("POST", `/computers/${s.id}/navigate`, { url: `${site.url}/page?n=replay2` });
    expect(first.body.status).toBe("success");
    expect(second.body.status).toBe("success");

    // Without a cursor: live events only, as before (the first item after "subscribed" is the next live one).
    const plain = await sse(a(), `/computers/${s.id}/events`);
    expect(await plain.next()).toEqual({ event: "comment", data: "subscribed" });

    const all = await sse(a(), `/computers/${s.id}/events?since=0`);
    expect(all.status).toBe(200);
    expect(await all.next()).toEqual({ event: "comment", data: "subscribed" });
    const replayed = await all.until(
      (e) => e.event === "action_response" && e.data.request_id === second.body.request_id,
    );
    expect(replayed.map((e) => [e.event, e.data.request_id])).toEqual([
      ["action_request", first.body.request_id],
      ["action_response", first.body.request_id],
      ["action_request", second.body.request_id],
      ["action_response", second.body.request_id],
    ]);
    expect(replayed[0].data.action).toMatchObject({ type: "go_to_url", url: `${site.url}/page?n=replay1` });
    const ids = replayed.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(4);

    // Resuming after the first response gives exactly the second action, then live events with the next numbers.
    const resumed = await sse(a(), `/computers/${s.id}/events`, { "last-event-id": replayed[1].id! });
    expect(await resumed.next()).toEqual({ event: "comment", data: "subscribed" });
    const rest = await resumed.until((e) => e.event === "action_response");
    expect(rest.map((e) => e.id)).toEqual([replayed[2].id, replayed[3].id]);
    const third = await api("POST", `/computers/${s.id}/navigate`, { url: `${site.url}/page?n=replay3` });
    const live = await resumed.until((e) => e.event === "action_response");
    expect(live.map((e) => [e.event, e.data.request_id, Number(e.id)])).toEqual([
      ["action_request", third.body.request_id, ids[3] + 1],
      ["action_response", third.body.request_id, ids[3] + 2],
    ]);
    // The cursor-less stream saw only the live action.
    expect((await plain.until((e) => e.event === "action_response")).map((e) => e.data.request_id)).toEqual([
      third.body.request_id,
      third.body.request_id,
    ]);
    for (const stream of [plain, all, resumed]) stream.abort();

    const bad = await sse(a(), `/computers/${s.id}/events?since=yesterday`);
    expect(bad.status).toBe(400);
    const body = JSON.parse(await bad.text());
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toContain("since");
  });
});
