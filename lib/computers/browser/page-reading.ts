// What a browser session reads of a page for its answers: the `page_context` of an action
// (docs/actions.md) and a tab's title, each in one round trip that never waits on a busy page.
import type { Page } from "playwright-core";
import type { PageContext, Viewport } from "@/lib/computers/driver";

// page_context reads the document once; a page busy for longer (a dialog, a long script) answers without it.
const PAGE_READ_TIMEOUT_MS = 500;

/** The SDK's page_context of a tab (long names and the short viewport aliases). */
export async function readPageContext(
  page: Page,
  tab: { tabId: string; isMain: boolean; viewport: Viewport },
): Promise<PageContext> {
  const size = page.viewportSize() ?? { width: tab.viewport.width, height: tab.viewport.height };
  const doc = await readDocument(page);
  return {
    url: page.url(),
    title: doc?.title ?? "",
    tab_id: tab.tabId,
    is_main_tab: tab.isMain,
    viewport_width: size.width,
    viewport_height: size.height,
    ...(doc
      ? { page_width: doc.pageWidth, page_height: doc.pageHeight, scroll_x: doc.scrollX, scroll_y: doc.scrollY }
      : {}),
    device_scale_factor: doc?.scale ?? tab.viewport.scale,
    viewport_w: size.width,
    viewport_h: size.height,
  };
}

interface DocumentReading {
  title: string;
  pageWidth: number;
  pageHeight: number;
  scrollX: number;
  scrollY: number;
  scale: number;
}

/**
 * Title, document size, scroll offset and pixel ratio in one round trip; null when the page does not answer in time.
 */
export async function readDocument(page: Page): Promise<DocumentReading | null> {
  const reading = page
    .evaluate(() => {
      const root = document.documentElement;
      const body = document.body;
      return {
        title: document.title,
        pageWidth: Math.max(root?.scrollWidth ?? 0, body?.scrollWidth ?? 0, window.innerWidth),
        pageHeight: Math.max(root?.scrollHeight ?? 0, body?.scrollHeight ?? 0, window.innerHeight),
        scrollX: window.scrollX,
        scrollY: window.scrollY,
        scale: window.devicePixelRatio,
      };
    })
    .catch(() => null);
  return Promise.race([
    reading,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), PAGE_READ_TIMEOUT_MS).unref()),
  ]);
}

/** The first line of a Playwright error, without its call log and class prefix. */
export function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // Playwright appends call logs after the first line; they can be long and name internals.
  return message
    .split("\n")[0]
    .replace(/^[a-zA-Z.]+: /, "")
    .slice(0, 500);
}
