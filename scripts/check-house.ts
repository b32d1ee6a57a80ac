// The house rules a compiler does not check, checked on every `npm test`
// (phase "house"): (a) no source file over MAX_LINES, (b) no import cycle in the
// application (app/, lib/, components/, server.ts, instrumentation.ts), (c) no
// `process.env` read in app/, lib/ or components/ outside `getEnv`'s module,
// (d) no comment that cites a document outside the repository (old work items,
// their numbered findings, specification files, paths on a build machine): a
// comment cites a page under docs/ or a symbol, which a newcomer can open,
// (e) no runtime import against the layer order (LAYER_RULES), (f) no import (type-only ones too) from
// outside lib/computers, lib/models or lib/agent into one of their subfolders: their root files are their
// front doors (productFindings, scripts/house/front-doors.ts); (g) and (h), test needs and long lines, are in
// scripts/check-house-tests.ts.
// Prints every finding and exits 1 when there is one.
//
// Import edges: static imports and re-exports, and dynamic `import("…")`
// (a lazy import still runs the module, and the old boot cycle went through
// one). Type-only imports are ignored: they are erased at compile time, so
// they cannot change what runs first.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { longLineFindings, testNeedsFindings } from "./check-house-tests";
import { folderCycleFindings } from "./house/folder-cycles";
import { frontDoorFindings, importsOf, resolverFor, rootExportsOf, type ImportRecord } from "./house/front-doors";
import { cycles, exampleLoop } from "./house/graph";

