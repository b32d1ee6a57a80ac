// @needs nothing
// The Dockerfile cannot be built on CI's machines (no Docker engine: docs/scale-out.md),
// so this checks what can be checked without one: every file it copies or runs
// exists, it runs the set-up scripts `npm start` runs (the same prepare, the same
// Chromium step, the same start script), its desktops stage installs every host tool
// the desktop set-up would, its default target runs as a non-root user, and the
// build context leaves out what must be made inside the image.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  name: string;
  from: string;
  steps: Instruction[];
}

/** The Dockerfile's stages and instructions, continuation lines joined and comments dropped. */
function parseDockerfile(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, op, args] = line.match(/^(\w+)\s+(.*)$/) ?? [];
    if (!op) throw new Error(`unparsed Dockerfile line: ${line}`);
    if (op.toUpperCase() === "FROM") {
      const [, from, name] = args!.match(/^(\S+)(?:\s+AS\s+(\S+))?$/i) ?? [];
      stages.push({ name: name ?? `stage${stages.length}`, from: from!, steps: [] });
    } else if (stages.length) stages.at(-1)!.steps.push({ op: op.toUpperCase(), args: args! });
  }
  return stages;
}

const stages = parseDockerfile(read("Dockerfile"));
const stage = (name: string) => stages.find((s) => s.name === name)!;
const runs = (s: Stage) =>
  s.steps
    .filter((i) => i.op === "RUN")
    .map((i) => i.args)
    .join("\n");
/** The stage's user at its end, following FROM to the stage it starts from. */
function userOf(s: Stage): string {
  const set = s.steps.filter((i) => i.op === "USER").at(-1)?.args;
  if (set) return set;
  const parent = stages.find((p) => p.name === s.from);
  return parent ? userOf(parent) : "root";
}

describe("Dockerfile", () => {
  it("has the build, system, desktops and runtime stages, runtime last (the default target)", () => {
    expect(stages.map((s) => s.name)).toEqual(["build", "system", "desktops", "runtime"]);
  });

  it("names only files that exist: what it copies from the context and every script it runs", () => {
    const named = new Set<string>();
    for (const s of stages) {
      for (const i of s.steps) {
        if (i.op === "COPY" && !i.args.includes("--from=")) {
          const parts = i.args.split(/\s+/).filter((p) => !p.startsWith("--"));
          for (const source of parts.slice(0, -1)) named.add(source);
        }
        for (const script of i.args.matchAll(/\bscripts\/[\w./-]+\.(?:mjs|ts)\b/g)) named.add(script[0]);
      }
    }
    expect([...named]).toEqual(
      expect.arrayContaining(["scripts/setup/prepare.mjs", "scripts/setup/chromium.ts", "scripts/start.mjs"]),
    );
    for (const file of named) expect(existsSync(path.join(root, file)), `${file} exists`).toBe(true);
  });

  // Also: npm start's script as the command.
  it("runs the set-up `npm start` runs: the same prepare, the same Chromium step", () => {
    const startScript = JSON.parse(read("package.json")).scripts.start as string;
    expect(startScript).toBe("node scripts/start.mjs");
    // npm start = scripts/start.mjs, which calls prepare from scripts/setup/prepare.mjs …
    expect(read("scripts/start.mjs")).toMatch(/import \{ prepare \} from "\.\/setup\/prepare\.mjs"/);
    // … which the build stage calls too, and whose Chromium step the system stage runs as root.
    expect(runs(stage("build"))).toMatch(/import\('\.\/scripts\/setup\/prepare\.mjs'\); await prepare\(/);
    expect(read("scripts/setup/prepare.mjs")).toContain('"scripts/setup/chromium.ts"');
    expect(runs(stage("system"))).toContain("node --import tsx scripts/setup/chromium.ts");
    expect(userOf(stage("build"))).toBe("node");
    const cmd = stage("system").steps.find((i) => i.op === "CMD")!;
    expect(JSON.parse(cmd.args)).toEqual(startScript.split(" "));
  });

  it("the desktops stage installs every host tool the desktop set-up would install", () => {
    // HOST_PACKAGES is an array of [binary, package] pairs, however it is formatted.
    const list = read("scripts/setup/desktop-image.mjs").match(/const HOST_PACKAGES = \[([\s\S]*?)\n\];/)![1]!;
    const hostPackages = [...list.matchAll(/\["([^"]+)",\s*"([^"]+)"\]/g)].map((m) => m[2]!);
    expect(hostPackages.length).toBeGreaterThanOrEqual(4);
    const installed = runs(stage("desktops")).split(/\s+/);
    for (const pkg of [...hostPackages, "mmdebstrap", "zstd"]) expect(installed).toContain(pkg);
  });

  it("runs as the non-root user node by default, as root only in the desktops target", () => {
    expect(userOf(stage("runtime"))).toBe("node");
    expect(userOf(stage("desktops"))).toBe("root");
  });

  it("the build context leaves out installed, built and local data", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((l) => l.trim());
    for (const entry of ["node_modules", ".next", "lib/generated", "data", ".env", ".git"])
      expect(ignored).toContain(entry);
  });
});
