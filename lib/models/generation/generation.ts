// A Generation fed by callbacks (node-llama-cpp's onTextChunk, an upstream SSE
// reader) and read as an async iterator by the HTTP layer. Deltas are kept one
// by one, never merged, so an upstream's chunks pass through as they came.
import type { ToolCallDelta } from "@/lib/models/generation/tools";
import type { FinishReason, Generation, GenerationDelta } from "@/lib/models/types";

export class PushGeneration implements Generation {
  completionTokens = 0;
  finishReason: FinishReason | undefined;
  private readonly queue: (GenerationDelta | undefined)[] = [];
  private head = 0;
  private isDone = false;
  private cancelled = false;
  private error: unknown;
  private wake: (() => void) | undefined;
  private markEnded!: () => void;
  /** Resolves once the backend stopped (finished, failed or cancelled and wound down). */
  readonly ended = new Promise<void>((resolve) => (this.markEnded = resolve));

  constructor(
    public promptTokens: number,
    private readonly onCancel: () => void,
  ) {}

  push(text: string) {
    if (!text || this.isDone) return;
    this.queue.push(text);
    this.notify();
  }

  pushToolCalls(toolCalls: ToolCallDelta[]) {
    if (!toolCalls.length || this.isDone) return;
    this.queue.push({ toolCalls });
    this.notify();
  }

  /** Ends the stream; no reason means it was stopped (client gone), not finished. */
  finish(reason: FinishReason | undefined) {
    if (this.isDone) return;
    this.finishReason = reason;
    this.isDone = true;
    this.markEnded();
    this.notify();
  }

  fail(error: unknown) {
    if (this.isDone) return;
    this.error = error;
    this.isDone = true;
    this.markEnded();
    this.notify();
  }

  cancel() {
    if (this.cancelled || this.isDone) return;
    this.cancelled = true;
    this.onCancel();
  }

  /**
   * All deltas at once when the generation already ended normally and nothing
   * was read yet (an upstream's complete JSON answer): `drain` then needs no
   * await per delta. Undefined otherwise; read by iterating instead.
   */
  settledDeltas(): GenerationDelta[] | undefined {
    if (!this.isDone || this.error !== undefined || this.head !== 0) return undefined;
    return this.queue.splice(0) as GenerationDelta[];
  }

  private notify() {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<GenerationDelta> {
    try {
      for (;;) {
        if (this.head < this.queue.length) {
          const delta = this.queue[this.head]!;
          this.queue[this.head++] = undefined;
          yield delta;
          continue;
        }
        if (this.error !== undefined) throw this.error;
        if (this.isDone) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      // The reader left early (client gone, error while writing): stop the work.
      if (!this.isDone) this.cancel();
    }
  }
}
