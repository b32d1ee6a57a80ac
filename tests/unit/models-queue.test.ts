// @needs nothing
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/api/errors";
import { BoundedQueue } from "@/lib/models/limits/queue";

const live = () => new AbortController().signal;

describe("BoundedQueue", () => {
  it("runs `concurrency` at once and hands slots over in order", async () => {
    const q = new BoundedQueue("m", 1, 2);
    const first = await q.acquire(live());
    const order: string[] = [];
    const second = q.acquire(live()).then((r) => (order.push("second"), r));
    const third = q.acquire(live()).then((r) => (order.push("third"), r));
    expect(q.stats).toEqual({ running: 1, waiting: 2 });
    first();
    first(); // twice is harmless
    (await second)();
    (await third)();
    expect(order).toEqual(["second", "third"]);
    expect(q.stats).toEqual({ running: 0, waiting: 0 });
  });

  it("refuses with a 429 when the waiting line is full", async () => {
    const q = new BoundedQueue("m", 1, 1);
    await q.acquire(live());
    void q.acquire(live());
    const err = await q.acquire(live()).catch((e) => e);
    expect(isAppError(err) && err.status).toBe(429);
    expect(err.detail).toBe("model_overloaded");
    expect(err.headers["retry-after"]).toBe("1");
  });

  it("drops a waiter whose client left", async () => {
    const q = new BoundedQueue("m", 1, 4);
    const release = await q.acquire(live());
    const ac = new AbortController();
    const waiting = q.acquire(ac.signal);
    ac.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
    expect(q.stats.waiting).toBe(0);
    release();
    expect(q.stats.running).toBe(0);
  });
});
