// @needs nothing
// The folder-circle rule of the house check (scripts/house/folder-cycles.ts) on fixture edges: two lib folders
// that import each other, through any files and even by a type-only import, are one finding naming the loop
// and an import of each step; a one-way dependency, files directly in lib/ and imports inside one folder are not.
import { describe, expect, it } from "vitest";
import { folderCycleFindings, libFolderOf } from "@/scripts/house/folder-cycles";
import type { ImportRecord } from "@/scripts/house/front-doors";

const record = (file: string, target: string, typeOnly = false): ImportRecord => ({
  file,
  target,
  specifier: `@/${target}`,
  names: [],
  whole: false,
  typeOnly,
  start: 0,
  end: 0,
});

describe("folder circles", () => {
  it("names each lib folder, and none for files directly in lib/ or elsewhere", () => {
    expect(libFolderOf("lib/computers/actions/x.ts")).toBe("lib/computers");
    expect(libFolderOf("lib/boot.ts")).toBeNull();
    expect(libFolderOf("app/page.tsx")).toBeNull();
  });

  it("finds two folders that reach into each other, a type-only import included", () => {
    const runtime = new Map([["lib/api/handlers.ts", new Set(["lib/auth/api-keys.ts"])]]);
    const findings = folderCycleFindings(runtime, [record("lib/auth/api-keys.ts", "lib/api/errors.ts", true)]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toContain("lib/api → lib/auth → lib/api");
    expect(findings[0]).toContain("lib/api/handlers.ts imports lib/auth/api-keys.ts");
    expect(findings[0]).toContain("lib/auth/api-keys.ts imports lib/api/errors.ts");
  });

  it("passes a one-way order, lib/ root files and imports within a folder", () => {
    const runtime = new Map([
      ["lib/auth/api-keys.ts", new Set(["lib/api/errors.ts", "lib/logger.ts"])],
      ["lib/boot.ts", new Set(["lib/auth/api-keys.ts"])],
      ["lib/api/errors.ts", new Set(["lib/logger.ts", "lib/api/render.ts"])],
    ]);
    expect(folderCycleFindings(runtime, [record("lib/computers/a.ts", "lib/api/errors.ts")])).toEqual([]);
  });
});
