// Desktops browse (docs/desktop-browsing.md): on one desktop session, `navigate` opens a
// page served by this test on the host's loopback (10.0.2.2 from inside, allowed by
// SESSION_EGRESS_ALLOW) in the desktop's own Chromium, visible on the screen; `html`
// returns it; tabs are listed, opened, switched and closed with the browser sessions'
// shapes; exec in the same session still works (the QA flow). The DevTools channel is a
// pipe: no port in the desktop, none on the host, and a second desktop sees nothing of
// it. A refused destination is an ActionResult error. After DELETE no Chromium is left.
import { readdirSync, readlinkSync } from "node:fs";
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./computers-fixtures";
import {
  canRunDesktops,
  createDesktop,
  desktopHealth,
  exec,
  screenshot,
  startDesktopServer,
  waitTerminated,
  type DesktopServer,
} from "./desktop-fixtures";
import { desktopChromiumsOf, pixelAt, tcpListeners } from "./desktop-browse-fixtures";
import { listenOnLoopback, type LoopbackServer } from "./loopback";
import { startLoginSite } from "./login-site";
import { waitFor } from "./wait-for";

const HOST_LOOPBACK = "10.0.2.2";
const PAGES: Record<string, { title: string; color: string; rgb: [number, number, number] }> = {
  "/red": { title: "Red page", color: "#ff0000", rgb: [255, 0, 0] },
  "/green": { title: "Green page", color: "#00ff00", rgb: [0, 255, 0] },
};

let site: LoopbackServer;
beforeAll(async () => {
  site = await listenOnLoopback(
    createServer((req, res) => {
      const page = PAGES[req.url ?? ""];
      if (!page) return void res.writeHead(404).end("no such page");
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        `<!doctype html><title>${page.title}</title><body style="margin:0;background:${page.color};height:100vh"><p id="marker">served-by-the-test ${req.url}</p></body>`,
      );
    }),
  );
});
afterAll(async () => {
  await site?.close();
});
/** The test page's URL as the desktop sees it. */
const pageUrl = (name: string) => `http://${HOST_LOOPBACK}:${new URL(site.url).port}${name}`;

