// Rewrites every import from outside lib/computers, lib/models or lib/agent into one of their subfolders to
// the root file that exports the same names (docs/development.md "Front doors"), and prints what it cannot
// rewrite (a namespace import, or a name no root file exports yet: add it to a root file and run again).
// Rerunnable: `npx tsx scripts/house/front-door-imports.ts` (`--check` only prints). Then `npm run format`.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import {
  aliasOf,
  importsOf,
  isPastRoot,
  resolverFor,
  rootExportsOf,
  rootFor,
  type ImportRecord,
  type RootExports,
} from "./front-doors";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCOPE = [/^app\//, /^lib\//, /^components\//, /^server\.ts$/, /^instrumentation\.ts$/, /^proxy\.ts$/];

function compilerOptions(): ts.CompilerOptions {
  const configFile = path.join(ROOT, "tsconfig.json");
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, configFile).options;
}

/** The statements replacing `record` (its text `statement`), one per root file; null when a name has none. */
export function rewrite(record: ImportRecord, statement: string, product: string, roots: RootExports): string | null {
  if (record.whole || !record.names.length) return null;
  const byDoor = new Map<string, ImportRecord["names"]>();
  for (const name of record.names) {
    const door = rootFor(roots, product, name.name, record.target);
    if (!door) return null;
    byDoor.set(door, [...(byDoor.get(door) ?? []), name]);
  }
  // The bindings as written (`a as b`, `type T`), matched to their names.
  const written = (/\{([^}]*)\}/.exec(statement)?.[1] ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const defaultName = /^import\s+(?:type\s+)?([A-Za-z_$][\w$]*)\s*(?:,|\s+from)/.exec(statement)?.[1];
  const keyword = statement.startsWith("export") ? "export" : "import";
  const typeKeyword = record.typeOnly ? " type" : "";
  return [...byDoor]
    .map(([door, names]) => {
      const parts = names.map((n) =>
        n.name === "default"
          ? `default as ${defaultName}`
          : (written.find((w) => w.replace(/^type\s+/, "").split(/\s+as\s+/)[0] === n.name) ?? n.name),
      );
      return `${keyword}${typeKeyword} { ${parts.join(", ")} } from "${aliasOf(door)}";`;
    })
    .join("\n");
}

/** `text` with its imports past a product's root rewritten, and what could not be (one line each). */
export function rewriteText(
  file: string,
  text: string,
  roots: RootExports,
  resolve: (specifier: string) => string | null,
): { text: string; rewritten: number; left: string[] } {
  const records = importsOf(file, text, resolve).filter((r) => isPastRoot(r));
  let out = text;
  let rewritten = 0;
  const left: string[] = [];
  // From the end, so earlier ranges stay valid.
  for (const record of records.sort((a, b) => b.start - a.start)) {
    const product = isPastRoot(record)!;
    const replacement = rewrite(record, text.slice(record.start, record.end), product, roots);
    if (replacement === null) {
      const missing = record.names.filter((n) => !rootFor(roots, product, n.name, record.target)).map((n) => n.name);
      const why = record.whole
        ? "a whole-module import"
        : `no root file of lib/${product} exports ${missing.join(", ")}`;
      left.unshift(`"${record.specifier}": ${why}`);
      continue;
    }
    out = out.slice(0, record.start) + replacement + out.slice(record.end);
    rewritten++;
  }
  return { text: out, rewritten, left };
}

/**
 * Joins the named imports of one file from the same root file into the first of them (`import type` apart
 * from value imports), so a rewrite leaves one import line per front door.
 */
export function mergeDoorImports(file: string, text: string, doors: Set<string>): string {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const groups = new Map<string, ts.ImportDeclaration[]>();
  for (const node of source.statements) {
    if (!ts.isImportDeclaration(node) || !ts.isStringLiteral(node.moduleSpecifier)) continue;
    const clause = node.importClause;
    if (!doors.has(node.moduleSpecifier.text) || !clause || clause.name) continue;
    if (!clause.namedBindings || !ts.isNamedImports(clause.namedBindings)) continue;
    const key = `${clause.isTypeOnly ? "type " : ""}${node.moduleSpecifier.text}`;
    groups.set(key, [...(groups.get(key) ?? []), node]);
  }
  const edits: { start: number; end: number; text: string }[] = [];
  for (const [key, nodes] of groups) {
    if (nodes.length < 2) continue;
    const parts = nodes.flatMap((n) =>
      (n.importClause!.namedBindings as ts.NamedImports).elements.map((e) => e.getText(source)),
    );
    const typeOnly = key.startsWith("type ");
    const spec = (nodes[0]!.moduleSpecifier as ts.StringLiteral).text;
    const merged = `import${typeOnly ? " type" : ""} { ${[...new Set(parts)].join(", ")} } from "${spec}";`;
    edits.push({ start: nodes[0]!.getStart(source), end: nodes[0]!.getEnd(), text: merged });
    for (const n of nodes.slice(1)) edits.push({ start: n.getFullStart(), end: n.getEnd(), text: "" });
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

function main() {
  const checkOnly = process.argv.includes("--check");
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts") && !f.startsWith("lib/generated/"))
    .filter((f) => SCOPE.some((p) => p.test(f)));
  const resolve = resolverFor(ROOT, compilerOptions());
  const roots = rootExportsOf(ROOT, files, resolve);
  const doors = new Set([...roots.keys()].map(aliasOf));
  let rewritten = 0;
  const left: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    const result = rewriteText(file, text, roots, resolve(file));
    rewritten += result.rewritten;
    left.push(...result.left.map((line) => `${file}: ${line}`));
    const out = result.text === text ? text : mergeDoorImports(file, result.text, doors);
    if (!checkOnly && out !== text) writeFileSync(path.join(ROOT, file), out);
  }
  console.log(`${checkOnly ? "would rewrite" : "rewrote"} ${rewritten} import(s) to a product's root`);
  for (const line of left) console.log(`cannot rewrite: ${line}`);
  process.exit(left.length ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) main();
