// @needs nothing
// A streamed answer is drawn in blocks of lines (answerBlocks): the blocks read as the
// whole text, and a block once finished never changes as the answer grows.
import { describe, expect, it } from "vitest";
import { answerBlocks } from "@/components/playground/answer-text";

describe("answerBlocks", () => {
  it("joined by line ends, the blocks are the text, whatever its newlines", () => {
    for (const text of ["", "one line", "a\nb", "\n\nstarts empty", "ends\n", "x\n".repeat(40), "para\n\n".repeat(25)])
      expect(answerBlocks(text).join("\n")).toBe(text);
  });

  it("keeps every finished block as it was while the answer grows token by token", () => {
    const full = Array.from({ length: 60 }, (_, i) => `line ${i} ${"word ".repeat(i % 7)}`).join("\n");
    let before = answerBlocks("");
    for (let end = 1; end <= full.length; end += 3) {
      const now = answerBlocks(full.slice(0, end));
      // Every block but the last of the shorter text is unchanged in the longer one.
      expect(now.slice(0, before.length - 1)).toEqual(before.slice(0, -1));
      before = now;
    }
    expect(before.length).toBeGreaterThan(4);
  });
});
