// @needs server postgres chromium
// An ended session's timeline is kept in the database (docs/watching-sessions.md "The event timeline"): after
// the server restarts, the dashboard's review of the session still replays its events, then `ended` with the
// reason and time; another organization's member gets the usual 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "./harness";
import { sse } from "./stream-client";
import { waitFor } from "./wait-for";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.destroy();
});

/** A new team's owner: the login cookie and the headers a dashboard request carries. */
async function signUp(name: string) {
  const res = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email: `${name}-${Date.now()}@example.test`, password: "correct horse battery", name }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const headers = { cookie, origin: server.url };
  const request = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await answer.text();
    return { status: answer.status, body: text ? JSON.parse(text) : null };
  };
  return { headers, request };
}

describe("an ended session's timeline", () => {
  it("is replayed after a restart, then its end; not to another team", async () => {
    const alice = await signUp("alice");
    const created = await alice.request("POST", "/api/sessions", { kind: "browser" });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const key = (await alice.request("POST", "/api/keys", { name: "timeline" })).body.key as string;
    const action = await fetch(`${server.url}/computers/${id}/execute`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ action: { type: "wait", ms: 10 } }),
    }).then((r) => r.json());
    expect(action.status).toBe("success");
    expect((await alice.request("DELETE", `/api/sessions/${id}`)).status).toBe(204);
    await waitFor(() => alice.request("GET", `/api/sessions/${id}`), {
      until: (r) => r.body.status === "terminated",
      timeoutMs: 20_000,
      message: "the session to be terminated",
    });

    // A clean stop and a new process on the same data folder and database: nothing of the first one's memory.
    const before = server.process.pid;
    await server.stop();
    server = await server.restart();
    expect(server.process.pid).not.toBe(before);
    const after = await sse({ base: server.url }, `/api/sessions/${id}/events`, alice.headers);
    expect(after.status).toBe(200);
    const replayed = await after.until((e) => e.event === "ended");
    const request = replayed.find((e) => e.event === "action_request");
    expect(request?.data).toMatchObject({ request_id: action.request_id, action: { type: "wait", ms: 10 } });
    expect(request?.id).toBe("1");
    expect(replayed.find((e) => e.event === "action_response")?.data).toMatchObject({ status: "success" });
    const ended = replayed.at(-1)?.data;
    expect(ended).toMatchObject({ reason: "deleted", timestamp: expect.any(String) });
    expect(ended).not.toHaveProperty("history");

    const bob = await signUp("bob");
    expect((await bob.request("GET", `/api/sessions/${id}/events`)).status).toBe(404);
  });
});
