// The captures a computer runs for its live view, whatever makes the frames
// (CDP screencast, a screen-grab loop): started one per ScreencastHub, each
// stopped by the hook `start` returns, and all stopped with the computer.
import type { ScreencastCapability, ScreencastSettings, ScreencastSink } from "@/lib/computers/driver";

export interface Capture {
  stop(): Promise<void>;
}

export class CaptureSet implements ScreencastCapability {
  private readonly running = new Set<Capture>();

  /** `begin` makes one capture and resolves when it produces frames. */
  constructor(private readonly begin: (settings: ScreencastSettings, sink: ScreencastSink) => Promise<Capture>) {}

  /** Captures running now (resources(): a leak check that frames stop with the last viewer). */
  get active(): number {
    return this.running.size;
  }

  async start(settings: ScreencastSettings, sink: ScreencastSink): Promise<() => Promise<void>> {
    const capture = await this.begin(settings, sink);
    this.running.add(capture);
    return async () => {
      this.running.delete(capture);
      await capture.stop();
    };
  }

  /** The computer is stopping: end every capture. */
  async stopAll(): Promise<void> {
    const all = [...this.running];
    this.running.clear();
    await Promise.all(all.map((c) => c.stop()));
  }
}
