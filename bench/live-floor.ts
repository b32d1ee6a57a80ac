// The floor rows of `npm run bench:live`: what producing frames of the moving-box page costs
// Chromium with no Cabin at all — raw Playwright and CDP against the same Chromium, flags and
// viewport as a session. It answers two questions the targets depend on: how many frames a
// second this machine's Chromium can paint and capture at all (the most any capture can deliver),
// and what one full-size frame costs whichever way it is taken (screencast or screenshot), so
// "watching at N fps adds X× the page's own cost" can be read against what N frames must cost.
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS } from "@/lib/computers/browser/launcher";
import { findChromium } from "@/lib/computers/browser/find-chromium";
import { chromiumOf, cpuOver } from "./live-measure";

const f0 = (n: number) => n.toFixed(0);
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Floor {
  unwatched: number;
  /** Frames a second Chromium captures of the page when every frame is acknowledged at once. */
  maxFps: number;
  /** Chromium CPU (% of a core) added per full-size frame a second, from screenshots on a clock. */
  perFrame: number;
}

/** Appends the floor rows for `pageUrl` (the moving box) and returns the figures. */
export async function floorRows(pageUrl: string, seconds: number, rows: [string, string, string][]): Promise<Floor> {
  const found = findChromium();
  if (!found) throw new Error("no Chromium found");
  const browser = await chromium.launch({ executablePath: found.path, args: [...CHROMIUM_FLAGS, "--no-sandbox"] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    await page.goto(pageUrl);
    const cdp = await context.newCDPSession(page);
    const chromiumCpu = async () => (await cpuOver(seconds, { c: chromiumOf(process.pid) }, process.pid)).cpu.c;
    await settle(1000);
    const unwatched = await chromiumCpu();

    // Every frame acknowledged at once (the old capture): as many frames as Chromium can make.
    let frames = 0;
    const onFrame = ({ sessionId }: { sessionId: number }) => {
      frames++;
      cdp.send("Page.screencastFrameAck", { sessionId }).catch(() => {});
    };
    cdp.on("Page.screencastFrame", onFrame);
    await cdp.send("Page.startScreencast", { format: "jpeg", quality: 60 });
    await settle(1000);
    const before = frames;
    const started = performance.now();
    const screencast = await chromiumCpu();
    const maxFps = (frames - before) / ((performance.now() - started) / 1000);
    await cdp.send("Page.stopScreencast");
    cdp.off("Page.screencastFrame", onFrame);

    // Full-size screenshots at 5 a second: the cost of one frame, without the screencast's own.
    let shooting = true;
    let shots = 0;
    const shooter = (async () => {
      while (shooting) {
        const t = performance.now();
        await cdp.send("Page.captureScreenshot", { format: "jpeg", quality: 60 });
        shots++;
        await settle(Math.max(0, 200 - (performance.now() - t)));
      }
    })();
    await settle(1000);
    const shotsBefore = shots;
    const shotStart = performance.now();
    const screenshots = await chromiumCpu();
    const shotFps = (shots - shotsBefore) / ((performance.now() - shotStart) / 1000);
    shooting = false;
    await shooter;
    const perFrame = (screenshots - unwatched) / Math.max(shotFps, 0.1);

    rows.push(["floor (raw Playwright): moving box unwatched", `Chromium ${f0(unwatched)} %`, ""]);
    rows.push([
      "floor: screencast, every frame acknowledged",
      `${maxFps.toFixed(1)} fps (the most this Chromium paints and captures here); Chromium ${f0(screencast)} %`,
      "",
    ]);
    rows.push([
      "floor: full-size screenshots on a 5 fps clock",
      `${shotFps.toFixed(1)} fps; Chromium ${f0(screenshots)} %: ${perFrame.toFixed(1)} % of a core per frame a second`,
      "",
    ]);
    return { unwatched, maxFps, perFrame };
  } finally {
    await browser.close();
  }
}
