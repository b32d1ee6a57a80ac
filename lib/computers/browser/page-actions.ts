// Input and page actions on one Playwright page. Tab actions live in the
// session (they need the tab set); screenshots go through ComputerHandle.screenshot.
import type { Page } from "playwright-core";
import { ActionError } from "@/lib/computers/actions/action-error";
import type { ActionOf } from "@/lib/computers/actions/actions";
import type { FillLoginAction } from "@/lib/computers/actions/fill-credentials";
import { fillLoginForm } from "@/lib/computers/browser/login-form";
import { clickHistoryButton } from "@/lib/computers/browser/history-buttons";
import { toChord, toPlaywrightKey } from "@/lib/computers/browser/keys";
import {
  FAILURE_HEADER,
  REFUSAL_HEADER,
  type EgressProblem,
  type EgressProxy,
} from "@/lib/computers/egress/browser-proxy";

const NAVIGATION_TIMEOUT_MS = 30_000;
// A failed navigation's error page commits within milliseconds; this bounds the wait where none comes (ERR_ABORTED).
const ERROR_PAGE_COMMIT_MS = 2_000;

type MouseButton = "left" | "right" | "middle";

/**
 * Press-and-hold buttons; back and forward are clicks only (clickHistoryButton), a held history button means nothing.
 */
function mouseButton(button: string): MouseButton {
  if (button === "left" || button === "right" || button === "middle") return button;
  if (button === "wheel") return "middle";
  throw new ActionError(
    "not_supported",
    `Mouse button '${button}' can be clicked (click with button "${button}") but not held in browser sessions`,
    { param: "button" },
  );
}

export type PageAction =
  | ActionOf<
      | "click"
      | "double_click"
      | "right_click"
      | "move"
      | "point_and_type"
      | "drag"
      | "type"
      | "keypress"
      | "key_down"
      | "key_up"
      | "mouse_down"
      | "mouse_up"
      | "scroll"
      | "go_to_url"
      | "get_html_content"
    >
  | FillLoginAction;

/** Runs `fn` with OpenAI's held `keys` pressed (in order), releasing them (in reverse) whatever happens. */
async function holding(page: Page, keys: string[] | undefined, fn: () => Promise<void>): Promise<void> {
  const names = (keys ?? []).map((key) => toPlaywrightKey(key, "keys"));
  const pressed: string[] = [];
  try {
    for (const name of names) {
      await page.keyboard.down(name);
      pressed.push(name);
    }
    await fn();
  } finally {
    for (const name of pressed.reverse()) await page.keyboard.up(name).catch(() => {});
  }
}

/**
 * Loads `url` in `page`. When the session's EgressProxy refused the document or could not
 * connect, the action fails with the policy's reason or Chromium's own error name: an http
 * document comes back as the proxy's page (REFUSAL_HEADER, FAILURE_HEADER); an https one
 * fails its tunnel, which Chromium reports only as ERR_TUNNEL_CONNECTION_FAILED.
 */
export async function navigate(
  page: Page,
  url: string,
  egress?: EgressProxy,
): Promise<{ url: string; http_status: number | null }> {
  const mark = egress?.mark() ?? 0;
  let response;
  try {
    response = await gotoSettled(page, url);
  } catch (err) {
    // Only a failed tunnel needs the proxy's word: Chromium names every other failure itself, and the proxy's latest
    // problem may belong to another request of the page (a background fetch to a name that does not resolve).
    const problem = /ERR_TUNNEL_CONNECTION_FAILED/.test((err as Error).message) ? egress?.problemSince(mark) : null;
    if (problem) throw navigationError(url, problem, err);
    throw err;
  }
  const headers = response?.headers() ?? {};
  if (headers[REFUSAL_HEADER]) throw navigationError(url, { kind: "refused", reason: headers[REFUSAL_HEADER] });
  if (headers[FAILURE_HEADER]) throw navigationError(url, { kind: "failed", error: headers[FAILURE_HEADER] });
  return { url: page.url(), http_status: response?.status() ?? null };
}

/**
 * page.goto; when it fails, also waits (briefly) for Chromium to commit its error page (chrome-error://), which happens
 * just after page.goto rejects: a navigation the client starts before that commit is aborted by it.
 */
async function gotoSettled(page: Page, url: string) {
  try {
    return await page.goto(url, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS });
  } catch (err) {
    if (/net::ERR_(?!ABORTED)/.test((err as Error).message) && !page.isClosed()) {
      await page.waitForURL(/^chrome-error:/, { waitUntil: "commit", timeout: ERROR_PAGE_COMMIT_MS }).catch(() => {});
    }
    throw err;
  }
}

function navigationError(url: string, problem: EgressProblem, cause?: unknown): ActionError {
  const message =
    problem.kind === "refused" ? `Navigation to ${url} refused: ${problem.reason}` : `${problem.error} at ${url}`;
  return new ActionError("failed", message, { param: "url", cause });
}

/** Runs one action; returns the `result` object of the ActionResult (may be empty). */
export async function runPageAction(
  page: Page,
  action: PageAction,
  egress?: EgressProxy,
): Promise<Record<string, unknown>> {
  switch (action.type) {
    case "click": {
      const { x, y, button } = action;
      await holding(page, action.held_keys, () =>
        button === "back" || button === "forward"
          ? clickHistoryButton(page, x, y, button)
          : page.mouse.click(x, y, { button: mouseButton(button) }),
      );
      return {};
    }
    case "double_click":
      await holding(page, action.held_keys, () => page.mouse.dblclick(action.x, action.y));
      return {};
    case "right_click":
      await page.mouse.click(action.x, action.y, { button: "right" });
      return {};
    case "move":
      await holding(page, action.held_keys, () => page.mouse.move(action.x, action.y));
      return {};
    case "point_and_type":
      await page.mouse.click(action.x, action.y);
      await page.keyboard.type(action.text);
      return {};
    case "drag":
      await holding(page, action.held_keys, async () => {
        const [first, ...rest] = action.path;
        await page.mouse.move(first.x, first.y);
        await page.mouse.down();
        for (const p of rest) await page.mouse.move(p.x, p.y, { steps: 5 });
        await page.mouse.up();
      });
      return {};
    case "type":
      await page.keyboard.type(action.text);
      return {};
    case "keypress":
      await page.keyboard.press(toChord(action.keys));
      return {};
    case "key_down":
      for (const key of action.keys) await page.keyboard.down(toPlaywrightKey(key, "keys"));
      return {};
    case "key_up":
      for (const key of [...action.keys].reverse()) await page.keyboard.up(toPlaywrightKey(key, "keys"));
      return {};
    case "mouse_down":
    case "mouse_up": {
      if (action.x !== undefined && action.y !== undefined) await page.mouse.move(action.x, action.y);
      const button = mouseButton(action.button);
      await (action.type === "mouse_down" ? page.mouse.down({ button }) : page.mouse.up({ button }));
      return {};
    }
    case "scroll":
      await holding(page, action.held_keys, async () => {
        // The wheel goes to whatever is under the pointer, so put it over the page first.
        const size = page.viewportSize();
        await page.mouse.move(action.x ?? (size ? size.width / 2 : 0), action.y ?? (size ? size.height / 2 : 0));
        await page.mouse.wheel(action.dx, action.dy);
      });
      return {};
    case "go_to_url":
      return navigate(page, action.url, egress);
    case "get_html_content":
      return { html_content: await page.content() };
    case "fill_login":
      return fillLoginForm(page, action);
  }
}