describe.skipIf(!canRunDesktops)("desktops browse in their own Chromium", () => {
  // useDesktopServer's start, with room for a machine whose other suites keep both cores busy.
  const s = {} as DesktopServer;
  beforeAll(async () => {
    Object.assign(s, await startDesktopServer({ SESSION_EGRESS: "public-only", SESSION_EGRESS_ALLOW: "127.0.0.0/8" }));
  }, 600_000);
  afterAll(async () => {
    await s.server?.destroy();
  }, 120_000);
  let a = "";
  let b = "";
  const act = async (action: Record<string, unknown>) =>
    (await api("POST", `/computers/${a}/execute`, { action }, s.a)).body;

  it("navigate opens the page in the desktop's Chromium, on its screen; html returns it; exec still works", {
    timeout: 180_000,
  }, async () => {
    a = (await createDesktop(s.a)).id;
    // No browser yet: no tabs, and html says how to open one.
    expect((await api("GET", `/computers/${a}/tabs`, undefined, s.a)).body).toMatchObject({
      status: "success",
      result: { tabs: [] },
    });
    const nav = await api("POST", `/computers/${a}/navigate`, { url: pageUrl("/red") }, s.a);
    expect(nav.status).toBe(200);
    expect(nav.body).toMatchObject({
      status: "success",
      executed_tab_id: "tab_main",
      result: { url: pageUrl("/red"), http_status: 200 },
      page_context: {
        url: pageUrl("/red"),
        title: "Red page",
        tab_id: "tab_main",
        is_main_tab: true,
        viewport_width: 1280,
        viewport_height: 720,
      },
    });
    const html = await api("POST", `/computers/${a}/html`, {}, s.a);
    expect(html.body.status).toBe("success");
    expect(html.body.result.html_content).toContain("served-by-the-test /red");
    // A normal window on the desktop's screen: the page's colour fills its lower part.
    await waitFor(async () => pixelAt(await screenshot(s.a, a), 640, 600), {
      until: (rgb) => rgb.join() === "255,0,0",
      timeoutMs: 20_000,
      message: "the red page on the screen",
    });
    // The QA flow: exec beside the browser, in the same session; Chromium runs as the desktop user.
    const ps = await exec(
      s.a,
      a,
      "ps -o user=,args= -C chromium | head -1; test -d ~/.config/chromium/Default && echo profile-in-home",
    );
    expect(ps.exit_code).toBe(0);
    expect(ps.stdout).toMatch(/^user\s+\S*chromium/);
    // Its profile is a file of the desktop (a persistent desktop's snapshot keeps it).
    expect(ps.stdout).toContain("profile-in-home");
    // A later navigate reuses the same browser (still one window, one tab).
    expect((await act({ type: "go_to_url", url: pageUrl("/green") })).status).toBe("success");
    const tabs = (await api("GET", `/computers/${a}/tabs`, undefined, s.a)).body.result.tabs;
    expect(tabs).toEqual([{ tab_id: "tab_main", url: pageUrl("/green"), is_main: true, title: "Green page" }]);
  });

  it("opens, lists, switches and closes tabs with the browser sessions' shapes", { timeout: 120_000 }, async () => {
    const created = await api("POST", `/computers/${a}/tabs`, { url: pageUrl("/red") }, s.a);
    expect(created.status).toBe(200);
    const second = created.body.result.created_tab_id as string;
    expect(second).toMatch(/^tab_[0-9a-f]{8}$/);
    expect(created.body.result.navigation_error).toBeUndefined();
    await waitFor(async () => pixelAt(await screenshot(s.a, a), 640, 600), {
      until: (rgb) => rgb.join() === "255,0,0",
      timeoutMs: 20_000,
      message: "the new (red) tab in front",
    });
    const listed = (await api("GET", `/computers/${a}/tabs`, undefined, s.a)).body.result.tabs;
    expect(listed).toEqual([
      { tab_id: "tab_main", url: pageUrl("/green"), is_main: false, title: "Green page" },
      { tab_id: second, url: pageUrl("/red"), is_main: true, title: "Red page" },
    ]);
    const switched = await api("POST", `/computers/${a}/tabs/tab_main/switch`, undefined, s.a);
    expect(switched.body).toMatchObject({ status: "success", active_tab: "tab_main" });
    await waitFor(async () => pixelAt(await screenshot(s.a, a), 640, 600), {
      until: (rgb) => rgb.join() === "0,255,0",
      timeoutMs: 20_000,
      message: "the main (green) tab in front",
    });
    expect((await act({ type: "get_html_content" })).result.html_content).toContain("served-by-the-test /green");
    expect((await act({ type: "get_html_content", tab_id: second })).result.html_content).toContain(
      "served-by-the-test /red",
    );
    const closed = await api("DELETE", `/computers/${a}/tabs/${second}`, undefined, s.a);
    expect(closed.body).toMatchObject({ status: "success", closed_tab: second });
    expect((await api("DELETE", `/computers/${a}/tabs/${second}`, undefined, s.a)).status).toBe(404);
    expect((await api("DELETE", `/computers/${a}/tabs/tab_main`, undefined, s.a)).status).toBe(409);
    expect((await act({ type: "list_tabs" })).result.tabs.map((t: { tab_id: string }) => t.tab_id)).toEqual([
      "tab_main",
    ]);
  });

  it("refuses what the desktop's egress policy refuses, as an ActionResult error", { timeout: 60_000 }, async () => {
    const cabin = `http://${HOST_LOOPBACK}:${new URL(s.server.url).port}/`;
    const refused = await act({ type: "go_to_url", url: cabin });
    expect(refused.status).toBe("error");
    expect(refused.error_message).toMatch(/ERR_/);
    expect((await act({ type: "go_to_url", url: pageUrl("/red") })).status).toBe("success");
  });

  it("keeps its DevTools channel a pipe: no port in the desktop or on the host, nothing for another desktop", {
    timeout: 180_000,
  }, async () => {
    const inside = await exec(
      s.a,
      a,
      [
        "pid=$(pgrep -o -x chromium); tr '\\0' ' ' < /proc/$pid/cmdline; echo",
        "awk 'NR>1 && $4==\"0A\"' /proc/net/tcp /proc/net/tcp6 | wc -l",
        "ls ~/.config/chromium/DevToolsActivePort 2>&1 || true",
      ].join("; "),
    );
    const [cmdline, listeners, activePort] = inside.stdout.trim().split("\n");
    expect(cmdline).toContain("--remote-debugging-pipe");
    expect(cmdline).not.toMatch(/--remote-debugging-(port|address)/);
    expect(listeners.trim()).toBe("0");
    expect(activePort).toMatch(/No such file/);
    // From the host: none of its processes holds a listening TCP socket, in its namespace or the host's.
    const pids = desktopChromiumsOf(s.server.process.pid!);
    expect(pids.length).toBeGreaterThan(0);
    const listening = new Set([
      ...tcpListeners(`/proc/${pids[0]}/net/tcp`),
      ...tcpListeners(`/proc/${pids[0]}/net/tcp6`),
      ...tcpListeners("/proc/1/net/tcp"),
      ...tcpListeners("/proc/1/net/tcp6"),
    ]);
    for (const pid of pids) {
      // The link's target names the socket ("socket:[inode]"). Reading the fd instead would open
      // what it points to: /dev/urandom never ends (the worker died of std::bad_alloc) and the
      // DevTools pipe would block or steal Cabin's messages.
      const sockets = readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
        try {
          return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]];
        } catch {
          return [];
        }
      });
      expect(sockets.filter((inode) => inode && listening.has(inode))).toEqual([]);
    }
    // Another desktop (another organization) sees no Chromium and reaches no DevTools port.
    b = (await createDesktop(s.b)).id;
    const probe = await exec(
      s.b,
      b,
      [
        "pgrep -c chromium || true",
        ...["127.0.0.1", HOST_LOOPBACK].map(
          (host) =>
            `python3 -c 'import socket; s=socket.socket(); s.settimeout(3); print("CONNECTED" if s.connect_ex(("${host}", 9222)) == 0 else "REFUSED")'`,
        ),
      ].join("; "),
    );
    expect(probe.stdout.trim().split("\n")).toEqual(["0", "REFUSED", "REFUSED"]);
  });

  it("fills a stored login into a page of its Chromium (fill_credentials, docs/credentials.md)", {
    timeout: 120_000,
  }, async () => {
    const login = await startLoginSite();
    try {
      const values = { username: "desk@acme.test", password: "Desk-pass-9b1e47" };
      const stored = await api("POST", "/credentials", { name: "desk", domain: HOST_LOOPBACK, values }, s.a);
      expect(stored.status).toBe(201);
      const url = `http://${HOST_LOOPBACK}:${new URL(login.url).port}/login`;
      expect((await act({ type: "go_to_url", url })).status).toBe("success");
      const filled = await act({ type: "fill_credentials", name: "desk" });
      expect(filled.result).toEqual({ credential: "desk", filled: ["username", "password"] });
      expect(JSON.stringify(filled)).not.toContain(values.password);
      // The last field filled keeps the focus: Enter (xdotool, to the desktop's focused window) submits the form.
      expect((await act({ type: "keypress", keys: ["Enter"] })).status).toBe("success");
      const submitted = await waitFor(() => login.submissions.at(-1), { message: "the desktop's submission" });
      expect(submitted).toMatchObject({ user: values.username, password: values.password, code: "" });
    } finally {
      await login.close();
    }
  });

  it("leaves no Chromium of the session after DELETE", { timeout: 120_000 }, async () => {
    expect(desktopChromiumsOf(s.server.process.pid!).length).toBeGreaterThan(0);
    for (const [id, t] of [
      [a, s.a],
      [b, s.b],
    ] as const) {
      if (id) expect((await api("DELETE", `/computers/${id}`, undefined, t)).status).toBe(204);
    }
    await waitTerminated(s.a, a);
    await waitFor(() => desktopChromiumsOf(s.server.process.pid!), {
      until: (pids) => pids.length === 0,
      timeoutMs: 20_000,
      message: "no desktop Chromium left",
    });
    await waitFor(() => desktopHealth(s.a), {
      until: (h) => h.desktop_processes === 0 && h.live_desktops === 0,
      timeoutMs: 20_000,
      message: "no desktop process left",
    });
  });
});
