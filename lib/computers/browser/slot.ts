// One Chromium process of the BrowserPool, shared by the pool and its standby contexts.
import type { Browser, BrowserContext } from "playwright-core";

export interface Slot {
  launchId: string;
  browser: Browser;
  /** Sessions handed out over the slot's life (recycling). */
  handedOut: number;
  /** Live session contexts → crash callback. */
  sessions: Map<BrowserContext, () => void>;
  retired: boolean;
  closing: boolean;
}

/** A slot that can still take contexts (`usable`: not retired, closing or disconnected). */
export function usable(slot: Slot): boolean {
  return !slot.retired && !slot.closing && slot.browser.isConnected();
}
