// @needs browser-ui
// The Playground keeps up with a fast model, in a real browser against the
// bundled model: a 4,096-token answer streams in full while the page keeps
// drawing frames (gaps, long tasks and the first text's delay are measured and
// printed, not asserted: docs/development.md), Stop takes and stays where it is,
// at 390 px the composer is on the first screen, and View code opens in view.
import { expect, test, type Page } from "@playwright/test";
import { horizontalOverflow, saveScreenshot, signUpNewTeam, base } from "./dashboard-helpers";

interface PaceProbe {
  frames: number[];
  longTasks: { start: number; duration: number }[];
  sentAt?: number;
  /** When the first text delta's bytes reached the page (read from a copy of the response body). */
  firstDeltaAt?: number;
  firstTextAt?: number;
  stopAt?: number;
  readyAt?: number;
  stopTops: number[];
}

/** Starts recording frames (requestAnimationFrame), long tasks, the send, the first text and the end. */
async function installProbe(page: Page) {
  await page.evaluate(() => {
    const probe: PaceProbe = { frames: [], longTasks: [], stopTops: [] };
    (window as unknown as { __pace: PaceProbe }).__pace = probe;
    const tick = (t: number) => {
      probe.frames.push(t);
      if (probe.readyAt === undefined) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: false });
    // A copy of the answer's body, read as it arrives: when the first text delta reached the page.
    const page = window as unknown as { __realFetch?: typeof fetch };
    page.__realFetch ??= window.fetch;
    const realFetch = page.__realFetch;
    window.fetch = async (...args: Parameters<typeof fetch>) => {
      const response = await realFetch(...args);
      if (!String(args[0]).includes("/api/playground/chat") || !response.body) return response;
      const [mine, copy] = response.body.tee();
      void (async () => {
        const reader = copy.getReader();
        const decoder = new TextDecoder();
        let seen = "";
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          if (probe.firstDeltaAt !== undefined) continue;
          seen += decoder.decode(value, { stream: true });
          if (seen.includes('"text-delta"')) probe.firstDeltaAt = performance.now();
        }
      })();
      return new Response(mine, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
    const chat = document.querySelector('[data-testid="playground-chat"]')!;
    chat.addEventListener(
      "keydown",
      (e) => {
        if ((e as KeyboardEvent).key === "Enter") probe.sentAt = performance.now();
      },
      { capture: true },
    );
    chat.addEventListener(
      "click",
      (e) => {
        if ((e.target as HTMLElement).closest("button")?.textContent === "Stop") probe.stopAt = performance.now();
      },
      { capture: true },
    );
    new MutationObserver(() => {
      const answer = chat.querySelector('[data-testid="playground-answer"]')?.textContent?.replace(/…$/, "") ?? "";
      if (answer.length > 0 && probe.firstTextAt === undefined) probe.firstTextAt = performance.now();
      const stop = [...chat.querySelectorAll("button")].find((b) => b.textContent === "Stop");
      if (stop) probe.stopTops.push(Math.round(stop.getBoundingClientRect().top));
      if (probe.firstTextAt !== undefined && chat.getAttribute("data-status") === "ready" && !probe.readyAt)
        probe.readyAt = performance.now();
    }).observe(chat, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/** The probe's figures: frame gaps while text streamed, long tasks, first-text and Stop delays. */
async function paceFigures(page: Page) {
  return page.evaluate(() => {
    const p = (window as unknown as { __pace: PaceProbe }).__pace;
    const from = p.firstTextAt ?? p.sentAt ?? 0;
    const to = p.readyAt ?? performance.now();
    const frames = p.frames.filter((t) => t >= from && t <= to);
    const gaps = frames
      .slice(1)
      .map((t, i) => t - frames[i]!)
      .sort((a, b) => a - b);
    const chatFetch = performance
      .getEntriesByType("resource")
      .filter((e) => e.name.endsWith("/api/playground/chat"))
      .at(-1) as PerformanceResourceTiming | undefined;
    const round = (n: number | undefined) => (n === undefined ? undefined : Math.round(n));
    return {
      streamedMs: round(to - from),
      frames: frames.length,
      maxGapMs: round(gaps.at(-1)),
      p95GapMs: round(gaps[Math.floor(gaps.length * 0.95)]),
      longTasks: p.longTasks.filter((t) => t.start >= from && t.start <= to).length,
      longestTaskMs: round(Math.max(0, ...p.longTasks.map((t) => t.duration))),
      sendToFirstTextMs: round(
        p.firstTextAt !== undefined && p.sentAt !== undefined ? p.firstTextAt - p.sentAt : undefined,
      ),
      responseToFirstTextMs: round(
        chatFetch && p.firstTextAt !== undefined ? p.firstTextAt - chatFetch.responseStart : undefined,
      ),
      firstDeltaArrivedToShownMs: round(
        p.firstTextAt !== undefined && p.firstDeltaAt !== undefined ? p.firstTextAt - p.firstDeltaAt : undefined,
      ),
      stopToReadyMs: round(p.stopAt !== undefined && p.readyAt !== undefined ? p.readyAt - p.stopAt : undefined),
      stopTops: [...new Set(p.stopTops)],
    };
  });
}

test("a 4,096-token answer streams at the display's pace; Stop takes and stays put", async ({ browser }, testInfo) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ baseURL: base(), viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signUpNewTeam(page, "Pace");
  await page.goto("/playground");
  // A person opens the page and then types: the first answer is measured on a page that has settled (the
  // navigation's prefetches done), not while the browser is still loading the links it shows.
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Max tokens").fill("4096");
  await page.getByLabel("Max tokens").blur();
  await expect(page.getByLabel("Max tokens")).toHaveValue("4096");
  const chat = page.getByTestId("playground-chat");
  const box = page.getByLabel("Message", { exact: true });

  // The whole answer arrives and is shown, every token of it.
  await installProbe(page);
  await box.fill("Tell me a very long story.");
  await box.press("Enter");
  await expect(page.getByTestId("playground-answer-facts")).toHaveText(/\d+ tokens in · 4096 out · \$/, {
    timeout: 180_000,
  });
  await expect(chat).toHaveAttribute("data-status", "ready");
  const full = await paceFigures(page);
  console.log(`playground pace, 4096 tokens at 1280 px: ${JSON.stringify(full)}`);
  expect(full.frames, "frames drawn while the answer streamed").toBeGreaterThan(1);
  // The Stop button never moved while the answer grew.
  expect(full.stopTops.length, `Stop's positions: ${full.stopTops.join(",")}`).toBe(1);
  const answerText = (await page.getByTestId("playground-answer").textContent()) ?? "";
  expect(answerText.length).toBeGreaterThan(4096);

  // View code opens where it can be seen.
  await page.getByRole("button", { name: "View code" }).click();
  await expect(page.getByTestId("playground-code")).toBeInViewport();
  await page.getByRole("button", { name: "Hide code" }).click();

  // At 390 px: the chat first, its composer on the first screen, nothing wider than the screen.
  await page.getByRole("button", { name: "Clear" }).click();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(box).toBeInViewport({ ratio: 1 });
  await expect.poll(() => horizontalOverflow(page)).toBe(0);

  // Stop in the middle of a long answer: it takes, and the text stays as it was.
  await installProbe(page);
  await box.fill("Another long story, please.");
  await box.press("Enter");
  const answer = page.getByTestId("playground-answer");
  await expect(answer).not.toHaveText(/^…?$/, { timeout: 60_000 });
  const stop = page.getByRole("button", { name: "Stop" });
  const stopBefore = await stop.boundingBox();
  const shownBefore = ((await answer.textContent()) ?? "").length;
  await expect.poll(async () => ((await answer.textContent()) ?? "").length).toBeGreaterThan(shownBefore);
  const stopAfter = await stop.boundingBox();
  expect(stopAfter?.y).toBe(stopBefore?.y);
  // A draft typed meanwhile is not sent by Stop's click (Stop and Send are different buttons). Nothing slow
  // (a screenshot) comes between the text growing and the click: on a loaded machine the answer could end first.
  await box.fill("A draft for later");
  await stop.click();
  await expect(chat).toHaveAttribute("data-status", "ready");
  await expect(page.getByText("Stopped before the end")).toBeVisible();
  await saveScreenshot(page, testInfo, "playground-stopped-390");
  const stoppedAt = ((await answer.textContent()) ?? "").length;
  // Usage records the stopped request; the text did not grow meanwhile.
  await expect
    .poll(async () => (await (await page.request.get("/api/usage")).json()).totals.requests, { timeout: 20_000 })
    .toBe(2);
  expect(((await answer.textContent()) ?? "").length).toBe(stoppedAt);
  await expect(page.getByTestId("playground-message-user")).toHaveCount(1);
  await expect(box).toHaveValue("A draft for later");
  const stopped = await paceFigures(page);
  console.log(`playground pace, Stop at 390 px: ${JSON.stringify(stopped)}`);
  expect(stopped.stopToReadyMs).toBeDefined();
  await context.close();
});
