// The browser implementation of ComputerDriver: sessions are contexts in the
// process-wide BrowserPool (a singleton: one owner per process, even when Next
// loads this module from more than one bundle).
import type { ComputerDriver, ComputerEvents, StartSpec } from "@/lib/computers/driver";
import { BrowserComputer } from "@/lib/computers/browser/browser-computer";
import { findChromium } from "@/lib/computers/browser/find-chromium";
import { BrowserPool } from "@/lib/computers/browser/pool";
import { reserveStandby } from "@/lib/computers/browser/standby-reservation";
import { getLogger } from "@/lib/logger";
import { singleton, singletonKey } from "@/lib/singleton";

const POOL = singletonKey<BrowserPool>("browserPool");

export function getBrowserPool(): BrowserPool {
  return singleton(POOL, () => new BrowserPool());
}

export const browserDriver: ComputerDriver = {
  kind: "browser",

  validate() {
    // Every create option applies to browsers; bounds are checked by the create schema.
  },

  start(spec: StartSpec, events: ComputerEvents) {
    return BrowserComputer.open(getBrowserPool(), spec, events);
  },

  reserveWarm(spec) {
    return reserveStandby(getBrowserPool(), spec);
  },

  async warm() {
    try {
      await getBrowserPool().warm();
    } catch (err) {
      getLogger().error({ err }, "could not warm up the browser pool; sessions will retry on demand");
    }
  },

  shutdown() {
    return getBrowserPool().shutdown();
  },

  health() {
    const found = findChromium();
    const pool = getBrowserPool();
    return {
      ok: found !== null && pool.lastLaunchError === null,
      ...(pool.lastLaunchError ? { message: pool.lastLaunchError } : {}),
      chromium: found,
      ...pool.stats(),
      ...(pool.sandboxFallback ? { sandbox_fallback: pool.sandboxFallback } : {}),
    };
  },
};