const ROOT = path.resolve(import.meta.dirname, "..");
const MAX_LINES = 300;
/** Written by tools, not people: prisma migrations and the generated Prisma clients. */
const GENERATED = [/^prisma\/(postgres\/)?migrations\//, /^lib\/generated\//];
const APP_SCOPE = [/^app\//, /^lib\//, /^components\//, /^server\.ts$/, /^instrumentation\.ts$/];
const ENV_SCOPE = [/^app\//, /^lib\//, /^components\//];
const ENV_MODULE = "lib/env.ts";

/**
 * What an outside citation looks like in a comment: the contract's old file names, work-item numbers, build-machine
 * paths.
 */
const OUTSIDE_CITATION =
  /\b(?:interface|extensions)\.md\b|\bspec\/|\bissue[- ]?\d|\bfindings? \d|\/work\/|\.\.\/shared\//i;

const matches = (rel: string, patterns: RegExp[]) => patterns.some((p) => p.test(rel));

/** Line numbers of comments (not strings or code) that cite a document outside the repository. */
function outsideCitations(source: ts.SourceFile): number[] {
  const text = source.text;
  const seen = new Set<number>();
  const lines = new Set<number>();
  const check = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const at = text.slice(range.pos, range.end).search(OUTSIDE_CITATION);
      if (at >= 0) lines.add(source.getLineAndCharacterOfPosition(range.pos + at).line + 1);
    }
  };
  const visit = (node: ts.Node) => {
    check(ts.getLeadingCommentRanges(text, node.getFullStart()));
    check(ts.getTrailingCommentRanges(text, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(source);
  check(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
  return [...lines].sort((x, y) => x - y);
}

/** Tracked and new (not ignored) .ts/.tsx files, repository-relative. */
function sourceFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return [...new Set(out.split("\n"))]
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts") && !matches(f, GENERATED))
    .filter((f) => existsSync(path.join(ROOT, f)))
    .sort();
}

function compilerOptions(): ts.CompilerOptions {
  const configFile = path.join(ROOT, "tsconfig.json");
  const { config, error } = ts.readConfigFile(configFile, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, "\n"));
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, configFile).options;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import "x"` runs x
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

interface Scan {
  /** Module specifiers that load code when this file runs. */
  runtimeImports: string[];
  /** Line numbers of `process.env` reads. */
  envReads: number[];
}

function scan(file: string, text: string): Scan {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const result: Scan = { runtimeImports: [], envReads: [] };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!isTypeOnlyImport(node)) result.runtimeImports.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) result.runtimeImports.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) result.runtimeImports.push(arg.text);
    } else if (
      ts.isPropertyAccessExpression(node) &&
      node.name.text === "env" &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "process"
    ) {
      result.envReads.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return result;
}

/**
 * The layer order (docs/development.md "Contributing"), as the runtime imports it forbids:
 * lib/env.ts (with lib/env/) is the bottom and imports only the base parsers; lib/api (the HTTP base) knows no
 * product; lib/auth knows nothing of the session and model domains (organization deletion asks them through
 * OrganizationResources); the two domains are peers that never import each other; they know nothing of what is
 * built on them (agent tasks, MCP, the settings and usage compositions); lib/routes sits right below app/; lib/
 * never imports app/ or components/.
 */
const LAYER_RULES: Array<{ from: RegExp; to: RegExp; unless?: RegExp; why: string }> = [
  {
    from: /^lib\/env(\.ts$|\/)/,
    to: /^lib\//,
    unless: /^lib\/((ip-ranges|egress-allow)\.ts|env\/.*)$/,
    why: "lib/env.ts and its settings modules (lib/env/) are the bottom layer: they may import only the base parsers",
  },
  {
    from: /^lib\/auth\//,
    to: /^lib\/(computers|models|agent|mcp|settings)\//,
    why: "lib/auth sits below the session and model domains",
  },
  {
    from: /^lib\/api\//,
    to: /^lib\/(auth|computers|models|agent|mcp|settings|credentials|cluster|usage|routes)\//,
    why: "lib/api is the HTTP base every surface answers through (errors, requests, rendering): it knows no product",
  },
  {
    from: /^lib\/(computers|models)\//,
    to: /^lib\/(agent|mcp|settings|usage)\//,
    why: "the domains sit below agent tasks, MCP and the compositions (settings, the usage report)",
  },
  {
    from: /^lib\/computers\//,
    to: /^lib\/models\//,
    why: "the session and model domains are peers: what one needs of the other is registered at start-up (lib/boot.ts)",
  },
  {
    from: /^lib\/models\//,
    to: /^lib\/computers\//,
    why: "the session and model domains are peers: what one needs of the other is registered at start-up (lib/boot.ts)",
  },
  {
    from: /^lib\/(?!routes\/)/,
    to: /^lib\/routes\//,
    why: "lib/routes (the route wrappers, the OpenAPI document, the metrics endpoint) sits right below app/",
  },
  { from: /^lib\/agent\//, to: /^lib\/mcp\//, why: "agent tasks sit below the MCP server" },
  {
    from: /^lib\/cluster\//,
    to: /^lib\/(auth|computers|models|agent|mcp|settings)\//,
    why:
      "lib/cluster sits below the logins and the products: it asks them through the ports they register " +
      "(lib/cluster/ports.ts)",
  },
  { from: /^lib\//, to: /^(app|components)\//, why: "lib/ sits below the pages and components" },
];

function layerFindings(graph: Map<string, Set<string>>): string[] {
  const findings: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const rule = LAYER_RULES.find((r) => r.from.test(from) && r.to.test(to) && !r.unless?.test(to));
      if (rule) findings.push(`layer: ${from} imports ${to}: ${rule.why}`);
    }
  }
  return findings;
}

/** Every import and re-export statement of the application, type-only ones included (scripts/house/front-doors.ts). */
function importRecords(files: string[], options: ts.CompilerOptions) {
  const resolve = resolverFor(ROOT, options);
  const scoped = files.filter((f) => matches(f, APP_SCOPE));
  const roots = rootExportsOf(ROOT, scoped, resolve);
  const records: ImportRecord[] = scoped.flatMap((f) =>
    importsOf(f, readFileSync(path.join(ROOT, f), "utf8"), resolve(f)),
  );
  return { roots, records };
}

export function checkHouse(): string[] {
  const files = sourceFiles();
  const options = compilerOptions();
  const findings: string[] = [];
  const graph = new Map<string, Set<string>>();
  for (const rel of files) {
    const text = readFileSync(path.join(ROOT, rel), "utf8");
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > MAX_LINES) findings.push(`size: ${rel} has ${lines} lines (limit ${MAX_LINES}): split it by concern`);
    for (const line of outsideCitations(ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true))) {
      findings.push(
        `citation: ${rel}:${line} cites a document outside the repository: cite a docs/… page or a symbol instead`,
      );
    }
    if (!matches(rel, APP_SCOPE)) continue;
    const { runtimeImports, envReads } = scan(rel, text);
    if (matches(rel, ENV_SCOPE) && rel !== ENV_MODULE) {
      for (const line of envReads)
        findings.push(`env: ${rel}:${line} reads process.env: add the variable to getEnv() instead`);
    }
    const edges = new Set<string>();
    for (const spec of runtimeImports) {
      const resolved = ts.resolveModuleName(spec, path.join(ROOT, rel), options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = path.relative(ROOT, resolved.resolvedFileName).split(path.sep).join("/");
      if (matches(target, APP_SCOPE) && !matches(target, GENERATED)) edges.add(target);
    }
    graph.set(rel, edges);
  }
  findings.push(...layerFindings(graph));
  // (f) Imports past a product's root from outside it; (i) no circle between lib's folders.
  const { roots, records } = importRecords(files, options);
  findings.push(...frontDoorFindings(records, roots));
  findings.push(...folderCycleFindings(graph, records));
  for (const component of cycles(graph)) {
    const size = component.length > 2 ? ` (${component.length} modules in the loop)` : "";
    findings.push(`cycle: ${exampleLoop(component, graph).join(" → ")}${size}`);
  }
  return findings;
}

const findings = [...checkHouse(), ...testNeedsFindings(ROOT), ...longLineFindings(ROOT)];
for (const f of findings) console.log(f);
console.log(
  findings.length
    ? `house: ${findings.length} finding(s)`
    : "house: no file over 300 lines, no import cycle, no circle between lib's folders, no import against the layer order, " +
        "process.env read only in lib/env.ts, no comment citing a document outside the repository, " +
        "every test file's needs declared",
);
process.exit(findings.length ? 1 : 0);
