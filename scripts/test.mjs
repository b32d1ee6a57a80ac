// `npm test`: the same preparation as `npm start`, then every suite — unit,
// API against SQLite, its database files (POSTGRES_FILES) against a throwaway PostgreSQL, e2e in Chromium —
// and one closing line "N passed, N failed".
//   npm test -- --only unit,api-sqlite    run some phases (drift, house, unit, api-sqlite, api-postgres, cluster, hardening, e2e)
//   npm run test:hardening               only the hardening suites at full length (same preparation)
//   npm test -- --full                   every phase, the hardening suites at full length
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startPostgres } from "./setup/postgres.mjs";
import { prepare } from "./setup/prepare.mjs";
import { run, runTsx, step } from "./setup/steps.mjs";

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: { only: { type: "string" }, full: { type: "boolean" } },
  allowPositionals: true,
});
const only = values.only ? new Set(values.only.split(",")) : null;
const reports = mkdtempSync(path.join(os.tmpdir(), "cabin-test-reports-"));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** Each failed test, named with its file and the first line of its error: printed last, where a CI log's tail shows it. */
const failedTests = [];
/** [seconds, phase, file] of every vitest file: the slowest are printed last, where a suite's time goes. */
const fileTimes = [];
const firstLine = (text) =>
  String(text ?? "")
    .replace(/\x1b\[[0-9;]*m/g, "")
    .trim()
    .split("\n")[0]
    .slice(0, 300);

const bin = (name) => path.join(root, "node_modules", ".bin", name);

function countVitest(file, phaseName) {
  if (!existsSync(file)) return false;
  const r = JSON.parse(readFileSync(file, "utf8"));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  for (const file of r.testResults ?? []) {
    const name = path.relative(root, file.name);
    if (file.endTime && file.startTime) fileTimes.push([(file.endTime - file.startTime) / 1000, phaseName, name]);
    const failed = (file.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failed) failedTests.push(`${name} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    // A file that failed outside any test (a hook, an import, a crashed worker).
    if (file.status === "failed" && !failed.length) failedTests.push(`${name}: ${firstLine(file.message)}`);
  }
  return true;
}

function countPlaywright(file) {
  if (!existsSync(file)) return false;
  const { stats } = JSON.parse(readFileSync(file, "utf8"));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  const visit = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === "unexpected") {
          const error = t.results?.at(-1)?.error?.message;
          failedTests.push(
            `${spec.file} › ${spec.title}${t.projectName ? ` [${t.projectName}]` : ""}: ${firstLine(error)}`,
          );
        }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of JSON.parse(readFileSync(file, "utf8")).suites ?? []) visit(suite);
  return true;
}

const timings = [];
const runStarted = Date.now();

async function phase(name, fn) {
  if (only && !only.has(name)) return;
  const started = Date.now();
  try {
    await step(`tests: ${name}`, fn);
  } catch (err) {
    failures.push(name);
    console.error(`✗ tests: ${name} failed${err.message ? `: ${err.message.split("\n")[0]}` : ""}`);
  } finally {
    timings.push([name, (Date.now() - started) / 1000]);
  }
}

function printTimings() {
  const minutes = (seconds) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, "0")}`;
  console.log("\nPhase times (m:ss)");
  for (const [name, seconds] of timings) console.log(`  ${name.padEnd(14)} ${minutes(seconds).padStart(6)}`);
  console.log(
    `  ${"total".padEnd(14)} ${minutes((Date.now() - runStarted) / 1000).padStart(6)}  (preparation included)`,
  );
}

// The API files whose subject is what the database stores, counts or queries: sessions' rows, listing and cursors,
// saved state, usage, budgets, limits shared across servers, responses, keys, logins, members, quotas. They run
// again on PostgreSQL. The other API files drive Chromium, desktops and streams, whose rows go through the same
// queries as these; running them twice doubled the suite (27 min per database in CI) and proved no query more.
// Likewise the wire-format files (the OpenAI and AI SDK clients, local tool calls, the OpenAPI document) run once.
const POSTGRES_FILES = [
  "computers-api",
  "computers-lifecycle",
  "computers-pagination",
  "computers-persistence",
  "profiles",
  "desktop-persistence",
  "quotas",
  "models-limits",
  "models-governance",
  "db-usage-month-totals",
  "models-responses.test",
  "models-usage",
  "models-key-rate-limit",
  "models-shared-limits",
  "models-rate-limit-headers",
  "dashboard-usage",
  "dashboard-playground",
  "foundation-auth",
  "foundation-dashboard",
  "invitation-signup",
  "hardening-login",
  "login-backoff",
  "metrics",
  "cluster-shared-limits",
  "agent-tasks-limit",
  "models-settings",
  "files-limits",
];

// api-sqlite runs in two vitest processes side by side, each with its own server (tests/api/global-setup.ts)
// and its files in sequence: most API files wait on servers, Chromium and timers, and one lane left the two
// cores idle more than half the time (17:55 alone on a quiet machine). This lane holds the files whose work is
// the model gateway, the database and logins (no Chromium of their own, or very little), so that what runs
// beside a Chromium or desktop file is light. Substrings of tests/api/ file names.
const API_LIGHT_LANE = [
  "models-",
  "sdk-surface-models",
  "login-backoff",
  "hardening-login",
  "metrics",
  "dashboard-usage",
  "dashboard-playground",
  "foundation-",
  "openapi",
  "invitation-signup",
  "db-usage-month-totals",
  "quotas",
  "agent-tasks",
  "mcp",
  "cua-loop.test",
  "public-links",
  "computers-pagination",
  "computers-api",
  "hardening-answers",
];

// The long hardening suites at the length `npm test` (and so CI) runs them: long enough that a
// leak of anything per session (a context, a process, an fd, a mount) still shows against the
// baseline, short enough for the CI budget. `--full` (npm run test:hardening) runs the full
// 500 + 50 soak cycles, 10,000 hostile requests and a 30 s load phase.
const CI_LENGTHS = {
  SOAK_BROWSER_CYCLES: "100",
  SOAK_DESKTOP_CYCLES: "10",
  HOSTILE_REQUESTS: "3000",
  LOAD_STEADY_SECONDS: "15",
};

function vitest(project, name, env = {}, files = []) {
  const out = path.join(reports, `${name}.json`);
  return run(
    bin("vitest"),
    ["run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile=${out}`, ...files],
    {
      cwd: root,
      env: { ...process.env, ...env },
    },
  ).finally(() => {
    if (!countVitest(out, name)) totals.failed += 1; // the runner itself broke: count it, never hide it
  });
}

try {
  // Desktop tests need the base image wherever desktops can run (Linux, root).
  await prepare({
    build: true,
    desktops: process.platform === "linux" && process.getuid?.() === 0 ? "required" : "optional",
  });
  timings.push(["preparation", (Date.now() - runStarted) / 1000]);
} catch (err) {
  console.error(`\nSet-up failed: ${err.message}`);
  process.exit(1);
}

await phase("drift", () => runTsx("scripts/db/cli.ts", ["check"], { cwd: root }));
// File sizes, import cycles, layer order and environment reads (checkHouse): rules no compiler enforces.
// Biome (biome.json) on the whole tree in its CI mode: a file not formatted, or a lint error, fails
// the phase (`npm run format` rewrites them); lint warnings are listed.
await phase("house", async () => {
  await runTsx("scripts/check-house.ts", [], { cwd: root });
  await run(bin("biome"), ["ci", "--reporter=summary", "."], { cwd: root });
});
await phase("unit", () => vitest("unit", "unit"));
await phase("api-sqlite", async () => {
  const lanes = await Promise.allSettled([
    vitest(
      "api",
      "api-sqlite",
      {},
      API_LIGHT_LANE.flatMap((name) => ["--exclude", `tests/api/${name}*`]),
    ),
    vitest(
      "api",
      "api-sqlite-light",
      {},
      API_LIGHT_LANE.map((name) => `tests/api/${name}`),
    ),
  ]);
  const failed = lanes.find((lane) => lane.status === "rejected");
  if (failed) throw failed.reason;
});
// Three nodes on one PostgreSQL: forwarding, failure and start-up checks (docs/cluster.md).
await phase("cluster", async () => {
  const pg = await step("PostgreSQL for the cluster suite", startPostgres);
  try {
    await vitest("cluster", "cluster", { CABIN_TEST_DATABASE_URL: pg.url });
  } finally {
    await pg.stop();
  }
});
// Hostile input, isolation, crash, soak, load and slow clients; each suite prints its figures.
await phase("hardening", () => vitest("hardening", "hardening", values.full ? {} : CI_LENGTHS));
// The PostgreSQL files and the dashboard's browser tests run side by side: each slows the other (on 2 cores,
// 7:23 and 5:20 alone became 11:26 and 9:02), but the pair ends about a minute sooner than in sequence.
// Their logs interleave; the failed tests are named at the end either way.
await Promise.all([
  phase("api-postgres", async () => {
    const pg = await step("PostgreSQL for the API suite", startPostgres);
    try {
      await vitest(
        "api",
        "api-postgres",
        { CABIN_TEST_DATABASE_URL: pg.url },
        POSTGRES_FILES.map((name) => `tests/api/${name}`),
      );
    } finally {
      await pg.stop();
    }
  }),
  phase("e2e", () => {
    const out = path.join(reports, "e2e.json");
    return run(bin("playwright"), ["test", "--reporter=list,json"], {
      cwd: root,
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
    }).finally(() => {
      if (!countPlaywright(out)) totals.failed += 1;
    });
  }),
]);

rmSync(reports, { recursive: true, force: true });
printTimings();
console.log("\nSlowest test files (s)");
for (const [seconds, phaseName, name] of fileTimes.sort((a, b) => b[0] - a[0]).slice(0, 15))
  console.log(`  ${seconds.toFixed(1).padStart(7)}  ${phaseName.padEnd(13)} ${name}`);
console.log(failures.length ? `\nFailed phases: ${failures.join(", ")}` : "\nAll phases passed");
if (failedTests.length) console.log(`Failed tests:\n${failedTests.map((t) => `  ${t}`).join("\n")}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(failures.length || totals.failed ? 1 : 0);
