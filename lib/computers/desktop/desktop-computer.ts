// One desktop session as a ComputerHandle (lib/computers/driver.ts): input through
// xdotool inside the desktop, screenshots of the root window, exec as the desktop
// user (its `exec` capability), browser actions in the desktop's own Chromium
// (DesktopBrowser), and snapshots of the overlay's upper layer. Input, browser
// actions and screenshots go through one ActionQueue; exec runs beside them.
import { ActionError } from "@/lib/computers/actions/action-error";
import { ActionQueue } from "@/lib/computers/actions/action-queue";
import type {
  ActionOutcome,
  ComputerHandle,
  DriverAction,
  ExecCapability,
  ExecRequest,
  ExecResult,
  ExecSink,
  ExecStreamEnd,
  LiveInputCapability,
  SavedState,
  ScreenContext,
  Screenshot,
  ScreenshotOptions,
} from "@/lib/computers/driver";
import type { RunResult } from "@/lib/computers/desktop/enter";
import type { DesktopRunner } from "@/lib/computers/desktop/desktop-runner";
import { DesktopBrowser, isDesktopBrowserAction } from "@/lib/computers/desktop/desktop-browser";
import { DesktopFiles } from "@/lib/computers/desktop/desktop-files";
import { DesktopLiveInput } from "@/lib/computers/desktop/live-input";
import { HostDisplay } from "@/lib/computers/desktop/host-display";
import { ffmpegPath, x11vncPath } from "@/lib/computers/desktop/live-tools";
import { desktopScreencast } from "@/lib/computers/desktop/screencast";
import { DesktopVnc } from "@/lib/computers/desktop/vnc";
import { archiveUpper, fingerprintUpper } from "@/lib/computers/desktop/snapshot";
import { xdotoolArgs } from "@/lib/computers/desktop/xdotool";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";

const INPUT_TIMEOUT_MS = 15_000;
const SCREENSHOT_TIMEOUT_MS = 20_000;
const CLOSE_APPS_MS = 3_000;

/** sh -c: enter `cwd` (a clear error when it is missing), then the command in a login bash. */
function commandArgv(req: ExecRequest): string[] {
  const script = 'cd -- "$1" 2>/dev/null || { echo "cwd: no such directory: $1" >&2; exit 127; }; exec bash -lc "$2"';
  return ["sh", "-c", script, "sh", req.cwd ?? "/home/user", req.command];
}

export class DesktopComputer implements ComputerHandle {
  readonly kind = "desktop" as const;
  readonly exec: ExecCapability = {
    run: (request) => this.runCommand(request),
    stream: (request, sink) => this.streamCommand(request, sink),
  };
  /** The display for host-side X clients (the screencast's ffmpeg, x11vnc). */
  private readonly hostDisplay: HostDisplay;
  /**
   * The live view (`ScreencastHub`): ffmpeg's MJPEG stream of the screen, and input through xdotool. Both need the
   * host's ffmpeg.
   */
  readonly screencast: ReturnType<typeof desktopScreencast> | undefined;
  /** endpoints.vnc: x11vnc on the host, started by the first VNC client. */
  readonly vnc: DesktopVnc | undefined;
  /** Live-view input: XTest over the host display, xdotool where XTest cannot do it (DesktopLiveInput). */
  readonly liveInput: LiveInputCapability = {
    send: async (input) => {
      this.assertRunning();
      await this.input.send(input);
    },
  };
  private readonly input: DesktopLiveInput;
  /** go_to_url, get_html_content and tabs: the desktop's own Chromium, started by the first of them. */
  private readonly browser: DesktopBrowser;
  private readonly queue = new ActionQueue(getEnv().ACTION_TIMEOUT_SECONDS * 1000);
  /** Uploads into /workspace/uploads, downloads from ~/Downloads (docs/files.md). */
  readonly files: DesktopFiles;
  private stopping: Promise<SavedState | null> | null = null;
  private lastSnapshot: { fingerprint: string; state: SavedState } | null = null;

  constructor(
    readonly id: string,
    private readonly runner: DesktopRunner,
    private readonly baseVersion: string,
    private readonly viewport: { width: number; height: number },
    private readonly onStopped: () => void,
  ) {
    this.hostDisplay = new HostDisplay(runner.pid1, runner.dir);
    this.input = new DesktopLiveInput((args) => this.xdotool(args), this.hostDisplay);
    this.browser = new DesktopBrowser(runner.pid1, runner.dir, () => this.screenContext());
    this.files = new DesktopFiles(runner.pid1, runner.dir, runner.upper, () => this.id);
    this.files.start();
    const ffmpeg = ffmpegPath();
    this.screencast = ffmpeg
      ? desktopScreencast({
          ffmpeg,
          display: this.hostDisplay,
          marker: runner.dir,
          size: () => this.viewport,
          supervise: (command, options) => this.runner.supervise(command, options),
        })
      : undefined;
    const x11vnc = x11vncPath();
    this.vnc = x11vnc ? new DesktopVnc(x11vnc, this.hostDisplay, runner.dir) : undefined;
  }

  private assertRunning() {
    if (this.stopping) throw new ActionError("failed", "The desktop is stopping");
  }

  private async xdotool(args: string[]): Promise<void> {
    const res = await this.runner.run(["xdotool", ...args], { timeoutMs: INPUT_TIMEOUT_MS, maxOutputBytes: 64 * 1024 });
    if (res.timedOut) throw new ActionError("failed", `xdotool did not answer within ${INPUT_TIMEOUT_MS / 1000} s`);
    if (res.code !== 0)
      throw new ActionError(
        "failed",
        `xdotool failed: ${res.stderr.toString().trim().slice(0, 500) || `exit ${res.code}`}`,
      );
  }

