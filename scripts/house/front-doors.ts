// Each product (lib/computers, lib/models, lib/agent) is used from outside through its front door: the
// files directly in its folder (docs/development.md "Front doors"). Its subfolders are its own business, so
// an import from outside that reaches into one is a finding, named with the root file to use instead.
// Used by the house check (`frontDoorFindings`) and by the rerunnable rewrite (scripts/house/front-door-imports.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export const PRODUCTS = ["computers", "models", "agent"] as const;

/** One import or re-export statement, with the names it binds. */
export interface ImportRecord {
  file: string;
  /** The module specifier as written. */
  specifier: string;
  /** Repository-relative file it resolves to. */
  target: string;
  /** Imported names (`default` for a default import); empty for a namespace or side-effect import. */
  names: { name: string; typeOnly: boolean }[];
  /** `import * as x`, `export *`, or `import "x"`: cannot be rewritten name by name. */
  whole: boolean;
  /** The whole statement is `import type`. */
  typeOnly: boolean;
  /** Character range of the statement, for the rewrite. */
  start: number;
  end: number;
}

/** The product whose folder holds `file` (lib/<product>/…), or null. */
export function productOf(file: string): string | null {
  const m = /^lib\/([^/]+)\//.exec(file);
  return m && (PRODUCTS as readonly string[]).includes(m[1]!) ? m[1]! : null;
}

/** A file in a product's subfolder (past its root), or null: `lib/computers/actions/x.ts` → "computers". */
export function pastRootProduct(target: string): string | null {
  const product = productOf(target);
  return product && target.slice(`lib/${product}/`.length).includes("/") ? product : null;
}

/** Whether the import `record` reaches past a product's root from outside that product. */
export function isPastRoot(record: Pick<ImportRecord, "file" | "target">): string | null {
  const product = pastRootProduct(record.target);
  return product && productOf(record.file) !== product ? product : null;
}

/** The import and export statements of a source text (static only: a dynamic import names no bindings). */
export function importsOf(file: string, text: string, resolve: (specifier: string) => string | null): ImportRecord[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const records: ImportRecord[] = [];
  for (const node of source.statements) {
    const isImport = ts.isImportDeclaration(node);
    if (!isImport && !ts.isExportDeclaration(node)) continue;
    const spec = node.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec)) continue;
    const target = resolve(spec.text);
    if (!target) continue;
    const names: ImportRecord["names"] = [];
    let whole = false;
    let typeOnly = false;
    if (isImport) {
      const clause = node.importClause;
      typeOnly = !!clause?.isTypeOnly;
      if (!clause) whole = true;
      if (clause?.name) names.push({ name: "default", typeOnly });
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) whole = true;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const e of bindings.elements)
          names.push({ name: (e.propertyName ?? e.name).text, typeOnly: typeOnly || e.isTypeOnly });
      }
    } else {
      typeOnly = node.isTypeOnly;
      const clause = node.exportClause;
      if (!clause || !ts.isNamedExports(clause)) whole = true;
      else
        for (const e of clause.elements)
          names.push({ name: (e.propertyName ?? e.name).text, typeOnly: typeOnly || e.isTypeOnly });
    }
    records.push({
      file,
      specifier: spec.text,
      target,
      names,
      whole,
      typeOnly,
      start: node.getStart(source),
      end: node.getEnd(),
    });
  }
  return records;
}

/** The names a root file exports, and for a re-export the file it re-exports from. */
export function exportsOf(
  file: string,
  text: string,
  resolve: (specifier: string) => string | null,
): Map<string, string | null> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const names = new Map<string, string | null>();
  const exported = (node: ts.Node) =>
    ts.canHaveModifiers(node) && !!ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const node of source.statements) {
    if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause)) {
      const from =
        node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) ? resolve(node.moduleSpecifier.text) : null;
      for (const e of node.exportClause.elements) names.set(e.name.text, from);
    } else if (ts.isVariableStatement(node) && exported(node)) {
      for (const d of node.declarationList.declarations) if (ts.isIdentifier(d.name)) names.set(d.name.text, null);
    } else if (
      (ts.isFunctionDeclaration(node) ||
        ts.isClassDeclaration(node) ||
        ts.isInterfaceDeclaration(node) ||
        ts.isTypeAliasDeclaration(node) ||
        ts.isEnumDeclaration(node)) &&
      exported(node) &&
      node.name
    ) {
      names.set(node.name.text, null);
    }
  }
  return names;
}

/** Root file → its exports (name → the file a re-export comes from), for every product root file. */
export type RootExports = Map<string, Map<string, string | null>>;

/**
 * The root file of `product` that exports `name`: the one re-exporting it from `target` first (the same
 * binding), then any; null when no root file exports it.
 */
export function rootFor(roots: RootExports, product: string, name: string, target: string): string | null {
  let any: string | null = null;
  for (const [root, names] of roots) {
    if (productOf(root) !== product || pastRootProduct(root) || !names.has(name)) continue;
    if (names.get(name) === target) return root;
    any ??= root;
  }
  return any;
}

/** `lib/computers/service.ts` → `@/lib/computers/service`. */
export const aliasOf = (file: string) => `@/${file.replace(/\.tsx?$/, "")}`;

/** One finding per import past a product's root from outside it, naming the root file to import from. */
export function frontDoorFindings(records: ImportRecord[], roots: RootExports): string[] {
  const findings: string[] = [];
  for (const record of records) {
    const product = isPastRoot(record);
    if (!product) continue;
    const doors = [...new Set(record.names.map((n) => rootFor(roots, product, n.name, record.target)))];
    const missing = record.names.filter((n) => !rootFor(roots, product, n.name, record.target)).map((n) => n.name);
    const use =
      record.whole || missing.length
        ? `export ${missing.length ? missing.join(", ") : "what it needs"} from a root file of lib/${product} and ` +
          `import that`
        : `import it from ${doors.map((d) => `"${aliasOf(d!)}"`).join(" and ")}`;
    findings.push(
      `front door: ${record.file} imports "${record.specifier}", past the root of lib/${product} (its front ` +
        `door is the files directly in lib/${product}/): ${use}`,
    );
  }
  return findings;
}

/** Repository-relative resolution through tsconfig's paths; null for packages and unresolved names. */
export function resolverFor(root: string, options: ts.CompilerOptions) {
  return (file: string) =>
    (specifier: string): string | null => {
      const resolved = ts.resolveModuleName(specifier, path.join(root, file), options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) return null;
      return path.relative(root, resolved.resolvedFileName).split(path.sep).join("/");
    };
}

/** The exports of every product's root files among `files`. */
export function rootExportsOf(root: string, files: string[], resolve: ReturnType<typeof resolverFor>): RootExports {
  const roots: RootExports = new Map();
  for (const file of files) {
    if (!productOf(file) || pastRootProduct(file)) continue;
    roots.set(file, exportsOf(file, readFileSync(path.join(root, file), "utf8"), resolve(file)));
  }
  return roots;
}
