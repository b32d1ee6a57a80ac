// @needs server chromium
// Every method of the public Lightcone SDKs (TypeScript `client.computers.*`, `client.responses.*`,
// `client.chat.*`, `client.models.*`; Python's snake_case twins and its ComputerSession helper),
// sent exactly as their generated clients send it (method, path, query, body field names, headers:
// sdk-surface-fixtures.ts) and each answer checked against the SDK's declared response type.
// The agent.tasks methods have their own suite (agent-tasks-sdk.test.ts); every action's effect on
// a page is proven by computers-actions-all*.test.ts. docs/sdk-compatibility.md is the table.
// Desktop-only methods: sdk-surface-desktop.test.ts; model methods: sdk-surface-models.test.ts.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, type Target } from "./computers-fixtures";
import { startFormSite, type FormSite } from "./cua-loop-fixtures";
import {
  ActionResult,
  AnyObject,
  ComputerList,
  ComputerResponse,
  ComputerStatus,
  ComputersError,
  expectShape,
  sdkCall,
  sdkOpen,
  sdkAction,
  sdkCreateSession,
  type SdkLang,
} from "./sdk-surface-fixtures";
import { PROXY_PASS, PROXY_USER, startProxy, type Proxy as TestProxy } from "./test-proxy";
import { waitFor } from "./wait-for";

let shared: Required<Target>;
let site: FormSite;
let proxy: TestProxy;
const created: Array<{ id: string; t: Required<Target> }> = [];
const sdkCreate = (t: Required<Target>, body: Record<string, unknown>, lang: SdkLang = "js") =>
  sdkCreateSession(t, body, lang, created);
const action = sdkAction;

beforeAll(async () => {
  shared = { base: inject("baseUrl"), key: inject("apiKey") };
  [site, proxy] = await Promise.all([startFormSite(), startProxy()]);
});
afterAll(async () => {
  await Promise.all(created.map(({ id, t }) => api("DELETE", `/computers/${id}`, undefined, t)));
  await Promise.all([site?.close(), proxy?.close()]);
});

