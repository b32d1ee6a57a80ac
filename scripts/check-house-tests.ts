// The house rules about tests and line length, run by scripts/check-house.ts beside its own:
// (f) every test file declares what it needs (docs/development.md "What a test needs"), since `npm test` places it
// by that, and (g) no more than MAX_LONG_LINES code lines over MAX_LINE_LENGTH characters (strings and comments
// Biome cannot wrap) in LONG_LINE_SCOPE.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { testNeedsProblems } from "./setup/test-needs.mjs";

export const MAX_LINE_LENGTH = 120;
export const MAX_LONG_LINES = 50;
/** The files whose long lines count against MAX_LONG_LINES: every code file of the tree (GENERATED aside). */
export const LONG_LINE_SCOPE = [/^/];
const CODE_FILE = /\.(tsx?|mts|cts|mjs|cjs|js)$/;
/** Written by tools, not people: prisma migrations and the generated Prisma clients. */
const GENERATED = [/^prisma\/(postgres\/)?migrations\//, /^lib\/generated\//];

/** A test file without a valid `// @needs` line, named. */
export function testNeedsFindings(root: string): string[] {
  return testNeedsProblems(root).map((problem) => `needs: ${problem}`);
}

/** Every code line over MAX_LINE_LENGTH characters, as `file:line`, in tracked and new files. */
export function longLines(root: string): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  const long: string[] = [];
  for (const rel of [...new Set(out.split("\n"))].sort()) {
    if (!CODE_FILE.test(rel) || GENERATED.some((p) => p.test(rel)) || !existsSync(path.join(root, rel))) continue;
    const lines = readFileSync(path.join(root, rel), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (line.length > MAX_LINE_LENGTH) long.push(`${rel}:${i + 1}`);
    });
  }
  return long;
}

/** The long lines in LONG_LINE_SCOPE, each a finding, when there are more than MAX_LONG_LINES; prints the counts. */
export function longLineFindings(root: string): string[] {
  const long = longLines(root);
  const scoped = long.filter((at) => LONG_LINE_SCOPE.some((p) => p.test(at)));
  console.log(
    `house: ${scoped.length} code line(s) over ${MAX_LINE_LENGTH} characters in the tree (limit ${MAX_LONG_LINES})`,
  );
  if (scoped.length <= MAX_LONG_LINES) return [];
  return [
    ...scoped.map((at) => `long line: ${at} is over ${MAX_LINE_LENGTH} characters`),
    `long lines: ${scoped.length} in the tree (limit ${MAX_LONG_LINES}): wrap them`,
  ];
}
