// A replay being recorded in this process: a viewer of the session's ONE shared
// live-view capture (ScreencastHub; the hub runs the capture at the highest fps any
// viewer asks, so recording starts no second capture) whose frames feed a ReplayEncoder.
// It ends by POST …/stop, by its max_duration_seconds, by the session's end, or by
// ffmpeg failing (a full disk); the row goes recording → processing → ready | failed.
// Recorders are process-wide (`recorders()`), so every bundle sees the same ones.
import { stat, unlink } from "node:fs/promises";
import type { ScreencastHub } from "@/lib/computers/live/hub";
import { EncodeFailed, ReplayEncoder } from "@/lib/computers/replays/replay-encoder";
import { updateReplay, type ReplayRow } from "@/lib/computers/replays/replay-store";
import { getLogger } from "@/lib/logger";
import { settlesWithin } from "@/lib/settles-within";
import { singleton, singletonKey } from "@/lib/singleton";

/** JPEG quality asked of the capture: the live view's default, so a recording costs what watching does. */
export const RECORDING_QUALITY = 60;
/** How long a stop waits for the capture's first frame when none came yet. */
export const FIRST_FRAME_WAIT_MS = 3_000;

export class Recorder {
  private detach: (() => void) | null = null;
  /** The session's capture ended: no frame can come any more. */
  private captureEnded = false;
  private readonly encoder: ReplayEncoder;
  private maxTimer: NodeJS.Timeout | null = null;
  /** Set once the recording is over: resolves when the row is ready or failed. */
  private finishing: Promise<void> | null = null;
  /** The row as it reads once the recording is over (`processing`, or `failed`). */
  private processingRow: Promise<ReplayRow | null> | null = null;

  constructor(
    readonly row: ReplayRow,
    private readonly filePath: string,
    ffmpeg: string,
  ) {
    this.encoder = new ReplayEncoder({
      ffmpeg,
      outputPath: filePath,
      fps: row.framerate,
      startedAt: row.startedAt.getTime(),
      onFailure: (reason) => void this.end({ failed: reason }),
    });
  }

  get sessionId(): string {
    return this.row.sessionId;
  }

  /** Stopped (finishing or finished): a new replay of the session may start. */
  get isOver(): boolean {
    return this.finishing !== null;
  }

  /** Attaches to the session's hub; throws when the session has ended. */
  attach(hub: ScreencastHub) {
    this.detach = hub.attach({
      fps: this.row.framerate,
      quality: RECORDING_QUALITY,
      frame: (frame) => this.encoder.frame(frame.jpeg, frame.width, frame.height),
      ended: () => {
        this.captureEnded = true;
        void this.stop();
      },
    });
    if (this.row.maxDurationSeconds) {
      this.maxTimer = setTimeout(() => void this.stop(), this.row.maxDurationSeconds * 1000);
      this.maxTimer.unref();
    }
  }

  /** Ends the recording (idempotent); the returned promise resolves once the row says `processing`. */
  stop(): Promise<ReplayRow> {
    return this.end({});
  }

  /** Resolves when the MP4 is complete (or failed) and the row says so. */
  get finished(): Promise<void> {
    return this.finishing ?? Promise.resolve();
  }

  private async end(how: { failed?: string }): Promise<ReplayRow> {
    if (this.finishing) return (await this.processingRow) ?? this.row;
    let markProcessing!: (row: ReplayRow | null) => void;
    this.processingRow = new Promise((r) => (markProcessing = r));
    this.finishing = (async () => {
      // A stop right after the start can come before the capture's first frame (a loaded machine): wait for
      // it, bounded, so a short recording is a short video rather than a failed one.
      if (!how.failed && !this.captureEnded) await settlesWithin(this.encoder.firstFrame, FIRST_FRAME_WAIT_MS);
      const finishedAt = new Date();
      if (this.maxTimer) clearTimeout(this.maxTimer);
      this.detach?.();
      this.detach = null;
      markProcessing(
        await updateReplay(this.row.id, {
          status: how.failed ? "failed" : "processing",
          finishedAt,
          reason: how.failed,
        }),
      );
      if (how.failed) return this.discard(how.failed);
      try {
        const video = await this.encoder.finish();
        const { size } = await stat(this.filePath);
        await updateReplay(this.row.id, {
          status: "ready",
          sizeBytes: BigInt(size),
          width: video.width,
          height: video.height,
          durationSeconds: video.durationSeconds,
        });
      } catch (err) {
        const reason = err instanceof EncodeFailed ? err.message : `the MP4 could not be finished: ${String(err)}`;
        await updateReplay(this.row.id, { status: "failed", reason });
        await this.discard(reason);
      }
    })()
      .catch((err) => getLogger().error({ err, id: this.row.id }, "a replay could not be finished"))
      .finally(() => recorders().delete(this.row.id));
    return (await this.processingRow) ?? this.row;
  }

  /** A failed replay keeps its row and reason; its partial file (unplayable without its index) goes. */
  private async discard(reason: string) {
    await this.encoder.abort();
    await unlink(this.filePath).catch(() => {});
    getLogger().warn({ id: this.row.id, reason }, "replay failed");
  }

  /** The replay is being deleted: ffmpeg killed, nothing finished. */
  async abort(): Promise<void> {
    if (this.maxTimer) clearTimeout(this.maxTimer);
    this.detach?.();
    this.detach = null;
    this.finishing ??= Promise.resolve();
    await this.encoder.abort();
    recorders().delete(this.row.id);
  }
}

const RECORDERS = singletonKey<Map<string, Recorder>>("replayRecorders");

/** Replays recording or finishing in this process, by replay id. */
export function recorders(): Map<string, Recorder> {
  return singleton(RECORDERS, () => new Map());
}

/** The replay recording now for a session in this process (at most one), or null. */
export function recordingOf(sessionId: string): Recorder | null {
  for (const recorder of recorders().values())
    if (recorder.sessionId === sessionId && !recorder.isOver) return recorder;
  return null;
}
