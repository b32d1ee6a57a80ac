// @needs server chromium
// Tabs (§4.4–4.7) and actions end to end in real Chromium, on pages served by
// this test on loopback.
import { describe, expect, inject, it } from "vitest";
import { freePort } from "./harness";
import { api, createSession, execute, html, poolStats, useSessionSuite, waitFor } from "./computers-fixtures";

const suite = useSessionSuite();
const session = suite.session;

const tabsOf = async (id: string) =>
  (await api("GET", `/computers/${id}/tabs`)).body.result.tabs as { tab_id: string; url: string; is_main: boolean }[];

describe("tabs", () => {
  it("starts with tab_main on about:blank; list, create with URL, switch, close keep the exact shapes", async () => {
    const s = await session();
    const first = await api("GET", `/computers/${s.id}/tabs`);
    expect(first.status).toBe(200);
    expect(first.body.result.tabs.map(({ tab_id, url, is_main }: any) => ({ tab_id, url, is_main }))).toEqual([
      { tab_id: "tab_main", url: "about:blank", is_main: true },
    ]);
    // Listing tabs counts as activity.
    expect((await api("GET", `/computers/${s.id}`)).body.status).toBe("running");

    const made = await api("POST", `/computers/${s.id}/tabs`, { url: `${suite.site.url}/page?n=two` });
    expect(made.status).toBe(200);
    const tabId = made.body.result.created_tab_id;
    expect(tabId).toMatch(/^tab_[0-9a-f]+$/);

    let tabs = await tabsOf(s.id);
    expect(tabs).toHaveLength(2);
    expect(tabs.find((t) => t.tab_id === tabId)).toMatchObject({ url: `${suite.site.url}/page?n=two`, is_main: true });
    expect(tabs.find((t) => t.tab_id === "tab_main")).toMatchObject({ is_main: false });

    const switched = await api("POST", `/computers/${s.id}/tabs/tab_main/switch`);
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ status: "success", active_tab: "tab_main" });
    tabs = await tabsOf(s.id);
    expect(tabs.find((t) => t.tab_id === "tab_main")!.is_main).toBe(true);
    // Actions go to the main tab.
    expect(await html(s.id)).not.toContain("page two");
    await api("POST", `/computers/${s.id}/tabs/${tabId}/switch`);
    expect(await html(s.id)).toContain("page two");

    const closed = await api("DELETE", `/computers/${s.id}/tabs/${tabId}`);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: "success", closed_tab: tabId });
    tabs = await tabsOf(s.id);
    expect(tabs.map((t) => [t.tab_id, t.is_main])).toEqual([["tab_main", true]]);
  });

  it("creating a tab without a URL opens about:blank; the body is optional", async () => {
    const s = await session();
    const made = await api("POST", `/computers/${s.id}/tabs`);
    expect(made.status).toBe(200);
    const tabs = await tabsOf(s.id);
    expect(tabs.find((t) => t.tab_id === made.body.result.created_tab_id)).toMatchObject({
      url: "about:blank",
      is_main: true,
    });
    expect((await api("POST", `/computers/${s.id}/tabs`, { url: "javascript:alert(1)" })).status).toBe(400);
  });

  it("closing the last tab is 409 and the session stays usable; unknown tabs are 404", async () => {
    const s = await session();
    const last = await api("DELETE", `/computers/${s.id}/tabs/tab_main`);
    expect(last.status).toBe(409);
    expect(last.body.error.message).toMatch(/last open tab/);
    expect((await api("GET", `/computers/${s.id}`)).body.status).toBe("running");
    expect(await tabsOf(s.id)).toHaveLength(1);
    expect((await api("POST", `/computers/${s.id}/tabs/tab_nope/switch`)).status).toBe(404);
    expect((await api("DELETE", `/computers/${s.id}/tabs/tab_nope`)).status).toBe(404);
    // Through /execute a missing tab is a failed action, not an HTTP error.
    const viaExecute = await execute(s.id, { type: "switch_tab", tab_id: "tab_nope" });
    expect(viaExecute).toMatchObject({ status: "error" });
    expect(viaExecute.error_message).toMatch(/not found/);
  });

  it("pages opened by the page itself (target=_blank) appear in the list and become main", async () => {
    const s = await session();
    await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/popup` });
    await execute(s.id, { type: "click", x: 50, y: 40 });
    const tabs = await waitFor(
      "popup tab",
      () => tabsOf(s.id),
      (t) => t.length === 2 && t.some((x) => x.url.endsWith("n=child")),
    );
    const child = tabs.find((t) => t.url.endsWith("/page?n=child"))!;
    expect(child.tab_id).toMatch(/^tab_/);
    expect(child.is_main).toBe(true);
    expect(await html(s.id)).toContain("page child");
    // And it can be closed like any other tab.
    expect((await api("DELETE", `/computers/${s.id}/tabs/${child.tab_id}`)).status).toBe(200);
    expect((await tabsOf(s.id)).map((t) => t.tab_id)).toEqual(["tab_main"]);
  });

  it("tab actions work through /execute too", async () => {
    const s = await session();
    const made = await execute(s.id, { type: "new_tab", url: `${suite.site.url}/page?n=x` });
    expect(made.status).toBe("success");
    const id = made.result.created_tab_id;
    const list = await execute(s.id, { type: "list_tabs" });
    expect(list.result.tabs.map((t: any) => t.tab_id)).toEqual(["tab_main", id]);
    expect((await execute(s.id, { type: "switch_tab", tab_id: "tab_main" })).status).toBe("success");
    expect((await execute(s.id, { type: "close_tab", tab_id: id })).result.closed_tab).toBe(id);
    const last = await api("POST", `/computers/${s.id}/execute`, { action: { type: "close_tab", tab_id: "tab_main" } });
    expect(last.status).toBe(409);
  });
});

describe("actions", () => {
  it("navigate, click, type, keypress, scroll, wait, html, with ActionResult fields", async () => {
    const s = await session();
    const nav = await api("POST", `/computers/${s.id}/navigate`, { url: `${suite.site.url}/form` });
    expect(nav.status).toBe(200);
    expect(nav.body).toMatchObject({
      status: "success",
      executed_tab_id: "tab_main",
      page_context: {
        url: `${suite.site.url}/form`,
        title: "form",
        tab_id: "tab_main",
        is_main_tab: true,
        viewport_w: 1280,
        viewport_h: 720,
      },
    });
    expect(nav.body.request_id).toBe(nav.headers.get("x-request-id"));
    expect(Date.parse(nav.body.timestamp)).toBeGreaterThan(0);

    await execute(s.id, { type: "click", x: 100, y: 20 });
    await execute(s.id, { type: "type", text: "hello" });
    await execute(s.id, { type: "keypress", keys: ["Return"] });
    await execute(s.id, { type: "click", x: 100, y: 130 });
    const page = await html(s.id);
    expect(page).toContain("ENTER");
    expect(page).toContain("CLICKED:hello");

    const scrolled = await api("POST", `/computers/${s.id}/scroll`, { dy: 400 });
    expect(scrolled.body.status).toBe("success");
    // A wait lets the page run: the 100 ms timer its click started has fired when a 1 s wait returns.
    expect(await html(s.id)).not.toContain("TIMER-FIRED");
    const waited = await api("POST", `/computers/${s.id}/batch`, {
      actions: [
        { type: "click", x: 600, y: 330 },
        { type: "wait", ms: 1000 },
      ],
    });
    expect(waited.body.status).toBe("success");
    expect(waited.body.results.map((r: { status: string }) => r.status)).toEqual(["success", "success"]);
    expect(await html(s.id)).toContain("TIMER-FIRED");
    expect((await api("POST", `/computers/${s.id}/hotkey`, { keys: ["ctrl", "a"] })).body.status).toBe("success");
    expect((await api("POST", `/computers/${s.id}/html`, {})).body.result.html_content).toContain("<input");
    const batch = await api("POST", `/computers/${s.id}/batch`, {
      actions: [
        { type: "wait", ms: 1 },
        { type: "switch_tab", tab_id: "tab_gone" },
        { type: "wait", ms: 1 },
      ],
    });
    expect(batch.body.status).toBe("error");
    expect(batch.body.results).toHaveLength(2);
  });

  it("a failed navigation answers 200 with status error", async () => {
    const s = await session();
    const res = await api("POST", `/computers/${s.id}/navigate`, { url: `http://127.0.0.1:${await freePort()}/` });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("error");
    expect(res.body.error_message).toMatch(/ERR_CONNECTION_REFUSED/);
  });

  it("screenshots as base64 and as a capability URL (the key works too)", async () => {
    const s = await session();
    await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/page?n=shot` });
    const b64 = await api("POST", `/computers/${s.id}/screenshot`, { base64: true });
    expect(b64.body).toMatchObject({ status: "success", result: { mime_type: "image/png" } });
    expect(Buffer.from(b64.body.result.screenshot, "base64").subarray(1, 4).toString()).toBe("PNG");

    const byUrl = await api("POST", `/computers/${s.id}/screenshot`, {});
    const url: string = byUrl.body.result.screenshot_url;
    expect(url.startsWith(`${inject("baseUrl")}/computers/${s.id}/screenshots/`)).toBe(true);
    const img = await fetch(url);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(
      Buffer.from(await img.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    // Without its token the link needs the key of the session's organization.
    const bare = url.split("?")[0];
    expect((await fetch(bare)).status).toBe(401);
    expect((await fetch(bare, { headers: { authorization: `Bearer ${inject("apiKey")}` } })).status).toBe(200);
    expect((await fetch(bare, { headers: { authorization: `Bearer ${inject("apiKeyB")}` } })).status).toBe(404);

    const jpeg = await execute(s.id, { type: "screenshot", base64: true, format: "jpeg", quality: 50 });
    expect(jpeg.result.mime_type).toBe("image/jpeg");
  });

  it("ended sessions leave no context or page behind", async () => {
    const before = await poolStats();
    const s = await createSession();
    await api("POST", `/computers/${s.id}/tabs`, { url: `${suite.site.url}/page?n=a` });
    const during = await poolStats();
    expect(during.session_contexts).toBe(before.session_contexts + 1);
    await api("DELETE", `/computers/${s.id}`);
    // Standby contexts (one blank page each) come and go with demand: compare what is not standby.
    const after = await waitFor(
      "context and pages closed",
      () => poolStats(),
      (p) =>
        p.contexts - p.standby_contexts === before.contexts - before.standby_contexts &&
        p.pages - p.standby_contexts === before.pages - before.standby_contexts,
    );
    expect(after.session_contexts).toBe(before.session_contexts);
  });
});