describe("the SDKs' computers methods on a browser session", () => {
  let id = "";
  const post = (name: string, body?: unknown, lang: "js" | "python" = "js") =>
    action(shared, { method: "POST", path: `/computers/${id}/${name}`, body, lang });

  // Also: keepalive.
  it("create (TS and Python field names), retrieve, retrieveStatus, list with and without type", async () => {
    // Python's client.computers.create sends the newer names; its client.computer.create adds kind "browser".
    const py = await sdkCreate(
      shared,
      { kind: "browser", max_lifetime_seconds: 600, idle_timeout_enabled: true, inactivity_timeout_seconds: 120 },
      "python",
    );
    expect(py).toMatchObject({
      kind: "browser",
      status: "ready",
      max_lifetime_seconds: 600,
      inactivity_timeout_seconds: 120,
      auto_kill: true,
    });
    // The TS SDK's create() with no argument sends {}.
    id = (await sdkCreate(shared, {})).id;
    const retrieved = expectShape(
      ComputerResponse,
      (await sdkCall(shared, { method: "GET", path: `/computers/${id}` })).body,
      "retrieve",
    );
    expect(retrieved).toMatchObject({ id, kind: "browser" });
    const status = await sdkCall(shared, { method: "GET", path: `/computers/${id}/status` });
    expect(expectShape(ComputerStatus, status.body, "retrieveStatus").id).toBe(id);
    for (const query of [undefined, { type: "live" }]) {
      const list = await sdkCall(shared, { method: "GET", path: "/computers", query });
      expect(expectShape(ComputerList, list.body, "list").map((s) => s.id)).toContain(id);
    }
    const persistent = await sdkCall(shared, { method: "GET", path: "/computers", query: { type: "persistent" } });
    expect(expectShape(ComputerList, persistent.body, "list persistent").map((s) => s.id)).not.toContain(id);
    // keepalive: a POST with no body and no content-type.
    const kept = await sdkCall(shared, { method: "POST", path: `/computers/${id}/keepalive` });
    expect(kept.status).toBe(200);
    expectShape(AnyObject, kept.body, "keepalive");
  });

  it("the per-action paths, with the SDK's body fields, each a successful ActionResult with its effect", async () => {
    const nav = await post("navigate", { url: site.url });
    expect(nav.page_context).toMatchObject({ url: `${site.url}/`, title: "cua form" });
    await post("click", { x: 640, y: 200 });
    await waitFor(() => Promise.resolve(site.events), {
      until: (e) => e.some((ev) => ev.kind === "click"),
      message: "the click on Go",
    });
    await post("type", { text: "from the sdk" }, "python");
    await post("hotkey", { keys: ["Enter"] });
    await waitFor(() => Promise.resolve(site.events), {
      until: (e) => e.some((ev) => ev.value === "from the sdk"),
      message: "the typed text submitted",
    });
    for (const [name, body] of [
      ["double-click", { x: 10, y: 650 }],
      ["right-click", { x: 10, y: 650 }],
      ["drag", { x1: 5, y1: 650, x2: 30, y2: 660 }],
      ["mouse-down", { x: 10, y: 650 }],
      ["mouse-up", { x: 10, y: 650 }],
      ["key-down", { key: "shift" }],
      ["key-up", { key: "Shift" }],
      ["scroll", { dx: 0, dy: 100, x: 0, y: 0 }],
      ["viewport", { width: 1024, height: 768, scale_factor: 1 }],
    ] as const) {
      await post(name, body);
    }
    const shot = await post("screenshot", { base64: false });
    expect(shot.result?.screenshot_url).toMatch(/^http/);
    expect((await fetch(String(shot.result?.screenshot_url))).headers.get("content-type")).toBe("image/png");
    expect(String((await post("screenshot", { base64: true })).result?.screenshot)).toMatch(/^iVBOR/);
    expect((await post("html", {})).result?.html_content).toContain('id="go"');
    expect((await post("html", { auto_detect_encoding: true })).result?.html_content).toContain('id="go"');
  });

  it("changeProxy sends later traffic through the proxy; null clears it", async () => {
    await post("change-proxy", { proxy_url: `http://${PROXY_USER}:${PROXY_PASS}@127.0.0.1:${proxy.port}` });
    await post("navigate", { url: `${site.url}/through-proxy` });
    expect(proxy.seen).toContain(`${site.url}/through-proxy`);
    await post("change-proxy", { proxy_url: null });
  });

  it("execute and batch with the SDK's ComputerAction fields (the Python helper's wait, go_to_url, tabs)", async () => {
    const exec = (act: Record<string, unknown>) =>
      action(shared, { method: "POST", path: `/computers/${id}/execute`, body: { action: act }, lang: "python" });
    await exec({ type: "wait", ms: 100 });
    await exec({ type: "go_to_url", url: site.url });
    await exec({ type: "screenshot", base64: false, include_context: true });
    const tab = await exec({ type: "new_tab", url: site.url });
    const tabId = String(tab.result?.created_tab_id ?? tab.executed_tab_id);
    await exec({ type: "switch_tab", tab_id: "tab_main" });
    await exec({ type: "close_tab", tab_id: tabId });
    const batch = await sdkCall(shared, {
      method: "POST",
      path: `/computers/${id}/batch`,
      body: {
        actions: [
          { type: "go_to_url", url: site.url },
          { type: "wait", ms: 50 },
          { type: "click", x: 640, y: 200 },
          { type: "screenshot" },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expectShape(AnyObject, batch.body, "ComputerBatchResponse");
  });

  it("tabs.create, tabs.list, tabs.switch (no body), tabs.delete", async () => {
    const made = await action(shared, { method: "POST", path: `/computers/${id}/tabs`, body: { url: site.url } });
    const tabId = String(made.result?.created_tab_id);
    const listed = await action(shared, { method: "GET", path: `/computers/${id}/tabs` });
    expect(((listed.result?.tabs ?? []) as Array<{ tab_id: string }>).map((t) => t.tab_id)).toEqual([
      "tab_main",
      tabId,
    ]);
    expectShape(
      ActionResult,
      (await sdkCall(shared, { method: "POST", path: `/computers/${id}/tabs/tab_main/switch` })).body,
      "tabs.switch",
    );
    expectShape(
      ActionResult,
      (await sdkCall(shared, { method: "DELETE", path: `/computers/${id}/tabs/${tabId}` })).body,
      "tabs.delete",
    );
  });

  // Also: retrieveWs answers 426 naming the WebSocket.
  it("retrieveEvents and retrieveScreencast open their streams with Accept */*", async () => {
    for (const stream of ["events", "screencast"]) {
      const abort = new AbortController();
      const res = await sdkOpen(
        shared,
        { method: "GET", path: `/computers/${id}/${stream}`, accept: "*/*" },
        abort.signal,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      abort.abort(); // an SSE stream never ends: read nothing, close it
    }
    const ws = await sdkCall(shared, { method: "GET", path: `/computers/${id}/ws`, accept: "*/*" });
    expect(ws.status).toBe(426);
    expect(expectShape(ComputersError, ws.body, "426").error.message).toMatch(/WebSocket/i);
  });

  // Cabin runs commands in desktops only.
  it("debug and exec.sync on a browser session are a 400 naming why", async () => {
    const res = await sdkCall(shared, {
      method: "POST",
      path: `/computers/${id}/debug`,
      body: { command: "echo hi", timeout_seconds: 120, max_output_length: 65536 },
    });
    expect(res.status).toBe(400);
    expect(expectShape(ComputersError, res.body, "debug on a browser").error.message).toMatch(/desktop/);
    // examples/qa.py calls exec.sync on its browser session: the same refusal.
    const sync = await sdkCall(shared, {
      method: "POST",
      path: `/computers/${id}/exec/sync`,
      body: { command: "echo done", timeout_seconds: 5 },
    });
    expect(sync.status).toBe(400);
    expect(expectShape(ComputersError, sync.body, "exec.sync on a browser").error.message).toMatch(/desktop/);
  });

  it("delete answers 204 with Accept */* (the SDK reads no body), and again on an ended session", async () => {
    for (let i = 0; i < 2; i++)
      expect((await sdkCall(shared, { method: "DELETE", path: `/computers/${id}`, accept: "*/*" })).status).toBe(204);
  });
});
