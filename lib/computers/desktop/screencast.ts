// Live-view frames of a desktop: ONE long-running ffmpeg per capture (x11grab of
// the display at the fps asked, encoded as motion JPEG on its stdout, split into
// frames by MjpegSplitter) instead of a grab spawned per frame, which topped out
// near 14 fps under load. ffmpeg runs on the host (installed by the set-up) and
// reaches the display through HostDisplay; it is its own process group, started
// with the first viewer (ScreencastHub) and killed with the last one or the
// desktop, and it carries the desktop's marker so a restarted server reaps it.
// A still screen encodes to byte-identical JPEGs: those are not sent again,
// except one a second (IDLE_REPEAT_MS), so a static desktop costs viewers almost
// nothing. The pointer position comes from a loop of `xdotool getmouselocation`
// inside the desktop, ten times a second, sent only when it moves.
import { spawn, type ChildProcess } from "node:child_process";
import type { ScreencastSettings, ScreencastSink } from "@/lib/computers/driver";
import { hostEnv, killGroup, type SupervisedExit, type SuperviseOptions } from "@/lib/computers/desktop/enter";
import type { HostDisplay } from "@/lib/computers/desktop/host-display";
import { MjpegSplitter } from "@/lib/computers/desktop/mjpeg";
import { CaptureSet } from "@/lib/computers/live/captures";
import { getLogger } from "@/lib/logger";

const FIRST_FRAME_TIMEOUT_MS = 10_000;
const RESTART_AFTER_MS = 1_000;
const IDLE_REPEAT_MS = 1_000;
const CURSOR_LOOP = "exec 3<> <(:); while :; do xdotool getmouselocation 2>/dev/null; read -t 0.1 -u 3; done";

/** ?quality= 1–100 as ffmpeg's MJPEG -q:v, 2 (best) to 31. */
export function mjpegQscale(quality: number): number {
  return Math.min(31, Math.max(2, Math.round(31 - (quality / 100) * 29)));
}

export interface DesktopScreencastParts {
  ffmpeg: string;
  display: HostDisplay;
  /** The desktop's marker (its session directory), carried by every host-side helper. */
  marker: string;
  size: () => { width: number; height: number };
  /** Runs a command inside the desktop until it ends or `signal` aborts (DesktopRunner.supervise). */
  supervise: (command: string[], options: Omit<SuperviseOptions, "marker">) => Promise<SupervisedExit>;
}

class FfmpegCapture {
  private stopped = false;
  private child: ChildProcess | null = null;
  private lastJpeg: Buffer | null = null;
  private lastSentAt = 0;
  private readonly cursorAbort = new AbortController();
  private lastCursor = "";
  readonly firstFrame: Promise<void>;
  private resolveFirst!: () => void;

  constructor(
    private readonly parts: DesktopScreencastParts,
    private readonly settings: ScreencastSettings,
    private readonly sink: ScreencastSink,
  ) {
    this.firstFrame = new Promise((resolve) => (this.resolveFirst = resolve));
    void this.runFfmpeg();
    void this.runCursorLoop();
  }

  private async runFfmpeg() {
    while (!this.stopped) {
      const started = Date.now();
      const code = await this.ffmpegOnce().catch((err) => {
        getLogger().warn({ err }, "desktop screencast: ffmpeg could not start");
        return -1;
      });
      if (this.stopped) return;
      getLogger().warn({ code, ms: Date.now() - started }, "desktop screencast: ffmpeg ended; starting it again");
      await new Promise((r) => setTimeout(r, RESTART_AFTER_MS));
    }
  }

  private async ffmpegOnce(): Promise<number | null> {
    const { display, xauthority } = await this.parts.display.address();
    if (this.stopped) return null;
    const child = spawn(
      this.parts.ffmpeg,
      [
        "-hide_banner",
        "-loglevel",
        "error",
        "-nostdin",
        "-f",
        "x11grab",
        "-draw_mouse",
        "0",
        "-framerate",
        String(this.settings.fps),
        "-i",
        display,
        // -threads 1: ffmpeg's MJPEG encoder is frame-threaded, and each extra thread holds a frame back
        // (measured here: a screen change reached our pipe in 72 ms p50 at 30 fps, 44 ms with one thread;
        // 121 and 71 ms at 15 fps). -flush_packets 1: each JPEG leaves ffmpeg whole as soon as it is encoded.
        "-threads",
        "1",
        "-f",
        "mjpeg",
        "-pix_fmt",
        "yuvj420p",
        "-q:v",
        String(mjpegQscale(this.settings.quality)),
        "-flush_packets",
        "1",
        "pipe:1",
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
        env: hostEnv(this.parts.marker, { DISPLAY: display, XAUTHORITY: xauthority }),
      },
    );
    this.child = child;
    const splitter = new MjpegSplitter();
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.stdout!.on("data", (chunk: Buffer) => {
      for (const jpeg of splitter.push(chunk)) this.frame(jpeg);
    });
    return new Promise((resolve) => {
      child.once("error", () => resolve(-1));
      child.once("close", (code) => {
        if (this.child === child) this.child = null;
        if (!this.stopped && stderr.trim())
          getLogger().warn({ stderr: stderr.trim() }, "desktop screencast: ffmpeg said");
        resolve(code);
      });
    });
  }

  private frame(jpeg: Buffer) {
    if (this.stopped) return;
    const now = Date.now();
    if (this.lastJpeg?.equals(jpeg) && now - this.lastSentAt < IDLE_REPEAT_MS) return;
    this.lastJpeg = jpeg;
    this.lastSentAt = now;
    this.sink.frame({ jpeg, ...this.parts.size(), timestamp: now });
    this.resolveFirst();
  }

  private async runCursorLoop() {
    const signal = this.cursorAbort.signal;
    let line = "";
    while (!this.stopped) {
      await this.parts
        .supervise(["bash", "-c", CURSOR_LOOP], {
          timeoutMs: 24 * 3600_000,
          signal,
          onOutput: (stream, chunk) => {
            if (stream !== "stdout") return;
            line += chunk.toString("latin1");
            const lines = line.split("\n");
            line = lines.pop() ?? "";
            for (const l of lines) this.cursor(l);
          },
        })
        .catch(() => null);
      if (this.stopped) return;
      await new Promise((r) => setTimeout(r, RESTART_AFTER_MS));
    }
  }

  private cursor(line: string) {
    const match = /x:(\d+) y:(\d+)/.exec(line);
    if (!match || this.stopped) return;
    const key = `${match[1]},${match[2]}`;
    if (key === this.lastCursor) return;
    this.lastCursor = key;
    this.sink.cursor?.(Number(match[1]), Number(match[2]));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cursorAbort.abort();
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const closed = new Promise<void>((r) => child.once("close", () => r()));
      killGroup(child);
      await closed;
    }
  }
}

/** A long-running ffmpeg capture per ScreencastHub capture; `start` resolves with the first frame. */
export function desktopScreencast(parts: DesktopScreencastParts): CaptureSet {
  return new CaptureSet(async (settings, sink) => {
    const capture = new FfmpegCapture(parts, settings, sink);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), FIRST_FRAME_TIMEOUT_MS)));
    const first = await Promise.race([capture.firstFrame, timeout]);
    clearTimeout(timer);
    if (first === "timeout") {
      await capture.stop();
      throw new Error(`the desktop's screen capture made no frame within ${FIRST_FRAME_TIMEOUT_MS / 1000} s`);
    }
    return capture;
  });
}
