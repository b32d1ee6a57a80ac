// The mouse's back and forward buttons on a browser page. Playwright's mouse has
// only left, right and middle, so these go through CDP Input.dispatchMouseEvent,
// which Chromium treats as a real mouse would: the page gets the mousedown/mouseup
// (button 3 or 4), and the release navigates the tab's history, as every browser
// does (docs/actions.md). The click then waits for that navigation to load, when
// there is history to go to.
import type { Page } from "playwright-core";

const HISTORY_LOAD_TIMEOUT_MS = 30_000;

export async function clickHistoryButton(page: Page, x: number, y: number, button: "back" | "forward"): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const history = (await cdp.send("Page.getNavigationHistory")) as { currentIndex: number; entries: unknown[] };
    const target = history.currentIndex + (button === "back" ? -1 : 1);
    const navigates = target >= 0 && target < history.entries.length;
    const loaded = navigates
      ? page.waitForEvent("load", { timeout: HISTORY_LOAD_TIMEOUT_MS }).then(
          () => {},
          () => {},
        )
      : Promise.resolve();
    const buttons = button === "back" ? 8 : 16;
    await cdp.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y, button: "none", buttons: 0 });
    await cdp.send("Input.dispatchMouseEvent", { type: "mousePressed", x, y, button, buttons, clickCount: 1 });
    await cdp.send("Input.dispatchMouseEvent", { type: "mouseReleased", x, y, button, buttons: 0, clickCount: 1 });
    await loaded;
  } finally {
    await cdp.detach().catch(() => {});
  }
}
