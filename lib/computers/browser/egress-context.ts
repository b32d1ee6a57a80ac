// Session contexts and their egress: every context the pool makes (standby ones
// included) without the operator's advanced proxy gets an EgressProxy of its own,
// closed with the context. With use_advanced_proxy the operator's proxy decides
// where traffic may go, as it does for every other client of that proxy.
import type { Browser, BrowserContext, BrowserContextOptions } from "playwright-core";
import { EgressProxy } from "@/lib/computers/egress/browser-proxy";
import { egressPolicy } from "@/lib/computers/egress/settings";

const proxies = new WeakMap<BrowserContext, EgressProxy>();

export async function newSessionContext(browser: Browser, options: BrowserContextOptions): Promise<BrowserContext> {
  if (options.proxy) return browser.newContext(options);
  const egress = await EgressProxy.start(egressPolicy());
  try {
    const context = await browser.newContext({ ...options, proxy: egress.chromiumProxy });
    proxies.set(context, egress);
    // Also when Chromium dies: Playwright closes the context objects of a disconnected browser.
    context.once("close", () => void egress.close());
    return context;
  } catch (err) {
    await egress.close();
    throw err;
  }
}

/** The context's egress proxy (none with the operator's advanced proxy). */
export function egressProxyOf(context: BrowserContext): EgressProxy | undefined {
  return proxies.get(context);
}
