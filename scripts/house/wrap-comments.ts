// Wraps comment lines longer than Biome's 120 columns (biome.json), which its formatter leaves as they are:
// a `//` line becomes several `//` lines, a JSDoc ` * ` line several ` * ` lines, a one-line `/** … */` a
// block. Only whole-line comments are touched, never code or strings. Rerunnable:
// `npx tsx scripts/house/wrap-comments.ts [folders…]` (default app lib components), `--check` only counts.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const WIDTH = 120;
const MAX_LINES = 300;

/** Words of `text` in lines of at most `width` characters after `prefix` (a word longer than that stays whole). */
function fill(prefix: string, text: string, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && prefix.length + line.length + 1 + word.length > width) {
      lines.push(prefix + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(prefix + line);
  return lines;
}

/** The line wrapped, or null when it is not a long whole-line comment (or a URL or table keeps it long). */
export function wrapLine(line: string, width = WIDTH): string[] | null {
  if (line.length <= width) return null;
  const slashes = /^(\s*\/\/+\s?)(.*)$/.exec(line);
  const star = /^(\s*\*\s)(.*)$/.exec(line);
  const block = /^(\s*)\/\*\*\s(.*?)\s*\*\/\s*$/.exec(line);
  let out: string[] | null = null;
  if (block) out = [`${block[1]}/**`, ...fill(`${block[1]} * `, block[2]!, width), `${block[1]} */`];
  else if (slashes) out = fill(slashes[1]!, slashes[2]!, width);
  else if (star) out = fill(star[1]!, star[2]!, width);
  if (!out) return null;
  // A line that cannot get shorter (one long word, such as a URL) is left as it was.
  return out.some((l) => l.length > width) && out.length === 1 ? null : out;
}

/** `text` with its long comment lines wrapped, and how many lines were wrapped. */
export function wrapComments(text: string, width = WIDTH): { text: string; wrapped: number } {
  let wrapped = 0;
  const lines = text.split("\n").flatMap((line) => {
    const out = wrapLine(line, width);
    if (!out) return [line];
    wrapped++;
    return out;
  });
  return { text: lines.join("\n"), wrapped };
}

function main() {
  const root = path.resolve(import.meta.dirname, "../..");
  const args = process.argv.slice(2);
  const checkOnly = args.includes("--check");
  const folders = args.filter((a) => !a.startsWith("--"));
  const files = execFileSync("git", ["ls-files", ...(folders.length ? folders : ["app", "lib", "components"])], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\n")
    .filter((f) => /\.(tsx?|mjs)$/.test(f) && !f.startsWith("lib/generated/"));
  let total = 0;
  for (const file of files) {
    const text = readFileSync(path.join(root, file), "utf8");
    const { text: out, wrapped } = wrapComments(text);
    // The house's file-size limit (scripts/check-house.ts MAX_LINES) wins: a file it would push past it is left.
    const lines = (t: string) => t.split("\n").length - (t.endsWith("\n") ? 1 : 0);
    if (wrapped && lines(out) > MAX_LINES && lines(text) <= MAX_LINES) {
      console.log(`left as it is: ${file} (wrapped it would have ${lines(out)} lines, over ${MAX_LINES})`);
      continue;
    }
    total += wrapped;
    if (wrapped && !checkOnly) writeFileSync(path.join(root, file), out);
  }
  console.log(`${checkOnly ? "would wrap" : "wrapped"} ${total} comment line(s) over ${WIDTH} characters`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) main();
