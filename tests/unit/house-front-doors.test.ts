// @needs nothing
// The front-door rule of the house check (scripts/house/front-doors.ts) on fixture sources: an import past a
// product's root from outside it is a finding naming the file, the import and the root file to use; the
// rewrite turns it into an import from that root file.
import { describe, expect, it } from "vitest";
import {
  exportsOf,
  frontDoorFindings,
  importsOf,
  type ImportRecord,
  type RootExports,
} from "@/scripts/house/front-doors";
import { mergeDoorImports, rewriteText } from "@/scripts/house/front-door-imports";

const FILES: Record<string, string> = {
  "lib/computers/session-actions.ts":
    'export { actOn, type ActOutcome } from "@/lib/computers/actions/action-service";\n' +
    "export function local() {}\n",
  "lib/computers/actions/action-service.ts": `export function actOn() {}\nexport function hidden() {}\n`,
  "lib/models/model-calls.ts": `export const respond = 1;\n`,
};

/** The fixture's resolution: `@/x/y` → `x/y.ts` when that file exists. */
const resolve = (spec: string) => {
  const file = `${spec.replace(/^@\//, "")}.ts`;
  return file in FILES ? file : null;
};

const roots: RootExports = new Map([
  ["lib/computers/session-actions.ts", exportsOf("x", FILES["lib/computers/session-actions.ts"]!, resolve)],
  ["lib/models/model-calls.ts", exportsOf("x", FILES["lib/models/model-calls.ts"]!, resolve)],
]);

const records = (file: string, text: string): ImportRecord[] => importsOf(file, text, resolve);

describe("front doors", () => {
  it("finds an import past a product's root from outside it, naming the root file that exports it", () => {
    const text = `import { actOn, type ActOutcome } from "@/lib/computers/actions/action-service";\n`;
    const findings = frontDoorFindings(records("lib/mcp/tools.ts", text), roots);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toContain("lib/mcp/tools.ts");
    expect(findings[0]).toContain('"@/lib/computers/actions/action-service"');
    expect(findings[0]).toContain('import it from "@/lib/computers/session-actions"');
  });

  it("says what to export when no root file has the name", () => {
    const text = `import { hidden } from "@/lib/computers/actions/action-service";\n`;
    const [finding] = frontDoorFindings(records("app/computers/route.ts", text), roots);
    expect(finding).toContain("export hidden from a root file of lib/computers");
  });

  it("counts type-only imports and re-exports, and leaves roots and the product's own files alone", () => {
    const typeOnly = `import type { ActOutcome } from "@/lib/computers/actions/action-service";\n`;
    expect(frontDoorFindings(records("components/x.tsx", typeOnly), roots)).toHaveLength(1);
    const reexport = `export { actOn } from "@/lib/computers/actions/action-service";\n`;
    expect(frontDoorFindings(records("lib/agent/x.ts", reexport), roots)).toHaveLength(1);
    const viaRoot = `import { actOn } from "@/lib/computers/session-actions";\n`;
    expect(frontDoorFindings(records("lib/mcp/tools.ts", viaRoot), roots)).toEqual([]);
    const inside = `import { hidden } from "@/lib/computers/actions/action-service";\n`;
    expect(frontDoorFindings(records("lib/computers/service.ts", inside), roots)).toEqual([]);
  });

  it("rewrites an import past the root to the root file, one line per door", () => {
    const text = [
      `import { actOn, type ActOutcome } from "@/lib/computers/actions/action-service";`,
      `import { local } from "@/lib/computers/session-actions";`,
      `const x = actOn;`,
      "",
    ].join("\n");
    const out = rewriteText("lib/mcp/tools.ts", text, roots, resolve);
    expect(out.left).toEqual([]);
    const merged = mergeDoorImports("lib/mcp/tools.ts", out.text, new Set(["@/lib/computers/session-actions"]));
    expect(merged).toBe(
      `import { actOn, type ActOutcome, local } from "@/lib/computers/session-actions";\nconst x = actOn;\n`,
    );
    const missing = rewriteText(
      "lib/mcp/tools.ts",
      `import { hidden } from "@/lib/computers/actions/action-service";\n`,
      roots,
      resolve,
    );
    expect(missing.left).toEqual([
      '"@/lib/computers/actions/action-service": no root file of lib/computers exports hidden',
    ]);
  });
});
