// Where a browser session's CDP relay connects: the DevTools WebSocket of the
// pool Chromium that runs it, and the session's BrowserContext id there.
//
// Playwright drives the pool over a pipe and has no public way to carry flat
// child sessions, so pool browsers also listen on 127.0.0.1 with an OS-chosen
// port (`CDP_PORT_FLAGS`, added at launch by ChromiumLauncher). Chromium writes the
// port and the browser's WebSocket path to `DevToolsActivePort` in its user
// data dir, which we find from the process's command line (our launch marker).
// Chromium refuses WebSocket upgrades that carry an Origin header (no
// --remote-allow-origins), so web pages, including sessions' own, cannot drive
// it; desktops cannot reach it (their own network namespace has its own
// loopback); processes on the host itself can (docs/cdp.md).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext } from "playwright-core";
import type { CdpCapability, CdpTarget } from "@/lib/computers/driver";
import { launchMarker, markedPids } from "@/lib/computers/browser/processes";

export const CDP_PORT_FLAGS = ["--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1"];

const endpoints = new Map<string, string>();

/** ws://127.0.0.1:PORT/devtools/browser/ID of one pool launch (cached per launch). */
export function devtoolsUrl(launchId: string): string {
  const known = endpoints.get(launchId);
  if (known) return known;
  for (const pid of markedPids(launchMarker(launchId))) {
    let cmdline: string[];
    try {
      cmdline = readFileSync(/* turbopackIgnore: true */ `/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      continue;
    }
    if (cmdline.some((arg) => arg.startsWith("--type="))) continue; // a renderer or helper, not the browser
    const dir = cmdline.find((arg) => arg.startsWith("--user-data-dir="))?.slice("--user-data-dir=".length);
    if (!dir) continue;
    const [port, browserPath] = readFileSync(
      /* turbopackIgnore: true */ path.join(dir, "DevToolsActivePort"),
      "utf8",
    ).split("\n");
    const url = `ws://127.0.0.1:${Number(port)}${browserPath}`;
    endpoints.set(launchId, url);
    return url;
  }
  throw new Error(
    `The DevTools endpoint of Chromium launch ${launchId} was not found (was it launched with ${CDP_PORT_FLAGS[0]}?)`,
  );
}

/** The BrowserContext id, read once from any page of the context (Target.getTargetInfo of its own target). */
async function contextIdOf(context: BrowserContext): Promise<string> {
  const page = context.pages()[0] ?? (await context.newPage());
  const session = await context.newCDPSession(page);
  try {
    const { targetInfo } = (await session.send("Target.getTargetInfo")) as {
      targetInfo: { browserContextId?: string };
    };
    if (!targetInfo.browserContextId) throw new Error("The page's target has no browserContextId");
    return targetInfo.browserContextId;
  } finally {
    await session.detach().catch(() => {});
  }
}

/** The `cdp` capability of a pool browser session (see ComputerHandle.cdp). */
export function poolCdpCapability(launchId: string, context: BrowserContext): CdpCapability {
  let contextId: Promise<string> | null = null;
  return {
    async target(): Promise<CdpTarget> {
      contextId ??= contextIdOf(context);
      contextId.catch(() => (contextId = null));
      return { browserUrl: devtoolsUrl(launchId), contextId: await contextId };
    },
  };
}
