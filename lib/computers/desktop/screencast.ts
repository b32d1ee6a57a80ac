// Live-view frames of a desktop: a steady grab of the X root window as JPEG
// (ImageMagick `import`, which the base image has; about 60–80 ms a frame on
// this host, see the sessions note) plus the pointer position
// (`xdotool getmouselocation`) in the same spawn inside the desktop. The grab
// runs back to back up to the fps asked and only while a capture is started.
// ffmpeg x11grab would be cheaper per frame, but neither the base image nor
// the host can reach the desktop's X socket with it today (Xvfb listens only
// on the socket file in the desktop's private /tmp).
import type { ScreencastSettings, ScreencastSink } from "@/lib/computers/driver";
import { CaptureSet } from "@/lib/computers/live/captures";
import type { RunOptions, RunResult } from "@/lib/computers/desktop/enter";

const GRAB = 'xdotool getmouselocation 2>/dev/null; exec import -silent -window root -quality "$1" jpeg:-';
const GRAB_TIMEOUT_MS = 5_000;
const MAX_FRAME_BYTES = 16 * 1024 * 1024;
const JPEG_START = Buffer.from([0xff, 0xd8, 0xff]);
// After a failed grab (the display is busy or going away), wait before trying again.
const RETRY_AFTER_MS = 500;

type Run = (command: string[], options: Omit<RunOptions, "marker">) => Promise<RunResult>;

/** Splits a grab's output: the pointer line of getmouselocation, then the JPEG. */
export function parseGrab(out: Buffer): { jpeg: Buffer | null; cursor: { x: number; y: number } | null } {
  const at = out.indexOf(JPEG_START);
  const head = (at >= 0 ? out.subarray(0, at) : out).toString("latin1");
  const match = /x:(\d+) y:(\d+)/.exec(head);
  return { jpeg: at >= 0 ? out.subarray(at) : null, cursor: match ? { x: Number(match[1]), y: Number(match[2]) } : null };
}

class GrabLoop {
  private stopped = false;
  private lastCursor = "";
  readonly done: Promise<void>;

  constructor(
    private readonly run: Run,
    private readonly size: () => { width: number; height: number },
    private readonly settings: ScreencastSettings,
    private readonly sink: ScreencastSink,
  ) {
    this.done = this.loop();
  }

  private async loop() {
    const interval = 1000 / this.settings.fps;
    while (!this.stopped) {
      const started = Date.now();
      const res = await this.run(["sh", "-c", GRAB, "sh", String(this.settings.quality)], {
        timeoutMs: GRAB_TIMEOUT_MS, maxOutputBytes: MAX_FRAME_BYTES,
      }).catch(() => null);
      if (this.stopped) return;
      const grab = res && res.code === 0 ? parseGrab(res.stdout) : null;
      if (grab?.cursor) {
        const key = `${grab.cursor.x},${grab.cursor.y}`;
        if (key !== this.lastCursor) {
          this.lastCursor = key;
          this.sink.cursor?.(grab.cursor.x, grab.cursor.y);
        }
      }
      if (grab?.jpeg) this.sink.frame({ jpeg: grab.jpeg, ...this.size(), timestamp: started });
      const wait = grab?.jpeg ? interval - (Date.now() - started) : RETRY_AFTER_MS;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.done;
  }
}

/** A steady grab of the display, one loop per capture. */
export function desktopScreencast(run: Run, size: () => { width: number; height: number }): CaptureSet {
  return new CaptureSet(async (settings, sink) => new GrabLoop(run, size, settings, sink));
}
