// @needs nothing
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildStampFile, hashBuildInputs, staleBuild } from "../../scripts/setup/build-inputs.mjs";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A checkout with one source file and a build made at `builtAt` (seconds since the epoch). */
function checkout(builtAt: number) {
  const root = mkdtempSync(path.join(os.tmpdir(), "cabin-build-inputs-"));
  roots.push(root);
  mkdirSync(path.join(root, "lib"));
  mkdirSync(path.join(root, ".next"));
  const source = path.join(root, "lib", "a.ts");
  writeFileSync(source, "export const a = 1;\n");
  utimesSync(source, builtAt - 10, builtAt - 10);
  writeFileSync(path.join(root, ".next", "BUILD_ID"), "x");
  utimesSync(path.join(root, ".next", "BUILD_ID"), builtAt, builtAt);
  return { root, source };
}

describe("staleBuild", () => {
  const builtAt = 1_800_000_000;

  it("is null for a build newer than every source, and when there is no build", () => {
    const { root } = checkout(builtAt);
    expect(staleBuild(root)).toBeNull();
    rmSync(path.join(root, ".next"), { recursive: true });
    expect(staleBuild(root)).toBeNull();
  });

  it("names a source changed after the build", () => {
    const { root, source } = checkout(builtAt);
    writeFileSync(source, "export const a = 2;\n");
    utimesSync(source, builtAt + 5, builtAt + 5);
    expect(staleBuild(root)).toBe(`${path.join("lib", "a.ts")} changed after the production build in .next`);
  });

  it("is null for a source only touched since a stamped build, stale again once its content changes", () => {
    const { root, source } = checkout(builtAt);
    writeFileSync(buildStampFile(root), `${hashBuildInputs(root)}:unchecked`);
    utimesSync(source, builtAt + 5, builtAt + 5);
    expect(staleBuild(root)).toBeNull();
    writeFileSync(source, "export const a = 3;\n");
    utimesSync(source, builtAt + 6, builtAt + 6);
    expect(staleBuild(root)).toMatch(/changed after the production build/);
  });
});
