// (i) of the house check: no circle between lib's folders (lib/api, lib/auth, lib/computers, …). A module
// cycle is caught file by file; this catches two folders that each reach into the other through different
// files, which makes neither one usable or understandable without the other (docs/development.md "Layers").
// Every edge counts here: static, dynamic and type-only imports alike. Files directly in lib/ are single
// modules, not a folder: the module-level check covers them.
import type { ImportRecord } from "./front-doors";
import { cycles, exampleLoop } from "./graph";

/** The lib folder a file is in (`lib/auth/x.ts` → "lib/auth"), or null for files elsewhere or directly in lib/. */
export function libFolderOf(file: string): string | null {
  const m = /^lib\/([^/]+)\//.exec(file);
  return m ? `lib/${m[1]}` : null;
}

/** The folder-level graph: folder → folders it imports, with one example import per edge. */
export function folderGraph(edges: Iterable<[from: string, to: string]>) {
  const graph = new Map<string, Set<string>>();
  const example = new Map<string, string>();
  for (const [from, to] of edges) {
    const a = libFolderOf(from);
    const b = libFolderOf(to);
    if (!a || !b || a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)!.add(b);
    if (!example.has(`${a}→${b}`)) example.set(`${a}→${b}`, `${from} imports ${to}`);
  }
  return { graph, example };
}

export function folderCycleFindings(runtime: Map<string, Set<string>>, records: ImportRecord[]): string[] {
  const edges: [string, string][] = records.map((r) => [r.file, r.target]);
  for (const [from, targets] of runtime) for (const to of targets) edges.push([from, to]);
  const { graph, example } = folderGraph(edges);
  return cycles(graph).map((component) => {
    const loop = exampleLoop(component, graph);
    const steps = loop.slice(1).map((to, i) => example.get(`${loop[i]}→${to}`));
    return `folder circle: ${loop.join(" → ")} (${steps.join("; ")}): one of them must not know the other`;
  });
}
