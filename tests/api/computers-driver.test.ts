// @needs server chromium
// The driver boundary seen through HTTP with real Chromium: page_context carries
// the public SDK's names with real values, keys are one vocabulary, a stuck
// action times out after ACTION_TIMEOUT_SECONDS and the session keeps working.
// Every page is served by this test on 127.0.0.1.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createSession, execute, startSite, waitFor, type Site, type Target } from "./computers-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";

let site: Site;
const created: { id: string; target: Target }[] = [];

beforeAll(async () => {
  site = await startSite();
});

afterAll(async () => {
  await Promise.all(created.map(({ id, target }) => api("DELETE", `/computers/${id}`, undefined, target)));
  await site.close();
});

async function session(body: Record<string, unknown> = {}, target: Target = {}) {
  const s = await createSession(body, target);
  created.push({ id: s.id, target });
  return s;
}

describe("page_context", () => {
  // Also: the deprecated short names beside them.
  it("has the SDK's seven size and scroll fields with real values", async () => {
    const s = await session({ display: { width: 800, height: 600, scale: 1 } });
    // /form is 5000 px tall: a page taller than its viewport.
    const nav = await execute(s.id, { type: "go_to_url", url: `${site.url}/form` });
    expect(nav.page_context).toMatchObject({
      url: `${site.url}/form`,
      title: "form",
      tab_id: "tab_main",
      is_main_tab: true,
      viewport_width: 800,
      viewport_height: 600,
      device_scale_factor: 1,
      scroll_x: 0,
      scroll_y: 0,
      viewport_w: 800,
      viewport_h: 600,
    });
    expect(nav.page_context.page_height).toBeGreaterThan(5000);
    expect(nav.page_context.page_height).toBeGreaterThan(nav.page_context.viewport_height);
    expect(nav.page_context.page_width).toBeGreaterThanOrEqual(800);

    const scrolled = await api("POST", `/computers/${s.id}/scroll`, { dy: 700 });
    expect(scrolled.body.status).toBe("success");
    // The wheel scrolls asynchronously in the page: poll page_context until it shows.
    const after = await waitFor(
      "scroll_y after a scroll",
      async () => (await execute(s.id, { type: "get_html_content" })).page_context,
      (ctx) => ctx.scroll_y > 0,
    );
    expect(after.scroll_y).toBeLessThanOrEqual(after.page_height - after.viewport_height);
    expect(after.scroll_x).toBe(0);

    const shot = await api("POST", `/computers/${s.id}/screenshot`, { base64: true });
    expect(shot.body.page_context).toMatchObject({
      viewport_width: 800,
      viewport_height: 600,
      scroll_y: after.scroll_y,
    });
  });

  it("reports the device scale factor the session was made with", async () => {
    const s = await session({ display: { width: 640, height: 480, scale: 2 } });
    const nav = await execute(s.id, { type: "go_to_url", url: `${site.url}/page?n=1` });
    expect(nav.page_context).toMatchObject({ viewport_width: 640, viewport_height: 480, device_scale_factor: 2 });
  });
});

describe("keys", () => {
  it("takes xdotool, CUA and Playwright spellings alike, and refuses a name that is no key with a 400", async () => {
    const s = await session();
    await execute(s.id, { type: "go_to_url", url: `${site.url}/form` });
    for (const keys of [["Return"], ["enter"], ["ENTER"]]) {
      expect((await api("POST", `/computers/${s.id}/hotkey`, { keys })).body.status).toBe("success");
    }
    const page = (await execute(s.id, { type: "get_html_content" })).result.html_content as string;
    expect(page.match(/ENTER/g)?.length).toBeGreaterThanOrEqual(3);
    for (const key of ["Page_Down", "cmd", "ArrowLeft", "F5", "Control_L"]) {
      expect((await api("POST", `/computers/${s.id}/key-down`, { key })).body.status, key).toBe("success");
      expect((await api("POST", `/computers/${s.id}/key-up`, { key })).body.status, key).toBe("success");
    }
    const bad = await api("POST", `/computers/${s.id}/hotkey`, { keys: ["ctrl;rm"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ param: "keys" });
    expect(bad.body.error.message).toMatch(/Unknown key 'ctrl;rm'/);
  });
});

describe("action timeout", () => {
  let server: TestServer;
  let target: Target;
  let stall: Server;
  let stallUrl: string;

  beforeAll(async () => {
    // A page that never answers: navigation to it outlasts the action timeout.
    stall = createServer(() => {});
    await new Promise<void>((resolve) => stall.listen(0, "127.0.0.1", resolve));
    const address = stall.address();
    stallUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/never`;
    server = await startServer({ env: { ACTION_TIMEOUT_SECONDS: "2" } });
    target = { base: server.url, key: await createOrgKey(server, "Timeout Org") };
  });

  afterAll(async () => {
    await server?.destroy();
    stall?.closeAllConnections();
    await new Promise((resolve) => stall?.close(resolve));
  });

  it("fails a stuck action with status error naming the timeout, then runs the next action", async () => {
    const s = await createSession({}, target);
    const stuck = await api(
      "POST",
      `/computers/${s.id}/execute`,
      { action: { type: "go_to_url", url: stallUrl } },
      target,
    );
    expect(stuck.status).toBe(200);
    expect(stuck.body).toMatchObject({ status: "error", error_message: "Action timed out after 2 s" });
    const next = await api(
      "POST",
      `/computers/${s.id}/execute`,
      { action: { type: "go_to_url", url: `${site.url}/page?n=2` } },
      target,
    );
    expect(next.body).toMatchObject({ status: "success", page_context: { title: "page 2" } });
    await api("DELETE", `/computers/${s.id}`, undefined, target);
  });
});
