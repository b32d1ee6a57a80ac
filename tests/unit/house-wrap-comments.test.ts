// @needs nothing
// The comment wrapper (scripts/house/wrap-comments.ts): long whole-line comments become lines within 120
// columns with the same prefix; code, strings and short lines are left as they are.
import { describe, expect, it } from "vitest";
import { wrapComments } from "@/scripts/house/wrap-comments";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

describe("wrapComments", () => {
  it("wraps // lines, JSDoc lines and one-line JSDoc blocks, keeping their indent and words", () => {
    const text = [`  // ${words(30)}`, "/**", ` * ${words(30)}`, " */", `  /** ${words(30)} */`, ""].join("\n");
    const { text: out, wrapped } = wrapComments(text);
    expect(wrapped).toBe(3);
    const lines = out.split("\n");
    expect(lines.every((l) => l.length <= 120)).toBe(true);
    expect(
      lines
        .filter((l) => l.startsWith("  // "))
        .join(" ")
        .replace(/\s*\/\/\s*/g, " ")
        .trim(),
    ).toBe(words(30));
    expect(lines).toContain("  /**");
    expect(lines).toContain("  */".padStart(5));
    expect(out.replace(/[\s/*]+/g, " ").trim()).toBe(`${words(30)} ${words(30)} ${words(30)}`);
  });

  it("leaves code, strings and short comments alone", () => {
    const code = `const x = "${"a".repeat(130)}"; // ${words(3)}`;
    const text = [code, "// short", `// ${"x".repeat(130)}`, ""].join("\n");
    expect(wrapComments(text)).toEqual({ text, wrapped: 0 });
  });
});
