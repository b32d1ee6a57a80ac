// @needs server chromium
// What the session page offers around its screen, through a real login against
// the real server and Chromium: Back and Forward in the current tab
// (POST /api/sessions/{id}/tabs/{tab_id}/navigate {history}), and an ended
// session's last screen (GET /api/sessions/{id} → final_screenshot, and
// GET /api/sessions/{id}/final-screenshot), for the member's organization only.
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call } from "./client";
import { listenOnLoopback, type LoopbackServer } from "./loopback";
import { signUp, type DashboardUser } from "./session-client";
import { waitFor } from "./wait-for";

let site: LoopbackServer;
let alice: DashboardUser;
let bob: DashboardUser;
let id: string;

beforeAll(async () => {
  site = await listenOnLoopback(
    createServer((req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>page ${req.url}</title>`),
    ),
  );
  [alice, bob] = await Promise.all([signUp("Alice"), signUp("Bob")]);
  const created = await alice.request("POST", "/api/sessions", { kind: "browser" });
  expect(created.status).toBe(201);
  id = created.body.id;
});

afterAll(async () => {
  if (id) await alice.request("DELETE", `/api/sessions/${id}`);
  await site?.close();
});

async function currentTab() {
  const detail = await alice.request("GET", `/api/sessions/${id}`);
  expect(detail.status).toBe(200);
  return (detail.body.tabs as { id: string; url: string; title: string; active: boolean }[]).find((t) => t.active)!;
}

describe("the session page's Back and Forward", () => {
  it("goes back and forward through the current tab's history", async () => {
    const tab = await currentTab();
    const navigate = (body: unknown) => alice.request("POST", `/api/sessions/${id}/tabs/${tab.id}/navigate`, body);
    expect((await navigate({ url: `${site.url}/a` })).body.status).toBe("success");
    expect((await navigate({ url: `${site.url}/b` })).body.status).toBe("success");
    const back = await navigate({ history: "back" });
    expect(back.status).toBe(200);
    expect(back.body.status).toBe("success");
    expect(await currentTab()).toMatchObject({ id: tab.id, url: `${site.url}/a` });
    expect((await navigate({ history: "forward" })).body.status).toBe("success");
    expect(await currentTab()).toMatchObject({ id: tab.id, url: `${site.url}/b` });
  }, 60_000);

  it("refuses a direction that is not back or forward, and a body with both url and history (400)", async () => {
    const tab = await currentTab();
    const navigate = (body: unknown) => alice.request("POST", `/api/sessions/${id}/tabs/${tab.id}/navigate`, body);
    const sideways = await navigate({ history: "sideways" });
    expect(sideways.status).toBe(400);
    expect(sideways.body.error.message).toBe("history must be back or forward");
    const both = await navigate({ history: "back", url: `${site.url}/c` });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/either url or history/);
    // Another team's member does not see the session at all.
    expect((await bob.request("POST", `/api/sessions/${id}/tabs/${tab.id}/navigate`, { history: "back" })).status).toBe(
      404,
    );
  });
});

describe("an ended session's last screen", () => {
  it("has none while live (null, and the route says why in a 404)", async () => {
    expect((await alice.request("GET", `/api/sessions/${id}`)).body.final_screenshot).toBeNull();
    const none = await alice.request("GET", `/api/sessions/${id}/final-screenshot`);
    expect(none.status).toBe(404);
    expect(none.body.error.message).toMatch(/taken when a session ends/);
  });

  it("keeps the screen as it ended, served to the member's team only", async () => {
    expect((await alice.request("DELETE", `/api/sessions/${id}`)).status).toBe(204);
    const detail = await waitFor(() => alice.request("GET", `/api/sessions/${id}`), {
      until: (res) => res.body.final_screenshot !== null,
      message: "the ended session's final_screenshot",
    });
    expect(detail.body.status).toBe("terminated");
    const shot = detail.body.final_screenshot as { url: string; taken_at: string };
    expect(shot.url).toMatch(new RegExp(`^/api/sessions/${id}/final-screenshot\\?t=\\d+$`));
    expect(Date.parse(shot.taken_at)).toBeGreaterThanOrEqual(Date.parse(detail.body.created_at));

    const image = await fetch(`${inject("baseUrl")}${shot.url}`, { headers: { cookie: alice.cookie } });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await image.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(bytes.length).toBeGreaterThan(1_000);

    expect((await bob.request("GET", shot.url)).status).toBe(404);
    expect((await call("GET", shot.url, { key: null })).status).toBe(401);
  }, 60_000);
});
