// @needs nothing
// BatchWriter's retry, backoff and drop rules, over an injected writer (pure logic).
import { describe, expect, it } from "vitest";
import { BatchWriter, type BatchWriterOptions } from "@/lib/models/usage/batch-writer";

interface Row {
  requestId: string;
}

const rows = (...ids: string[]): Row[] => ids.map((requestId) => ({ requestId }));

/** A writer that fails `failures` times, then stores; records every attempt and every wait. */
function harness(failures: number, options: Partial<BatchWriterOptions<Row>> = {}) {
  const stored: string[] = [];
  const attempts: string[][] = [];
  const waits: number[] = [];
  const warnings: object[] = [];
  const errors: object[] = [];
  let left = failures;
  const writer = new BatchWriter<Row>({
    write: async (batch) => {
      attempts.push(batch.map((r) => r.requestId));
      if (left-- > 0) throw new Error("database is locked");
      stored.push(...batch.map((r) => r.requestId));
    },
    requestIdOf: (r) => r.requestId,
    log: { warn: (d) => warnings.push(d), error: (d) => errors.push(d) },
    batchDelayMs: 0,
    sleep: async (ms) => void waits.push(ms),
    ...options,
  });
  return { writer, stored, attempts, waits, warnings, errors };
}

describe("BatchWriter", () => {
  it("writes queued rows in one batch", async () => {
    const h = harness(0);
    for (const r of rows("a", "b", "c")) h.writer.add(r);
    expect(h.writer.stats()).toEqual({ pending: 3, retrying: 0, dropped: 0 });
    await h.writer.flush();
    expect(h.attempts).toEqual([["a", "b", "c"]]);
    expect(h.writer.stats()).toEqual({ pending: 0, retrying: 0, dropped: 0 });
  });

  it("writes on its own after the batch delay, without a flush", async () => {
    const h = harness(0);
    h.writer.add({ requestId: "a" });
    await expect.poll(() => h.stored).toEqual(["a"]);
  });

  it("retries a failed batch with growing waits and writes it once", async () => {
    const h = harness(2);
    for (const r of rows("a", "b")) h.writer.add(r);
    await h.writer.flush();
    expect(h.stored).toEqual(["a", "b"]);
    expect(h.attempts).toHaveLength(3);
    expect(h.waits).toEqual([100, 300]);
    expect(h.writer.stats().dropped).toBe(0);
    // One warning per failed attempt, naming the requests.
    expect(h.warnings).toHaveLength(2);
    expect(h.warnings[0]).toMatchObject({ attempt: 1, retryInMs: 100, requestIds: ["a", "b"] });
    expect(h.errors).toEqual([]);
  });

  it("drops and counts a batch after 5 failed attempts, logging it once with the request ids", async () => {
    const h = harness(Infinity);
    for (const r of rows("a", "b", "c")) h.writer.add(r);
    await h.writer.flush();
    expect(h.attempts).toHaveLength(5);
    expect(h.waits).toEqual([100, 300, 900, 2700]);
    expect(h.stored).toEqual([]);
    expect(h.writer.stats()).toEqual({ pending: 0, retrying: 0, dropped: 3 });
    expect(h.errors).toHaveLength(1);
    expect(h.errors[0]).toMatchObject({ attempts: 5, requestIds: ["a", "b", "c"] });
  });

  it("caps the backoff at 3 s", () => {
    const { writer } = harness(0, { maxAttempts: 10 });
    expect([1, 2, 3, 4, 5, 6].map((n) => writer.backoffMs(n))).toEqual([100, 300, 900, 2700, 3000, 3000]);
  });

  it("counts rows as retrying while their batch waits, and keeps new rows pending", async () => {
    let release!: () => void;
    const h = harness(1, { sleep: () => new Promise<void>((r) => (release = r)) });
    for (const r of rows("a", "b")) h.writer.add(r);
    const flushed = h.writer.flush();
    await expect.poll(() => h.writer.stats().retrying).toBe(2);
    h.writer.add({ requestId: "c" });
    expect(h.writer.stats()).toEqual({ pending: 1, retrying: 2, dropped: 0 });
    release();
    await flushed;
    expect(h.stored).toEqual(["a", "b", "c"]);
    expect(h.writer.stats()).toEqual({ pending: 0, retrying: 0, dropped: 0 });
  });

  it("drops the oldest rows beyond the memory cap, counts them and logs the episode once", async () => {
    let release!: () => void;
    const h = harness(1, { maxHeld: 3, sleep: () => new Promise<void>((r) => (release = r)) });
    for (const r of rows("a", "b")) h.writer.add(r);
    const flushed = h.writer.flush();
    await expect.poll(() => h.writer.stats().retrying).toBe(2);
    // Held: a, b (retrying); c fits, d and e push out the oldest (a, then b).
    for (const r of rows("c", "d", "e")) h.writer.add(r);
    expect(h.writer.stats()).toEqual({ pending: 3, retrying: 0, dropped: 2 });
    expect(h.errors).toHaveLength(1);
    expect(h.errors[0]).toMatchObject({ requestIds: ["a"] });
    release();
    await flushed;
    expect(h.stored).toEqual(["c", "d", "e"]);
    expect(h.writer.stats()).toEqual({ pending: 0, retrying: 0, dropped: 2 });
  });

  it("writes in batches of at most maxBatch rows", async () => {
    const h = harness(0, { maxBatch: 2 });
    for (const r of rows("a", "b", "c", "d", "e")) h.writer.add(r);
    await h.writer.flush();
    expect(h.attempts).toEqual([["a", "b"], ["c", "d"], ["e"]]);
  });
});
