// @needs server chromium desktop
// The session page's member routes through a real login against the real server:
// GET /api/sessions/{id}, POST /api/sessions/{id}/exec (NDJSON, a real desktop)
// and GET /api/sessions/{id}/events (SSE). The login cookie is the credential, the
// organization is the member's (another team's id is not found), and a cross-origin
// POST is refused before anything runs.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call } from "./client";
import { canRunDesktops } from "./desktop-fixtures";
import { signUp, type DashboardUser } from "./session-client";
import { ndjson, sse } from "./stream-client";
import { waitFor } from "./wait-for";

const base = () => inject("baseUrl");
const asMember = (user: DashboardUser) => ({ cookie: user.cookie, origin: base() });

describe("dashboard session tools: who may use them", () => {
  let alice: DashboardUser;
  let bob: DashboardUser;
  let browserId: string;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([signUp("Alice"), signUp("Bob")]);
    const created = await alice.request("POST", "/api/sessions", { kind: "browser" });
    expect(created.status).toBe(201);
    browserId = created.body.id;
  });
  afterAll(async () => {
    if (browserId) await alice.request("DELETE", `/api/sessions/${browserId}`);
  });

  it("answers the session (with its CDP URL) to the member", async () => {
    const tools = await alice.request("GET", `/api/sessions/${browserId}`);
    expect(tools.status).toBe(200);
    expect(tools.body).toMatchObject({ id: browserId, kind: "browser", termination_reason: null });
    expect(tools.body.status).toMatch(/^(ready|running)$/);
    expect(tools.body.endpoints.cdp).toMatch(
      new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/computers/${browserId}/cdp\\?token=\\d+\\.`),
    );
  });

  it("refuses every route without a login (401)", async () => {
    expect((await call("GET", `/api/sessions/${browserId}`, { key: null })).status).toBe(401);
    const events = await sse({ base: base() }, `/api/sessions/${browserId}/events`);
    expect(events.status).toBe(401);
    expect(JSON.parse(await events.text()).error.code).toBe("unauthorized");
    const exec = await call("POST", `/api/sessions/${browserId}/exec`, {
      key: null,
      body: { command: "true" },
      headers: { origin: base() },
    });
    expect(exec.status).toBe(401);
    // An API key is not a login: the dashboard's routes take only the cookie.
    const withKey = await call("GET", `/api/sessions/${browserId}`, { key: inject("apiKey") });
    expect(withKey.status).toBe(401);
  });

  it("treats another organization's session as not found", async () => {
    const tools = await bob.request("GET", `/api/sessions/${browserId}`);
    expect(tools.status).toBe(404);
    expect(tools.body.error.code).toBe("not_found");
    const events = await sse({ base: base() }, `/api/sessions/${browserId}/events`, asMember(bob));
    expect(events.status).toBe(404);
    // The exec stream answers 200 once the caller is known; the failure is its one line.
    const exec = await ndjson({ base: base() }, `/api/sessions/${browserId}/exec`, { command: "true" }, asMember(bob));
    expect(exec.status).toBe(200);
    expect(await exec.rest()).toEqual([
      { type: "error", code: "not_found", message: `Session '${browserId}' not found` },
    ]);
  });

  it("refuses a cross-origin POST to exec (403) and reads nothing of the body", async () => {
    const res = await call("POST", `/api/sessions/${browserId}/exec`, {
      key: null,
      body: { command: "true" },
      headers: { cookie: alice.cookie, origin: "http://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/Cross-origin/);
  });

  it("says a browser session cannot exec, in the stream's error line", async () => {
    const exec = await ndjson(
      { base: base() },
      `/api/sessions/${browserId}/exec`,
      { command: "true" },
      asMember(alice),
    );
    const lines = await exec.rest();
    expect(lines).toHaveLength(1);
    expect(lines[0].type).toBe("error");
    expect(lines[0].message).toMatch(/desktop/i);
  });

  // Also: a terminated session's events are kept for review.
  it("streams the member's session events and ends them with the session", async () => {
    const created = await alice.request("POST", "/api/sessions", { kind: "browser" });
    const id = created.body.id as string;
    const events = await sse({ base: base() }, `/api/sessions/${id}/events`, asMember(alice));
    expect(events.status).toBe(200);
    expect(events.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await events.until((e) => e.event === "comment" && e.data === "subscribed");
    // An action sent with an API key of the member's team shows up, paired by request_id.
    const key = (await alice.request("POST", "/api/keys", { name: "agent" })).body.key as string;
    const action = await call("POST", `/computers/${id}/execute`, { key, body: { action: { type: "wait", ms: 10 } } });
    expect(action.status).toBe(200);
    const seen = await events.until((e) => e.event === "action_response");
    const request = seen.find((e) => e.event === "action_request");
    expect(request?.data).toMatchObject({ request_id: action.body.request_id, action: { type: "wait", ms: 10 } });
    expect(seen.at(-1)?.data).toMatchObject({ request_id: action.body.request_id, status: "success" });
    expect((await alice.request("DELETE", `/api/sessions/${id}`)).status).toBe(204);
    const end = await events.until((e) => e.event === "ended");
    expect(end.at(-1)?.data.reason).toBe("deleted");
    await waitFor(() => alice.request("GET", `/api/sessions/${id}`), {
      until: (r) => r.body.status === "terminated",
      timeoutMs: 20_000,
      message: "the session to be terminated",
    });
    // The ended session's timeline stays for review (docs/watching-sessions.md): its events again, then `ended`.
    const after = await sse({ base: base() }, `/api/sessions/${id}/events`, asMember(alice));
    expect(after.status).toBe(200);
    const replayed = await after.until((e) => e.event === "ended");
    expect(replayed.find((e) => e.event === "action_request")?.data).toMatchObject({
      request_id: action.body.request_id,
    });
    expect(replayed.at(-1)?.data).toMatchObject({ reason: "deleted", timestamp: expect.any(String) });
  });
});

describe.skipIf(!canRunDesktops)("dashboard session tools: exec on a desktop", () => {
  let alice: DashboardUser;
  let id: string;
  beforeAll(async () => {
    alice = await signUp("Desk");
    const created = await alice.request("POST", "/api/sessions", { kind: "desktop" });
    if (created.status !== 201)
      throw new Error(`create desktop failed: ${created.status} ${JSON.stringify(created.body)}`);
    id = created.body.id;
  });
  afterAll(async () => {
    if (id) await alice.request("DELETE", `/api/sessions/${id}`);
  });

  it("streams output while the command runs, then its exit code, and mirrors it on the events", async () => {
    const events = await sse({ base: base() }, `/api/sessions/${id}/events`, asMember(alice));
    await events.until((e) => e.event === "comment" && e.data === "subscribed");
    // The command waits for a file the test creates only after it has read the first line,
    // so that line must have been streamed while the command ran.
    const gate = `/tmp/stools-gate-${Date.now()}`;
    const command = `echo first; while [ ! -e ${gate} ]; do sleep 0.1; done; echo oops >&2; exit 3`;
    const exec = await ndjson(
      { base: base() },
      `/api/sessions/${id}/exec`,
      { command, cwd: "/tmp", timeout_seconds: 60 },
      asMember(alice),
    );
    expect(exec.status).toBe(200);
    expect(exec.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    const requestId = exec.headers.get("x-request-id");
    expect(requestId).toBeTruthy();
    expect(await exec.next()).toEqual({ type: "stdout", data: "first\n" });
    const opener = await ndjson(
      { base: base() },
      `/api/sessions/${id}/exec`,
      { command: `touch ${gate}` },
      asMember(alice),
    );
    expect(await opener.rest()).toEqual([{ type: "exit", code: 0 }]);
    expect(await exec.rest()).toEqual([
      { type: "stderr", data: "oops\n" },
      { type: "exit", code: 3 },
    ]);
    const seen = await events.until((e) => e.event === "exec_exit" && e.data.request_id === requestId);
    expect(
      seen
        .filter((e) => e.data?.request_id === requestId && e.event === "exec_output")
        .map((e) => [e.data.request_id, Buffer.from(e.data.data, "base64").toString(), e.data.is_stderr]),
    ).toEqual([
      [requestId, "first\n", false],
      [requestId, "oops\n", true],
    ]);
    expect(seen.at(-1)?.data).toEqual({ request_id: requestId, exit_code: 3, command, timestamp: expect.any(String) });
    events.abort();
  });

  it("kills the command when the member's request goes away", async () => {
    const marker = `/tmp/stools-${Date.now()}`;
    const exec = await ndjson(
      { base: base() },
      `/api/sessions/${id}/exec`,
      { command: `echo started; sleep 3; touch ${marker}` },
      asMember(alice),
    );
    expect(await exec.next()).toEqual({ type: "stdout", data: "started\n" });
    exec.abort();
    // Had the command lived on, the marker would exist after its 3 s sleep.
    const check = await ndjson(
      { base: base() },
      `/api/sessions/${id}/exec`,
      { command: `sleep 4; test -e ${marker}` },
      asMember(alice),
    );
    expect(await check.rest()).toEqual([{ type: "exit", code: 1 }]);
  });
});
