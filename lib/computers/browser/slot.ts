// One Chromium process of the BrowserPool, shared by the pool and its standby contexts.
import type { Browser, BrowserContext } from "playwright-core";

export interface Slot {
  launchId: string;
  browser: Browser;
  /**
   * The organization whose sessions it runs, or null while it is the pool's spare: a browser with
   * standby contexts and no session yet, which the next organization without a browser claims.
   * Sessions of different organizations never share a Chromium process.
   */
  owner: string | null;
  /** Sessions handed out over the slot's life (recycling). */
  handedOut: number;
  /** Live session contexts → crash callback. */
  sessions: Map<BrowserContext, () => void>;
  /** Contexts being made in it right now (a session's or a standby's): it must not close under them. */
  opening: number;
  /** An owned slot without sessions closes when this fires (BROWSER_ORG_IDLE_SECONDS). */
  idleTimer: NodeJS.Timeout | null;
  retired: boolean;
  closing: boolean;
}

/** A slot that can still take contexts (`usable`: not retired, closing or disconnected). */
export function usable(slot: Slot): boolean {
  return !slot.retired && !slot.closing && slot.browser.isConnected();
}

const CLOSE_TIMEOUT_MS = 5_000;

/**
 * Waits for a context's or browser's close at most CLOSE_TIMEOUT_MS; a hung or failed close is let go (its process is
 * killed after).
 */
export async function closeQuietly(closing: Promise<void>): Promise<void> {
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref());
  await Promise.race([closing, timeout]).catch(() => {});
}
