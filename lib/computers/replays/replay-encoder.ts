// One replay's MP4 (docs/replays.md "How a replay is made"): the JPEG frames of the
// session's shared live-view capture are piped into one ffmpeg (`-f image2pipe`, motion
// JPEG in) that writes H.264 (libx264, yuv420p, even dimensions, `+faststart`) into an MP4
// every browser plays. The capture sends frames only when the screen changes, so a clock
// here writes the newest frame once per interval of the framerate, and as many times as
// wall-clock time asks after a stall: frame n is what the screen showed at start + n/fps,
// and the video lasts as long as the recording did. ffmpeg starts with the first frame
// (whose size fixes the video's), and a write error of ffmpeg (a full disk) ends the
// encoder as failed with ffmpeg's own words.
import { spawn, type ChildProcess } from "node:child_process";
import { getLogger } from "@/lib/logger";

/** Frames queued for ffmpeg past which new ones are dropped (ffmpeg fell behind): time still advances. */
const MAX_QUEUED_BYTES = 32 * 1024 * 1024;

export interface EncodedVideo {
  width: number;
  height: number;
  frames: number;
  durationSeconds: number;
}

export class EncodeFailed extends Error {}

export interface EncoderOptions {
  ffmpeg: string;
  outputPath: string;
  fps: number;
  /** Wall-clock start of the recording (ms): frame n shows the screen at startedAt + n/fps. */
  startedAt: number;
  /** ffmpeg ended on its own while recording (a write error): the recording is over. */
  onFailure(reason: string): void;
}

/** ?width=1279 → 1278: H.264 in yuv420p needs even dimensions. */
export const evenSize = (n: number) => Math.max(2, Math.floor(n / 2) * 2);

export function ffmpegArgs(input: { fps: number; width: number; height: number; outputPath: string }): string[] {
  const { fps, width, height, outputPath } = input;
  return [
    ...["-hide_banner", "-loglevel", "error"],
    ...["-f", "image2pipe", "-c:v", "mjpeg", "-framerate", String(fps), "-i", "pipe:0"],
    // A viewport change mid-recording is scaled to the first frame's size: one stream, one size.
    ...["-vf", `scale=${width}:${height}:flags=bilinear,format=yuv420p`],
    // ultrafast: about a third of veryfast's CPU for the same frames (measured in bench:live's recording rows).
    ...["-c:v", "libx264", "-preset", "ultrafast", "-crf", "28", "-pix_fmt", "yuv420p", "-r", String(fps)],
    ...["-movflags", "+faststart", "-f", "mp4", "-y", outputPath],
  ];
}

export class ReplayEncoder {
  private child: ChildProcess | null = null;
  private latest: Buffer | null = null;
  private written = 0;
  private timer: NodeJS.Timeout | null = null;
  private size: { width: number; height: number } | null = null;
  private stderr = "";
  private closed: Promise<number | null> | null = null;
  private finishing = false;
  private failure: string | null = null;
  private gotFrame!: () => void;
  /** Resolves with the first frame of the screen (a stop that comes sooner waits for it: Recorder). */
  readonly firstFrame = new Promise<void>((resolve) => (this.gotFrame = resolve));

  constructor(private readonly options: EncoderOptions) {}

  get failed(): string | null {
    return this.failure;
  }

  /** The newest frame of the screen; the first one starts ffmpeg at its (even) size. */
  frame(jpeg: Buffer, width: number, height: number): void {
    if (this.finishing || this.failure) return;
    this.latest = jpeg;
    this.gotFrame();
    if (!this.child) this.begin(evenSize(width), evenSize(height));
    this.tick();
  }

  private begin(width: number, height: number) {
    this.size = { width, height };
    const child = spawn(this.options.ffmpeg, ffmpegArgs({ ...this.options, width, height }), {
      stdio: ["pipe", "ignore", "pipe"],
    });
    this.child = child;
    child.stderr!.on("data", (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-4000)));
    // EPIPE after ffmpeg died is reported by its exit below.
    child.stdin!.on("error", () => {});
    this.closed = new Promise((resolve) => {
      child.once("error", (err) => {
        this.stderr += `\n${err.message}`;
        resolve(-1);
      });
      child.once("close", (code) => resolve(code));
    });
    void this.closed.then((code) => {
      if (this.finishing) return;
      this.fail(this.reason(code));
    });
    const interval = 1000 / this.options.fps;
    this.timer = setInterval(() => this.tick(), interval);
    this.timer.unref();
  }

  /** Writes the newest frame as many times as the wall clock is ahead of the frames written. */
  private tick(now = Date.now()) {
    const child = this.child;
    if (!child || !this.latest || this.failure) return;
    const due = Math.floor(((now - this.options.startedAt) * this.options.fps) / 1000) + 1;
    for (; this.written < due; this.written++) {
      if (child.stdin!.writableLength > MAX_QUEUED_BYTES) continue;
      child.stdin!.write(this.latest);
    }
  }

  private reason(code: number | null): string {
    const lines = this.stderr
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    const said = lines.find((l) => /no space left|error writing|disk quota/i.test(l)) ?? lines.at(-1);
    return `ffmpeg stopped (exit ${code ?? "signal"})${said ? `: ${said}` : ""}`;
  }

  private fail(reason: string) {
    if (this.failure) return;
    this.failure = reason;
    this.stopClock();
    getLogger().warn({ reason, path: this.options.outputPath }, "a replay's encoder failed");
    this.options.onFailure(reason);
  }

  private stopClock() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Writes the frames due until now, closes ffmpeg's input and waits for the MP4 to be complete. */
  async finish(): Promise<EncodedVideo> {
    if (this.failure) throw new EncodeFailed(this.failure);
    this.tick();
    this.finishing = true;
    this.stopClock();
    const child = this.child;
    if (!child || !this.size || this.written === 0)
      throw new EncodeFailed("no frame of the screen was captured while recording");
    child.stdin!.end();
    const code = await this.closed!;
    if (code !== 0) {
      const reason = this.reason(code);
      this.failure = reason;
      throw new EncodeFailed(reason);
    }
    return { ...this.size, frames: this.written, durationSeconds: this.written / this.options.fps };
  }

  /** Stops ffmpeg without finishing the file (the replay is deleted or the server stops hard). */
  async abort(): Promise<void> {
    this.finishing = true;
    this.stopClock();
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await this.closed;
    }
  }
}
