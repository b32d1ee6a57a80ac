// @needs server chromium
// Chromium's sandbox (docs/security.md "Chromium sandbox"): the pool's browsers run as an unprivileged user (the server
// runs as root here) with Chromium's own sandbox on: no --no-sandbox, renderers in their own user namespace under
// seccomp-bpf, and none of the server's secrets in the browser's environment. BROWSER_SANDBOX=off is the
// fallback, and /api/health says which one is in use and why.
import { existsSync, readFileSync, readlinkSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { startServer } from "./harness";
import { api, chromiumPidsOf, execute, useSessionSuite, waitFor } from "./computers-fixtures";
import { descendantsOf } from "../hardening/host-census";
import {
  CABIN_DISABLED_FEATURES,
  DISABLE_FEATURES_FLAG,
  PLAYWRIGHT_DISABLE_FEATURES_FLAG,
} from "@/lib/computers/browser/chromium-features";
import { HEADLESS_SHELL_CANDIDATES } from "@/lib/computers/browser/find-chromium";

const statusField = (pid: number, field: string) =>
  readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`))
    ?.split(/\s+/)
    .slice(1) ?? [];
const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
const isMain = (pid: number) => !cmdline(pid).some((a) => a.startsWith("--type="));
const health = async (base?: string) => (await api("GET", "/api/health", undefined, { base })).body.checks.browser;
const asRoot = process.getuid?.() === 0;

describe("Chromium sandbox", () => {
  const suite = useSessionSuite();

  it("runs the pool's Chromium unprivileged, sandboxed, without the server's environment", async () => {
    const s = await suite.session();
    await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/page?n=sandbox` });
    expect(await health()).toMatchObject({ ok: true, sandbox: asRoot ? "unprivileged-user" : "sandbox" });
    expect((await health()).sandbox_fallback).toBeUndefined();

    const mains = chromiumPidsOf(inject("dataDir")).filter(isMain);
    expect(mains.length).toBeGreaterThan(0);
    for (const pid of mains) {
      expect(cmdline(pid)).not.toContain("--no-sandbox");
      if (asRoot) expect(statusField(pid, "Uid").map(Number)).not.toContain(0);
      const environ = readFileSync(`/proc/${pid}/environ`, "utf8")
        .split("\0")
        .map((kv) => kv.split("=")[0]);
      expect(environ).not.toContain("DATABASE_URL");
      expect(environ).not.toContain("DATA_DIR");
    }

    // The page's renderer: its own user namespace (the namespace sandbox) and seccomp-bpf in filter mode (2).
    const renderers = await waitFor(
      "a renderer of the pool",
      async () =>
        mains
          .flatMap((pid) => descendantsOf(pid))
          .filter((pid) => {
            try {
              // Zygote children rewrite their command line as one space-separated string (setproctitle).
              return /(^|[\s\0])--type=renderer([\s\0]|$)/.test(readFileSync(`/proc/${pid}/cmdline`, "utf8"));
            } catch {
              return false;
            }
          }),
      (pids) => pids.length > 0,
    );
    const browserNamespace = readlinkSync(`/proc/${mains[0]}/ns/user`);
    for (const pid of renderers) {
      expect(statusField(pid, "Seccomp")).toEqual(["2"]);
      expect(readlinkSync(`/proc/${pid}/ns/user`)).not.toBe(browserNamespace);
    }
  });

  it("passes Chromium one --disable-features: Playwright's names and the per-context omnibox popup off", async () => {
    await suite.session();
    const mains = chromiumPidsOf(inject("dataDir")).filter(isMain);
    expect(mains.length).toBeGreaterThan(0);
    for (const pid of mains) {
      // Chromium keeps only the last one: a second switch (Playwright's, after an upgrade changed it) would drop names.
      const switches = cmdline(pid).filter((a) => a.startsWith("--disable-features="));
      expect(switches).toEqual([DISABLE_FEATURES_FLAG]);
      const names = switches[0].slice("--disable-features=".length).split(",");
      expect(names).toEqual(
        expect.arrayContaining([
          ...PLAYWRIGHT_DISABLE_FEATURES_FLAG.slice("--disable-features=".length).split(","),
          ...CABIN_DISABLED_FEATURES,
        ]),
      );
    }
  });

  // The setup installs it on Debian (scripts/setup/chromium.ts); full Chromium builds a browser window per context.
  it.runIf(existsSync("/etc/debian_version"))("runs Debian's headless shell, not full Chromium", async () => {
    await suite.session();
    const mains = chromiumPidsOf(inject("dataDir")).filter(isMain);
    expect(mains.length).toBeGreaterThan(0);
    for (const pid of mains) expect(readlinkSync(`/proc/${pid}/exe`)).toBe(HEADLESS_SHELL_CANDIDATES[0]);
  });

  it("BROWSER_SANDBOX=off launches with --no-sandbox and health names the reason", async () => {
    const server = await startServer({ env: { BROWSER_SANDBOX: "off" } });
    try {
      const browser = await waitFor(
        "the pool launched",
        () => health(server.url),
        (b) => b.sandbox !== null,
      );
      expect(browser).toMatchObject({ ok: true, sandbox: "off", sandbox_fallback: "BROWSER_SANDBOX=off" });
      const mains = chromiumPidsOf(server.dataDir).filter(isMain);
      expect(mains.length).toBeGreaterThan(0);
      for (const pid of mains) expect(cmdline(pid)).toContain("--no-sandbox");
    } finally {
      await server.destroy();
    }
  });
});
