// @needs nothing
// `npm test` derives its phases and lanes from each test file's `// @needs` line (scripts/setup/test-needs.mjs).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { needsProblems, planTests, readNeeds, readTestNeeds } from "@/scripts/setup/test-needs.mjs";

const root = path.resolve(import.meta.dirname, "../..");

describe("reading a test file's needs", () => {
  it("reads the words of the header's @needs line", () => {
    expect(readNeeds("// @needs server chromium  postgres\n// why\nimport x from 'y';\n")).toEqual([
      "server",
      "chromium",
      "postgres",
    ]);
    expect(readNeeds("// What it proves.\n//   @needs nothing\nimport x from 'y';\n")).toEqual(["nothing"]);
  });

  it("finds no needs in a file without the line, or with it below the first line of code", () => {
    expect(readNeeds("// What it proves.\nimport x from 'y';\n")).toBeNull();
    expect(readNeeds("import x from 'y';\n// @needs server\n")).toBeNull();
  });
});

describe("placing a file by its needs", () => {
  it("places each kind of file in its phase and lane", () => {
    const plan = planTests([
      { file: "tests/unit/a.test.ts", needs: ["nothing"] },
      { file: "tests/api/heavy.test.ts", needs: ["server", "chromium", "desktop"] },
      { file: "tests/api/light.test.ts", needs: ["server", "light"] },
      { file: "tests/api/rows.test.ts", needs: ["server", "postgres", "chromium"] },
      { file: "tests/api/light-rows.test.ts", needs: ["server", "light", "postgres"] },
      { file: "tests/cluster/c.test.ts", needs: ["cluster", "chromium"] },
      { file: "tests/hardening/soak.test.ts", needs: ["server", "quiet-machine", "desktop"] },
      { file: "tests/e2e/page.spec.ts", needs: ["browser-ui"] },
    ]);
    expect(plan).toEqual({
      unit: ["tests/unit/a.test.ts"],
      "api-sqlite": ["tests/api/heavy.test.ts", "tests/api/rows.test.ts"],
      "api-sqlite-light": ["tests/api/light.test.ts", "tests/api/light-rows.test.ts"],
      "api-postgres": ["tests/api/rows.test.ts", "tests/api/light-rows.test.ts"],
      cluster: ["tests/cluster/c.test.ts"],
      hardening: ["tests/hardening/soak.test.ts"],
      e2e: ["tests/e2e/page.spec.ts"],
    });
  });

  it("refuses a file without the line, or with an unknown need, naming it", () => {
    expect(needsProblems("tests/api/new.test.ts", null)).toEqual([
      expect.stringContaining('tests/api/new.test.ts has no "// @needs …" header line'),
    ]);
    expect(needsProblems("tests/api/new.test.ts", ["server", "gpu"])).toEqual([
      "tests/api/new.test.ts needs gpu: not in the vocabulary (NEEDS)",
    ]);
    expect(() => planTests([{ file: "tests/api/new.test.ts", needs: null }])).toThrow(/tests\/api\/new\.test\.ts/);
  });

  it("refuses needs that contradict each other or the file's folder", () => {
    expect(needsProblems("tests/api/a.test.ts", ["server", "cluster"])).toEqual([
      "tests/api/a.test.ts must need exactly one of nothing, server, cluster, browser-ui",
    ]);
    expect(needsProblems("tests/unit/a.test.ts", ["nothing", "postgres"])).toEqual([
      "tests/unit/a.test.ts needs nothing, and something else",
      "tests/unit/a.test.ts needs postgres without server",
    ]);
    expect(needsProblems("tests/hardening/a.test.ts", ["server", "quiet-machine", "light"])).toEqual([
      "tests/hardening/a.test.ts needs quiet-machine: the hardening phase has no lanes and no PostgreSQL run",
    ]);
    expect(needsProblems("tests/unit/a.test.ts", ["server"])).toEqual([
      "tests/unit/a.test.ts: its needs place it in api-sqlite, whose runner reads tests/api/",
    ]);
    expect(needsProblems("tests/api/a.test.ts", ["server", "light"])).toEqual([]);
  });
});

describe("the repository's test files", () => {
  it("each declare needs that place them", () => {
    const entries = readTestNeeds(root);
    expect(entries.length).toBeGreaterThan(200);
    expect(entries.flatMap(({ file, needs }) => needsProblems(file, needs))).toEqual([]);
  });

  it("include this file, in the unit phase", () => {
    expect(planTests(readTestNeeds(root)).unit).toContain("tests/unit/test-needs.test.ts");
  });
});
