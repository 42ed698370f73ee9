// The import graph of src/, read from the sources: static imports and re-exports, `import type`,
// dynamic `import()` and `typeof import()` alike (lint's no-restricted-imports sees only the
// static ones). Pure functions over a map of file → source, so that the rules can be tried on
// made-up files as well as on the real tree.
import path from 'node:path';

export type Sources = ReadonlyMap<string, string>;

export interface ImportEdge {
  from: string;
  /** The specifier as written (`../mock/server.js`, `node:fs`). */
  specifier: string;
  /** The importing file's path for a relative specifier, resolved to a `.ts` path under src/. */
  to?: string;
  typeOnly: boolean;
  dynamic: boolean;
}

const STATIC = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /(typeof\s+)?import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Comments removed (a specifier in a comment is not an import), strings kept. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

export function importsOf(file: string, source: string): ImportEdge[] {
  const text = withoutComments(source);
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(STATIC))
    edges.push(edge(file, match[3]!, { typeOnly: match[2] !== undefined, dynamic: false }));
  for (const match of text.matchAll(DYNAMIC))
    edges.push(edge(file, match[2]!, { typeOnly: match[1] !== undefined, dynamic: match[1] === undefined }));
  return edges;
}

function edge(from: string, specifier: string, kind: { typeOnly: boolean; dynamic: boolean }): ImportEdge {
  const to = specifier.startsWith('.')
    ? path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.js$/, '.ts')
    : undefined;
  return { from, specifier, ...(to ? { to } : {}), ...kind };
}

/** The folder of src/ a file belongs to (`src/mock/chaos/x.ts` → `mock`; `src/index.ts` → `index.ts`). */
export function folderOf(file: string): string {
  const [, first] = file.split('/');
  return first ?? file;
}

/**
 * The room of a file inside a folder split into rooms (`src/mock/respond/x.ts` → `mock/respond`;
 * `src/mock/app.ts` → `mock`, the folder's root files), or undefined outside `roomed` folders.
 */
export function roomOf(file: string, roomed: ReadonlySet<string>): string | undefined {
  const [, folder, room, ...rest] = file.split('/');
  if (folder === undefined || !roomed.has(folder)) return undefined;
  return rest.length > 0 ? `${folder}/${room}` : folder;
}

/** Where a file sits, for one of the graphs: its folder of src/, or its room inside a folder. */
export type Place = (file: string) => string | undefined;

/** Import edges between two places the allowed graph does not connect (an unplaced end is not judged). */
export function forbiddenEdges(
  sources: Sources,
  allowed: ReadonlyMap<string, ReadonlySet<string>>,
  placeOf: Place = folderOf,
): ImportEdge[] {
  const out: ImportEdge[] = [];
  for (const [file, source] of sources)
    for (const item of importsOf(file, source)) {
      if (!item.to) continue;
      const from = placeOf(file);
      const to = placeOf(item.to);
      if (from === undefined || to === undefined || from === to) continue;
      if (!allowed.get(from)?.has(to)) out.push(item);
    }
  return out;
}

/** The edges between places that some import uses (`mock -> core`, `mock/respond -> mock/request`). */
export function usedEdges(sources: Sources, placeOf: Place = folderOf): Set<string> {
  const used = new Set<string>();
  for (const [file, source] of sources)
    for (const edge of importsOf(file, source)) {
      const from = placeOf(file);
      const to = edge.to && placeOf(edge.to);
      if (from !== undefined && to !== undefined && from !== to) used.add(`${from} -> ${to}`);
    }
  return used;
}

/** Imports of I/O modules (static or dynamic) in files that must stay pure. */
export function ioInPureFiles(
  sources: Sources,
  isPure: (file: string) => boolean,
  isIoModule: (specifier: string) => boolean,
): ImportEdge[] {
  const out: ImportEdge[] = [];
  for (const [file, source] of sources) {
    if (!isPure(file)) continue;
    for (const item of importsOf(file, source)) if (!item.typeOnly && isIoModule(item.specifier)) out.push(item);
  }
  return out;
}

/** Every import cycle between files (type-only imports included), each as its files in order. */
export function cycles(sources: Sources): string[][] {
  const graph = new Map<string, string[]>();
  for (const [file, source] of sources)
    graph.set(
      file,
      importsOf(file, source)
        .map((item) => item.to)
        .filter((to): to is string => to !== undefined && sources.has(to)),
    );
  return stronglyConnected(graph)
    .filter((group) => group.length > 1 || graph.get(group[0]!)!.includes(group[0]!))
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Tarjan's strongly connected components, iterative (the tree is deep enough to matter). */
function stronglyConnected(graph: ReadonlyMap<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let counter = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: [string, number][] = [[root, 0]];
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const [node, next] = frame;
      if (next === 0) {
        index.set(node, counter);
        low.set(node, counter);
        counter += 1;
        stack.push(node);
        onStack.add(node);
      }
      const targets = graph.get(node) ?? [];
      if (next < targets.length) {
        frame[1] = next + 1;
        const target = targets[next]!;
        if (!index.has(target)) work.push([target, 0]);
        else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(node)!));
      if (low.get(node) === index.get(node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== node);
        groups.push(group.sort());
      }
    }
  }
  return groups;
}
