import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The direction of imports, checked from the source text (no build needed). Layers, highest first:
 * cli → app (the composition root) → modules → integrations → shared. Inside a module, and from one
 * module to another, a file's role sets its rank: routes → usecases → repository → the rest (errors,
 * schemas, tables and pure helpers). An import may go down or stay level, never up; and no module
 * reads another module's repository (its usecases own its tables, and credits owns every balance).
 */
const LAYERS: [prefix: string, rank: number][] = [
  ['src/cli/', 5],
  ['src/app/', 4],
  ['src/modules/', 3],
  ['src/integrations/', 2],
  ['src/shared/', 1],
];

/**
 * A module file's role, from its name: the edge (HTTP routes, the dashboard, and the MCP endpoint and
 * its tools, which call usecases as routes do), the usecases, the repository, or the rest.
 */
export function roleRank(path: string): number {
  if (/\.(routes|hooks)\.ts$|-routes\.ts$|\/views\/|\/dashboard\/dashboard\.[a-z-]+\.ts$|\/html\.ts$/.test(path)) return 3;
  if (/\/mcp\/mcp\.(endpoint|tools(-[a-z]+)?)\.ts$/.test(path)) return 3;
  if (/\.(usecases|runner|recovery|delivery)\.ts$/.test(path)) return 2;
  if (/\.(repository|stores|budget-stores)\.ts$/.test(path)) return 1;
  return 0;
}

const layerOf = (path: string) => LAYERS.find(([prefix]) => path.startsWith(prefix)) ?? null;
const moduleOf = (path: string) => /^src\/modules\/([^/]+)\//.exec(path)?.[1] ?? null;

export interface Edge {
  from: string;
  to: string;
}

/** Why `from` may not import `to`, or null when it may. Paths are relative to the repository root. */
export function refusal({ from, to }: Edge): string | null {
  const a = layerOf(from);
  const b = layerOf(to);
  if (!a || !b) return null;
  if (b[1] > a[1]) return `${b[0]} sits above ${a[0]}`;
  const fromModule = moduleOf(from);
  const toModule = moduleOf(to);
  if (!fromModule || !toModule) return null;
  if (roleRank(to) > roleRank(from)) return `a ${describe(to)} file sits above a ${describe(from)} file`;
  if (fromModule !== toModule && roleRank(to) === 1) return `the ${toModule} repository belongs to the ${toModule} usecases`;
  return null;
}

const describe = (path: string) => ['helper', 'repository', 'usecases', 'routes'][roleRank(path)];

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Every relative import (static, type-only or dynamic) of the TypeScript files under `folder`. */
export function importsOf(root: string, folder = 'src'): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(join(root, folder))) {
    const from = relative(root, file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(SPECIFIER)) {
      const to = relative(root, resolve(dirname(file), match[1] ?? match[2]!));
      edges.push({ from, to });
    }
  }
  return edges;
}

/** The TypeScript files under `dir`, tests left out. */
export function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield path;
  }
}

/**
 * The folder a file belongs to: a module or a subsystem folder inside one (monitors/poller,
 * dashboard/views: each its own folder, so a subfolder and its feature cannot lean on each other
 * either), one integration, one part of shared, or app / cli.
 */
export const folderOf = (path: string) =>
  /^src\/modules\/(?:[^/.]+\/)*[^/.]+(?=\/[^/]+$)|^src\/(?:integrations|shared)\/[^/.]+|^src\/[^/]+/.exec(path)?.[0] ?? path;

/** The same imports between folders: a loop here means two features lean on each other. */
export const folderEdges = (edges: Edge[]): Edge[] =>
  edges.map(({ from, to }) => ({ from: folderOf(from), to: folderOf(to) })).filter(({ from, to }) => from !== to);

/** Groups of files that import each other in a loop (Tarjan's strongly connected components). */
export function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do group.push((member = stack.pop()!));
      while (member !== node);
      if (group.length > 1 || next.get(node)?.includes(node)) found.push(group.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}
