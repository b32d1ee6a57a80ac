// Rows written in batches off the request path, never silently lost: a failed
// batch write is retried with backoff while the rows stay in memory; only past
// the last attempt, or past the memory cap (oldest first), are rows dropped,
// and then they are counted and logged with their request ids. Pure logic over
// an injected `write`, so the retry and drop rules are unit-tested without a
// database (`recordUsage` wires it to the UsageRecord table).

export interface BatchWriterLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface BatchWriterOptions<Row> {
  /** Writes one batch; a rejection means none of its rows were written. */
  write(rows: Row[]): Promise<void>;
  /** The request id a row belongs to, for the logs. */
  requestIdOf(row: Row): string;
  log: BatchWriterLog;
  /** Wait after the first queued row before writing, so rows share a write. */
  batchDelayMs?: number;
  /** Rows per write at most. */
  maxBatch?: number;
  /** Rows held in memory at most (queued plus retrying); beyond it the oldest are dropped. */
  maxHeld?: number;
  /** Attempts per batch, the first included. */
  maxAttempts?: number;
  /** Wait before the second attempt; each next wait is 3 times longer, up to `maxBackoffMs`. */
  firstBackoffMs?: number;
  maxBackoffMs?: number;
  /** Injected by tests; a plain timer otherwise. */
  sleep?: (ms: number) => Promise<void>;
}

export interface BatchWriterStats {
  /** Rows waiting for their first write attempt, or in it. */
  pending: number;
  /** Rows of a batch whose write failed and will be tried again. */
  retrying: number;
  /** Rows given up since the process started (attempts exhausted or memory cap). */
  dropped: number;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class BatchWriter<Row> {
  private readonly o: Required<BatchWriterOptions<Row>>;
  private queue: Row[] = [];
  /** The batch being written or waiting to be retried. */
  private batch: Row[] = [];
  private batchFailed = false;
  private writing = false;
  private dropped = 0;
  /** Set while rows are being dropped for the cap, so the episode is logged once. */
  private overflowing = false;
  private timer: NodeJS.Timeout | null = null;
  private draining: Promise<void> | null = null;

  constructor(options: BatchWriterOptions<Row>) {
    const maxHeld = options.maxHeld ?? 10_000;
    this.o = {
      batchDelayMs: 100,
      maxAttempts: 5,
      firstBackoffMs: 100,
      maxBackoffMs: 3_000,
      sleep: sleepFor,
      ...options,
      maxHeld,
      // A batch never exceeds the cap, so the cap can always be kept by dropping queued or waiting rows.
      maxBatch: Math.min(options.maxBatch ?? 1_000, maxHeld),
    };
  }

  add(row: Row): void {
    this.queue.push(row);
    this.keepUnderCap();
    if (!this.timer && !this.draining) this.timer = setTimeout(() => this.startDrain(), this.o.batchDelayMs);
  }

  stats(): BatchWriterStats {
    const inBatch = this.batch.length;
    return {
      pending: this.queue.length + (this.batchFailed ? 0 : inBatch),
      retrying: this.batchFailed ? inBatch : 0,
      dropped: this.dropped,
    };
  }

  /** Writes everything held now, with retries, and rows added meanwhile (shutdown). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.draining || this.queue.length) await this.startDrain();
  }

  /** The wait before attempt `attempt + 1`: 100 ms, 300 ms, 900 ms, 2.7 s, then 3 s. */
  backoffMs(attempt: number): number {
    return Math.min(this.o.maxBackoffMs, this.o.firstBackoffMs * 3 ** (attempt - 1));
  }

  private startDrain(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
      if (this.queue.length && !this.timer) this.timer = setTimeout(() => this.startDrain(), this.o.batchDelayMs);
    });
    return this.draining;
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      this.batch = this.queue.splice(0, this.o.maxBatch);
      this.batchFailed = false;
      try {
        await this.writeWithRetries();
      } finally {
        this.batch = [];
        this.batchFailed = false;
      }
    }
  }

  private async writeWithRetries(): Promise<void> {
    for (let attempt = 1; this.batch.length; attempt++) {
      const rows = this.batch.slice();
      this.writing = true;
      try {
        await this.o.write(rows);
        return;
      } catch (err) {
        this.batchFailed = true;
        const requestIds = rows.map(this.o.requestIdOf);
        if (attempt >= this.o.maxAttempts) {
          this.dropped += rows.length;
          this.o.log.error(
            { err, attempts: attempt, rows: rows.length, requestIds },
            "usage rows dropped: every write attempt failed",
          );
          return;
        }
        const retryInMs = this.backoffMs(attempt);
        this.o.log.warn(
          { err, attempt, retryInMs, rows: rows.length, requestIds },
          "usage batch write failed; retrying",
        );
      } finally {
        this.writing = false;
      }
      await this.o.sleep(this.backoffMs(attempt));
    }
  }

  private keepUnderCap(): void {
    const lost: Row[] = [];
    while (this.queue.length + this.batch.length > this.o.maxHeld) {
      // Oldest first: the batch waiting to be retried, unless a write of it is under way.
      lost.push(this.batch.length && !this.writing ? this.batch.shift()! : this.queue.shift()!);
    }
    if (lost.length === 0) {
      this.overflowing = false;
      return;
    }
    this.dropped += lost.length;
    if (!this.overflowing) {
      this.o.log.error(
        { maxHeld: this.o.maxHeld, requestIds: lost.map(this.o.requestIdOf) },
        "usage rows dropped: too many held in memory while writes fail (further drops are counted, not logged, " +
          "until it recovers)",
      );
    }
    this.overflowing = true;
  }
}
