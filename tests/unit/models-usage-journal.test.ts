// @needs nothing
// The usage journal's bookkeeping (UsageJournal): what a process leaves behind is what it journaled
// and did not see written, a segment goes once all its rows are written, and a line cut short by a
// kill is skipped. The crash itself is tested through HTTP (tests/api/models-usage-crash.test.ts).
import { appendFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { UsageJournal } from "@/lib/models/usage/usage-journal";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const fresh = () => (dir = mkdtempSync(path.join(os.tmpdir(), "usage-journal-")));

describe("UsageJournal", () => {
  it("leaves its unfinished segments to the next process (the replay skips rows already stored, by id)", async () => {
    fresh();
    const first = new UsageJournal<{ id: string }>(dir);
    const segments = ["a", "b", "c"].map((id) => first.append({ id }, 1_000));
    first.written(segments[1]!);
    // A later process (another start time) reads what the first left.
    await new Promise((resolve) => setTimeout(resolve, 2));
    const next = new UsageJournal<{ id: string }>(dir);
    const { entries, files } = next.leftBehind();
    expect(entries.map((e) => e.row.id)).toEqual(["a", "b", "c"]);
    expect(entries[0]!.at).toBe(1_000);
    expect(files).toHaveLength(1);
    // The journal's own files are never its leftovers.
    next.append({ id: "own" });
    expect(next.leftBehind().entries.map((e) => e.row.id)).toEqual(["a", "b", "c"]);
  });

  it("deletes a sealed segment once every row in it is written", () => {
    fresh();
    const journal = new UsageJournal<{ id: string }>(dir);
    const one = journal.append({ id: "1" });
    const two = journal.append({ id: "2" });
    journal.close();
    expect(readdirSync(dir)).toHaveLength(1);
    journal.written(one);
    expect(readdirSync(dir)).toHaveLength(1);
    journal.written(two);
    expect(readdirSync(dir)).toHaveLength(0);
  });

  it("skips a line cut short by a kill", async () => {
    fresh();
    const first = new UsageJournal<{ id: string }>(dir);
    first.append({ id: "whole" });
    const [file] = readdirSync(dir);
    appendFileSync(path.join(dir, file!), '{"row":{"id":"cut');
    await new Promise((resolve) => setTimeout(resolve, 2));
    expect(new UsageJournal<{ id: string }>(dir).leftBehind().entries.map((e) => e.row.id)).toEqual(["whole"]);
  });
});
