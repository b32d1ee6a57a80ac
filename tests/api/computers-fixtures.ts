// Shared pieces of the computers-*.test.ts files: a session client, the pool
// counters of /api/health, polling, and a loopback web site whose pages set and
// read browser state, open popups, and count requests.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { call, type ApiResponse } from "./client";
import { waitFor as poll } from "./wait-for";
import { listenOnLoopback } from "./loopback";

export interface Target {
  base?: string;
  key?: string;
}

export function api<T = any>(
  method: string,
  urlPath: string,
  body?: unknown,
  target: Target = {},
): Promise<ApiResponse<T>> {
  return call<T>(method, urlPath, { body, base: target.base, key: target.key });
}

export async function createSession(body: Record<string, unknown> = {}, target: Target = {}) {
  const res = await api("POST", "/computers", body, target);
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, any> & { id: string };
}

export async function execute(id: string, action: Record<string, unknown>, target: Target = {}) {
  const res = await api("POST", `/computers/${id}/execute`, { action }, target);
  if (res.status !== 200) throw new Error(`execute ${action.type} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, any>;
}

export async function html(id: string, target: Target = {}): Promise<string> {
  const res = await execute(id, { type: "get_html_content" }, target);
  return res.result.html_content as string;
}

export interface PoolStats {
  browsers: number;
  /** Browsers that belong to an organization; the others are spares holding the standby. */
  organization_browsers: number;
  contexts: number;
  session_contexts: number;
  standby_contexts: number;
  /** BROWSER_STANDBY_CONTEXTS: the standby's size without recent demand. */
  standby_floor: number;
  /** What the standby is being filled to: its floor, raised by recent demand. */
  standby_target: number;
  pages: number;
  chromium_processes: number;
}

export async function poolStats(
  base: string = inject("baseUrl"),
): Promise<PoolStats & { live_sessions: number; ending_sessions: number }> {
  const res = await fetch(`${base}/api/health`);
  const body = (await res.json()) as any;
  return {
    ...body.checks.sessions.browser,
    live_sessions: body.checks.sessions.live_sessions,
    ending_sessions: body.checks.sessions.ending_sessions,
  };
}

/** The pool once no ended session is still being torn down: a baseline that earlier tests' deletes cannot move. */
export function quietPoolStats(base?: string) {
  return poll(() => poolStats(base), {
    until: (p) => p.ending_sessions === 0,
    timeoutMs: 30_000,
    message: "no session still being torn down",
  });
}

/** The shared poll (`waitFor` of wait-for) with positional arguments, as the session suites call it. */
export function waitFor<T>(
  what: string,
  fn: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs = 15_000,
  everyMs = 200,
): Promise<T> {
  return poll(fn, { until: ok, timeoutMs, intervalMs: everyMs, message: what });
}

/** Chromium main processes this test's server started (the same marker as `ownerMarker`). */
export function chromiumPidsOf(dataDir: string, hostId = "local"): number[] {
  const hash = createHash("sha256")
    .update(`${path.resolve(dataDir)}\0${hostId}`)
    .digest("hex")
    .slice(0, 16);
  const marker = `--cabin-owner=${hash}`;
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker)) pids.push(Number(name));
    } catch {
      // exited
    }
  }
  return pids;
}

const STATE_SCRIPT = `
async function idb(mode, value) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("cabin-test", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("kv");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction("kv", mode === "write" ? "readwrite" : "readonly");
      const store = tx.objectStore("kv");
      const req = mode === "write" ? store.put(value, "value") : store.get("value");
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error);
    };
  });
}`;

export interface Site {
  url: string;
  /** Request paths seen, in order (to tell direct from proxied loads apart). */
  hits: string[];
  close(): Promise<void>;
}

/** A loopback web site for the browser: pages that set/read state, popups, forms. */
export async function startSite(): Promise<Site> {
  const hits: string[] = [];
  const page = (title: string, body: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://site");
    hits.push(url.pathname + url.search);
    const v = url.searchParams.get("v") ?? "";
    let body: string;
    if (url.pathname === "/set-state") {
      body = page(
        "setting",
        `<script>${STATE_SCRIPT}
        document.cookie = "c=${v}; max-age=86400; path=/";
        localStorage.setItem("k", "${v}");
        idb("write", "${v}").then(() => { document.body.append("STATE" + "-SET"); });
      </script>`,
      );
    } else if (url.pathname === "/read-state") {
      body = page(
        "reading",
        `<script>${STATE_SCRIPT}
        const cookie = (document.cookie.match(/(?:^|; )c=([^;]*)/) || [])[1] || "none";
        const local = localStorage.getItem("k") || "none";
        // Markers are split in the source so the page's own HTML never matches them.
        const show = (value) => document.body.append("STA" + "TE:" + cookie + "|" + local + "|" + value + ":E" + "ND");
        idb("read").then((value) => show(value || "none"), () => show("error"));
      </script>`,
      );
    } else if (url.pathname === "/popup") {
      body = page(
        "opener",
        `<a id="blank" href="/page?n=child" target="_blank"
        style="display:block;width:300px;height:100px;background:#ccc">open</a>`,
      );
    } else if (url.pathname === "/form") {
      body = page(
        "form",
        `<input id="q" autofocus style="position:absolute;left:0;top:0;width:400px;height:40px">
        <button id="b" style="position:absolute;left:0;top:100px;width:200px;height:60px"
          onclick="document.body.append('CLICKED:' + document.getElementById('q').value)">go</button>
        <button id="timer" style="position:fixed;left:500px;top:300px;width:200px;height:60px"
          onclick="setTimeout(() => document.body.append('TIMER' + '-FIRED'), 100)">timer</button>
        <script>document.addEventListener('keydown', (e) => { if (e.key === 'Enter') ` +
          `document.body.append('ENTER'); });</script>
        <div style="height:5000px"></div>`,
      );
    } else {
      body = page(`page ${url.searchParams.get("n") ?? ""}`, `<h1>page ${url.searchParams.get("n") ?? ""}</h1>`);
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(body);
  });
  return { ...(await listenOnLoopback(server)), hits };
}

/** Sets cookie, localStorage and IndexedDB to `value` through a real page of `site`. */
export async function setBrowserState(id: string, site: Site, value: string, target: Target = {}) {
  await execute(id, { type: "go_to_url", url: `${site.url}/set-state?v=${value}` }, target);
  await waitFor(
    "state set",
    () => html(id, target),
    (h) => h.includes("STATE-SET"),
  );
}

/** Reads cookie|localStorage|IndexedDB as the page sees them ("none" when absent). */
export async function readBrowserState(id: string, site: Site, target: Target = {}): Promise<string> {
  await execute(id, { type: "go_to_url", url: `${site.url}/read-state` }, target);
  const text = await waitFor(
    "state read",
    () => html(id, target),
    (h) => h.includes(":END"),
  );
  return /STATE:(.*?):END/.exec(text)![1];
}

export interface SessionSuite<S = Site> {
  /** The suite's loopback site (started before its tests). */
  readonly site: S;
  /** Creates a session on the shared server that the suite ends after its tests. */
  session(body?: Record<string, unknown>): ReturnType<typeof createSession>;
}

/**
 * Registers the set-up every session suite repeats: a loopback site (`startSite`'s
 * pages unless the suite serves its own), and ending the suite's sessions afterwards.
 */
export function useSessionSuite(): SessionSuite;
export function useSessionSuite<S extends { close(): Promise<void> }>(start: () => Promise<S>): SessionSuite<S>;
export function useSessionSuite(start: () => Promise<{ close(): Promise<void> }> = startSite): SessionSuite<unknown> {
  let site: { close(): Promise<void> } | undefined;
  const created: string[] = [];
  beforeAll(async () => {
    site = await start();
  });
  afterAll(async () => {
    await Promise.all(created.map((id) => api("DELETE", `/computers/${id}`)));
    await site?.close();
  });
  return {
    get site() {
      if (!site) throw new Error("the site starts in beforeAll: use it inside a test");
      return site;
    },
    async session(body = {}) {
      const s = await createSession(body);
      created.push(s.id);
      return s;
    },
  };
}