  /** The screen as page_context: a desktop has no page or scroll position, and X does not scale. */
  private screenContext(): ScreenContext {
    return { viewport_width: this.viewport.width, viewport_height: this.viewport.height, device_scale_factor: 1 };
  }

  act(action: DriverAction): Promise<ActionOutcome> {
    if (isDesktopBrowserAction(action)) {
      return this.queue.run(() => {
        this.assertRunning();
        return this.browser.act(action);
      });
    }
    const args = xdotoolArgs(action); // throws not_supported / wrong_kind / invalid before queueing
    return this.queue.run(async () => {
      this.assertRunning();
      if (args?.length) await this.xdotool(args);
      return { pageContext: this.screenContext() };
    });
  }

  screenshot(options: ScreenshotOptions): Promise<Screenshot> {
    return this.queue.run(async () => ({ ...(await this.capture(options)), pageContext: this.screenContext() }));
  }

  private async capture(options: ScreenshotOptions): Promise<Screenshot> {
    this.assertRunning();
    const jpeg = options.format === "jpeg";
    const args = jpeg ? ["-quality", String(options.quality ?? 80), "jpeg:-"] : ["png:-"];
    const res = await this.runner.run(["import", "-silent", "-window", "root", ...args], {
      timeoutMs: SCREENSHOT_TIMEOUT_MS,
    });
    if (res.code !== 0 || !res.stdout.length) {
      throw new ActionError(
        "failed",
        `Screenshot failed: ${res.timedOut ? "timed out" : res.stderr.toString().trim().slice(0, 500)}`,
      );
    }
    return { data: res.stdout, mime: jpeg ? "image/jpeg" : "image/png" };
  }

  /** exec/sync: a shell command as the desktop user, with its env, bounded output and a timeout. */
  private async runCommand(req: ExecRequest): Promise<ExecResult> {
    this.assertRunning();
    const res: RunResult = await this.runner.run(commandArgv(req), {
      timeoutMs: req.timeoutSeconds * 1000,
      maxOutputBytes: req.maxOutputBytes,
      env: req.env,
    });
    const note = res.timedOut ? `\n[cabin: timed out after ${req.timeoutSeconds} s; the command was killed]` : "";
    return {
      stdout: res.stdout.toString("utf8"),
      stderr: res.stderr.toString("utf8") + note,
      exit_code: res.timedOut ? 124 : res.code,
      timed_out: res.timedOut,
      truncated: res.truncated,
    };
  }

  /** The exec stream: the same command, output forwarded up to maxOutputBytes in total, then dropped. */
  private async streamCommand(req: ExecRequest, sink: ExecSink): Promise<ExecStreamEnd> {
    this.assertRunning();
    let room = req.maxOutputBytes;
    let truncated = false;
    const exit = await this.runner.supervise(commandArgv(req), {
      timeoutMs: req.timeoutSeconds * 1000,
      env: req.env,
      signal: sink.signal,
      onOutput: (stream, chunk) => {
        if (room <= 0) return void (truncated = true);
        const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
        if (part.length < chunk.length) truncated = true;
        room -= part.length;
        sink.onOutput(stream, part);
      },
    });
    const abnormal = exit.timedOut || exit.aborted;
    return { exitCode: abnormal ? -1 : exit.code, timedOut: exit.timedOut, truncated };
  }

  async snapshot(): Promise<SavedState> {
    const fingerprint = await fingerprintUpper(this.runner.upper).catch(() => "");
    if (fingerprint && this.lastSnapshot?.fingerprint === fingerprint) return this.lastSnapshot.state;
    const started = performance.now();
    const data = await archiveUpper(this.runner.upper);
    const state: SavedState = { kind: "desktop", baseVersion: this.baseVersion, data };
    if (fingerprint) this.lastSnapshot = { fingerprint, state };
    getLogger().info(
      { id: this.id, bytes: data.length, ms: Math.round(performance.now() - started) },
      "desktop snapshot taken",
    );
    return state;
  }

  stop(options: { saveState: boolean }): Promise<SavedState | null> {
    this.stopping ??= this.teardown(options.saveState);
    return this.stopping;
  }

  private async teardown(saveState: boolean): Promise<SavedState | null> {
    try {
      this.vnc?.stop();
      await this.screencast?.stopAll();
      // Chromium closed through its DevTools pipe writes its profile (cookies) first, like closing its window.
      if (saveState) await this.browser.close(CLOSE_APPS_MS);
      await this.files.close();
      // Closing windows first lets apps (Chromium's cookies, editors) write their files.
      if (saveState) await this.runner.closeApps(CLOSE_APPS_MS);
      await this.runner.kill();
      if (!saveState) return null;
      this.lastSnapshot = null;
      return await this.snapshot();
    } finally {
      this.vnc?.stop();
      this.input.close();
      await this.browser.close(0);
      await this.hostDisplay.close();
      await this.runner.kill().catch(() => {});
      await this.runner
        .removeFiles()
        .catch((err) => getLogger().warn({ err, id: this.id }, "could not remove desktop files"));
      this.onStopped();
    }
  }

  resources(): Record<string, number> {
    return {
      ...this.runner.resources(),
      browser_tabs: this.browser.openTabs,
      screencasts: this.screencast?.active ?? 0,
      vnc: this.vnc?.running ?? 0,
      width: this.viewport.width,
      height: this.viewport.height,
    };
  }
}
