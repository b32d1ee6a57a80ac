// @needs nothing
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/api/errors";
import { StartAdmission } from "@/lib/computers/sessions/start-admission";

/** A start the test finishes by hand, so the queue's state can be read between steps. */
function heldStart() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { finish, start: () => done };
}

describe("StartAdmission", () => {
  it("runs `concurrency` starts at once and admits the waiting ones in arrival order", async () => {
    const admission = new StartAdmission(() => ({ concurrency: 1, queueMax: 5, maxWaitMs: 60_000 }));
    const order: string[] = [];
    const first = heldStart();
    const running = admission.run(first.start);
    const later = ["b", "c", "d"].map((name) => admission.run(async () => void order.push(name)));
    expect({ starting: admission.starting, queued: admission.queued }).toEqual({ starting: 1, queued: 3 });
    first.finish();
    await Promise.all([running, ...later]);
    expect(order).toEqual(["b", "c", "d"]);
    expect({ starting: admission.starting, queued: admission.queued }).toEqual({ starting: 0, queued: 0 });
  });

  it("takes waiting creates in turns by organization, each organization's own in order", async () => {
    const admission = new StartAdmission(() => ({ concurrency: 1, queueMax: 10, maxWaitMs: 60_000 }));
    const order: string[] = [];
    const first = heldStart();
    const running = admission.run(first.start, "org-a");
    const starts = [
      ["org-a", "a1"],
      ["org-a", "a2"],
      ["org-a", "a3"],
      ["org-b", "b1"],
      ["org-c", "c1"],
      ["org-b", "b2"],
    ].map(([org, name]) => admission.run(async () => void order.push(name), org));
    expect(admission.queued).toBe(6);
    first.finish();
    await Promise.all([running, ...starts]);
    expect(order).toEqual(["a1", "b1", "c1", "a2", "b2", "a3"]);
  });

  it("a create that times out leaves the turns; the next organization's create is admitted", async () => {
    const admission = new StartAdmission(() => ({ concurrency: 1, queueMax: 10, maxWaitMs: 50 }));
    const first = heldStart();
    const running = admission.run(first.start, "org-a");
    const late = await admission.run(async () => "never", "org-b").catch((err: unknown) => err);
    expect(isAppError(late) && late.status).toBe(503);
    expect(admission.queued).toBe(0);
    const next = admission.run(async () => "next", "org-c");
    first.finish();
    await running;
    expect(await next).toBe("next");
    expect(admission.starting).toBe(0);
  });

  it("refuses a create past the queue bound with a 503 and retry-after, and the queue goes on", async () => {
    const admission = new StartAdmission(() => ({ concurrency: 1, queueMax: 1, maxWaitMs: 30_000 }));
    const first = heldStart();
    const running = admission.run(first.start);
    const queued = admission.run(async () => "queued");
    const refused = await admission.run(async () => "never").catch((err: unknown) => err);
    expect(isAppError(refused) && refused.status).toBe(503);
    expect(isAppError(refused) && refused.detail).toBe("start_queue_full");
    expect(isAppError(refused) && refused.headers?.["retry-after"]).toBe("30");
    first.finish();
    await running;
    expect(await queued).toBe("queued");
  });

  it("a create that waits past the bound is a 503 and leaves the queue", async () => {
    const admission = new StartAdmission(() => ({ concurrency: 1, queueMax: 5, maxWaitMs: 20 }));
    const first = heldStart();
    const running = admission.run(first.start);
    const waited = await admission.run(async () => "never").catch((err: unknown) => err);
    expect(isAppError(waited) && waited.status).toBe(503);
    expect(admission.queued).toBe(0);
    first.finish();
    await running;
    expect(admission.starting).toBe(0);
  });

  it("releases the slot when a start fails", async () => {
    const admission = new StartAdmission(() => ({ concurrency: 1, queueMax: 5, maxWaitMs: 60_000 }));
    await expect(admission.run(() => Promise.reject(new Error("no chromium")))).rejects.toThrow("no chromium");
    expect(await admission.run(async () => "next")).toBe("next");
  });

  it("background starts (standby refills) wait while a create waits, then take the freed slot", async () => {
    const admission = new StartAdmission(() => ({ concurrency: 1, queueMax: 5, maxWaitMs: 60_000 }));
    const order: string[] = [];
    const first = heldStart();
    const running = admission.run(first.start);
    const refill = admission.runInBackground(async () => void order.push("refill"));
    const create = admission.run(async () => void order.push("create"));
    expect({ starting: admission.starting, queued: admission.queued }).toEqual({ starting: 1, queued: 1 });
    first.finish();
    await Promise.all([running, refill, create]);
    expect(order).toEqual(["create", "refill"]);
    expect(admission.starting).toBe(0);
  });

  it("a background start runs at once on an idle node and holds the slot a create then waits for", async () => {
    const admission = new StartAdmission(() => ({ concurrency: 1, queueMax: 5, maxWaitMs: 60_000 }));
    const refill = heldStart();
    const running = admission.runInBackground(refill.start);
    expect(admission.starting).toBe(1);
    const create = admission.run(async () => "created");
    expect(admission.queued).toBe(1);
    refill.finish();
    await running;
    expect(await create).toBe("created");
    expect(admission.starting).toBe(0);
  });

  it("a background start that hangs gives its slot back after its hold time; a waiting create then runs", async () => {
    const admission = new StartAdmission(() => ({ concurrency: 1, queueMax: 5, maxWaitMs: 60_000 }));
    const hung = heldStart();
    const refill = admission.runInBackground(hung.start, 20);
    expect(await admission.run(async () => "created")).toBe("created");
    expect(admission.starting).toBe(0);
    hung.finish();
    await refill;
    expect(admission.starting).toBe(0);
  });
});
