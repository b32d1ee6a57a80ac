// What each test file needs, read from its header line, and the phases and lanes of `npm test` derived from it
// (docs/development.md "What a test needs"). A test file says, near its top:
//   // @needs server chromium postgres light
// `planTests` places it: the first need of WHERE decides the phase, `light` the api-sqlite lane, `postgres` a
// second run on PostgreSQL. The house check (scripts/check-house.ts) and `npm test` refuse a file without the line,
// or with a word outside NEEDS, naming it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The vocabulary: every word a `// @needs` line may use, and what it promises. */
export const NEEDS = {
  nothing: "pure logic in the test process: no server, no browser, no database server (the unit phase)",
  server: "one Cabin server shared by its lane (tests/api/global-setup.ts): the api-sqlite phase",
  cluster: "three Cabin nodes on one throwaway PostgreSQL, started by the file (the cluster phase)",
  "browser-ui": "Playwright drives the dashboard in Chromium against the e2e server (the e2e phase)",
  "quiet-machine": "with server: a hardening suite that measures the machine, run alone (the hardening phase)",
  light: "with server: little Chromium or desktop work of its own, so it runs in the light api-sqlite lane",
  postgres: "with server: what it proves is what the database stores, so it runs again on PostgreSQL",
  chromium: "drives browser sessions (the server's Chromium)",
  desktop: "drives desktop sessions (it skips them where desktops cannot run: Linux and root)",
};

/** What a file runs against: exactly one of these. */
const WHERE = ["nothing", "server", "cluster", "browser-ui"];

/** The folders each phase's runner reads (vitest.config.ts projects, playwright.config.ts testDir). */
export const PHASE_FOLDERS = {
  unit: ["tests/unit/", "lib/"],
  "api-sqlite": ["tests/api/"],
  "api-sqlite-light": ["tests/api/"],
  "api-postgres": ["tests/api/"],
  cluster: ["tests/cluster/"],
  hardening: ["tests/hardening/"],
  e2e: ["tests/e2e/"],
};

const TEST_FILE = /\.(test|spec)\.ts$/;
const NEEDS_LINE = /^\/\/\s*@needs\b(.*)$/;

/**
 * The words of a file's `// @needs` line, or null when it has none. The line belongs to the header: the comment
 * lines before the first line of code.
 */
export function readNeeds(text) {
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    const found = trimmed.match(NEEDS_LINE);
    if (found) return found[1].trim().split(/\s+/).filter(Boolean);
    if (trimmed && !trimmed.startsWith("//")) return null;
  }
  return null;
}

/** The phases a file with these needs runs in (unvalidated: see needsProblems). */
function phasesOf(needs) {
  const has = (need) => needs.includes(need);
  if (has("browser-ui")) return ["e2e"];
  if (has("cluster")) return ["cluster"];
  if (has("quiet-machine")) return ["hardening"];
  if (!has("server")) return ["unit"];
  return [has("light") ? "api-sqlite-light" : "api-sqlite", ...(has("postgres") ? ["api-postgres"] : [])];
}

/** Why these needs cannot place this file (repository-relative path), or [] when they can. */
export function needsProblems(file, needs) {
  if (needs === null) return [`${file} has no "// @needs …" header line (words: ${Object.keys(NEEDS).join(", ")})`];
  const problems = [];
  const unknown = needs.filter((need) => !Object.hasOwn(NEEDS, need));
  if (unknown.length) problems.push(`${file} needs ${unknown.join(", ")}: not in the vocabulary (NEEDS)`);
  const where = needs.filter((need) => WHERE.includes(need));
  if (where.length !== 1) problems.push(`${file} must need exactly one of ${WHERE.join(", ")}`);
  if (needs.includes("nothing") && needs.length > 1) problems.push(`${file} needs nothing, and something else`);
  for (const need of ["quiet-machine", "light", "postgres"])
    if (needs.includes(need) && !needs.includes("server")) problems.push(`${file} needs ${need} without server`);
  if (needs.includes("quiet-machine") && (needs.includes("light") || needs.includes("postgres")))
    problems.push(`${file} needs quiet-machine: the hardening phase has no lanes and no PostgreSQL run`);
  if (problems.length) return problems;
  for (const phase of phasesOf(needs)) {
    if (!PHASE_FOLDERS[phase].some((folder) => file.startsWith(folder)))
      problems.push(`${file}: its needs place it in ${phase}, whose runner reads ${PHASE_FOLDERS[phase].join(", ")}`);
  }
  return problems;
}

/** Every test file under tests/ and lib/, repository-relative, sorted. */
export function testFiles(root) {
  return ["tests", "lib"]
    .flatMap((dir) =>
      readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && TEST_FILE.test(entry.name))
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/")),
    )
    .sort();
}

/** Each test file with its needs (null: no header line). */
export function readTestNeeds(root) {
  return testFiles(root).map((file) => ({ file, needs: readNeeds(readFileSync(path.join(root, file), "utf8")) }));
}

/** Every problem with the repository's test headers, one line per file problem. */
export function testNeedsProblems(root) {
  return readTestNeeds(root).flatMap(({ file, needs }) => needsProblems(file, needs));
}

/** The files of each phase and lane, from their needs. Throws naming every file whose needs cannot place it. */
export function planTests(entries) {
  const problems = entries.flatMap(({ file, needs }) => needsProblems(file, needs));
  if (problems.length) throw new Error(`test files without valid needs:\n  ${problems.join("\n  ")}`);
  const plan = Object.fromEntries(Object.keys(PHASE_FOLDERS).map((phase) => [phase, []]));
  for (const { file, needs } of entries) for (const phase of phasesOf(needs)) plan[phase].push(file);
  return plan;
}
