// @needs server chromium
// The dashboard's replay routes through a real login against the real server,
// Chromium and ffmpeg: Record and Stop recording on a live browser session, the
// list with the dashboard's own video address, the MP4 with Range for the page's
// <video>, delete; another team's member gets 404 and no login 401.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call } from "./client";
import { signUp, type DashboardUser } from "./session-client";
import { waitFor } from "./wait-for";

let alice: DashboardUser;
let bob: DashboardUser;
let id: string;

beforeAll(async () => {
  [alice, bob] = await Promise.all([signUp("Alice"), signUp("Bob")]);
  const created = await alice.request("POST", "/api/sessions", { kind: "browser" });
  expect(created.status).toBe(201);
  id = created.body.id;
});

afterAll(async () => {
  if (id) await alice.request("DELETE", `/api/sessions/${id}`);
});

describe("the session page's replays", () => {
  it("records, stops, lists and serves the video with Range, to the member's team only", async () => {
    expect((await alice.request("GET", `/api/sessions/${id}/replays`)).body).toEqual({ data: [] });
    const started = await alice.request("POST", `/api/sessions/${id}/replays`, { framerate: 5 });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: "recording", framerate: 5, finished_at: null });
    const replayId = started.body.replay_id as string;
    expect(started.body.replay_view_url).toBe(`/api/sessions/${id}/replays/${replayId}`);
    // Recording twice is refused, naming the running replay.
    const twice = await alice.request("POST", `/api/sessions/${id}/replays`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toContain(replayId);
    expect((await alice.request("POST", `/api/sessions/${id}/replays`, { framerate: 99 })).status).toBe(400);
    // Something to film: a navigation while it records.
    await alice.request("POST", `/api/sessions/${id}/tabs`, { url: "about:blank#recorded" });
    const stopped = await alice.request("POST", `/api/sessions/${id}/replays/${replayId}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body.finished_at).not.toBeNull();

    const list = await waitFor(() => alice.request("GET", `/api/sessions/${id}/replays`), {
      until: (res) => res.body.data[0]?.status === "ready",
      timeoutMs: 60_000,
      message: "the replay to be ready",
    });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].replay_view_url).toBe(`/api/sessions/${id}/replays/${replayId}`);

    const video = await fetch(`${inject("baseUrl")}/api/sessions/${id}/replays/${replayId}`, {
      headers: { cookie: alice.cookie, range: "bytes=0-99" },
    });
    expect(video.status).toBe(206);
    expect(video.headers.get("content-type")).toBe("video/mp4");
    const head = new Uint8Array(await video.arrayBuffer());
    expect(head.length).toBe(100);
    expect(new TextDecoder().decode(head.slice(4, 8))).toBe("ftyp");

    expect((await bob.request("GET", `/api/sessions/${id}/replays`)).status).toBe(404);
    expect((await bob.request("GET", `/api/sessions/${id}/replays/${replayId}`)).status).toBe(404);
    expect((await call("GET", `/api/sessions/${id}/replays`, { key: null })).status).toBe(401);

    expect((await alice.request("DELETE", `/api/sessions/${id}/replays/${replayId}`)).status).toBe(204);
    expect((await alice.request("GET", `/api/sessions/${id}/replays`)).body).toEqual({ data: [] });
  }, 120_000);
});
