// @needs nothing
import { describe, expect, it } from "vitest";
import { PushGeneration } from "@/lib/models/generation/generation";
import { costUsd } from "@/lib/models/usage/usage";
import type { GenerationDelta } from "@/lib/models/types";

describe("PushGeneration", () => {
  it("delivers deltas in order, one by one, then ends", async () => {
    const g = new PushGeneration(3, () => {});
    const seen: GenerationDelta[] = [];
    const reading = (async () => {
      for await (const t of g) seen.push(t);
    })();
    g.push("a");
    g.push("");
    await Promise.resolve();
    g.push("b");
    g.pushToolCalls([{ index: 0, id: "call_1", type: "function", function: { name: "f", arguments: "" } }]);
    g.pushToolCalls([]);
    g.finish("length");
    await reading;
    expect(seen).toEqual([
      "a",
      "b",
      { toolCalls: [{ index: 0, id: "call_1", type: "function", function: { name: "f", arguments: "" } }] },
    ]);
    expect(g.finishReason).toBe("length");
  });

  it("cancels the work when the reader leaves early", async () => {
    let cancelled = 0;
    const g = new PushGeneration(0, () => cancelled++);
    g.push("a");
    g.push("b");
    for await (const _ of g) break;
    expect(cancelled).toBe(1);
  });

  it("raises a failure after the text already produced", async () => {
    const g = new PushGeneration(0, () => {});
    g.push("a");
    g.fail(new Error("boom"));
    const seen: GenerationDelta[] = [];
    await expect(
      (async () => {
        for await (const t of g) seen.push(t);
      })(),
    ).rejects.toThrow("boom");
    expect(seen).toEqual(["a"]);
  });
});

describe("costUsd", () => {
  it("prices tokens per million", () => {
    expect(costUsd({ input: 0.2, output: 0.3 }, 1_000_000, 1_000_000)).toBe(0.5);
    expect(costUsd({ input: 0.3, output: 1 }, 48, 16)).toBe(0.0000304);
    expect(costUsd({ input: 0, output: 0 }, 5, 5)).toBe(0);
  });
});
