/**
 * The import graph of a source tree, read from the files' own import statements, and the
 * rooms' rules held against it (see ARCHITECTURE.md). `npx tsx scripts/import-graph.ts` prints
 * every circle and every import that breaks a rule, for bff/src and web/src; the unit test
 * (import-graph.unit.test.ts) fails on any.
 *
 * Type-only imports count too: a circle of types is still a circle a reader has to hold in
 * their head, and it becomes a runtime one the day a value joins the import.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** From a file to the files of the same tree it imports (paths relative to the tree). */
export type ImportGraph = Map<string, string[]>;

const SPECIFIER = /(?:^|[;\s])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const SOURCE = /\.(ts|tsx)$/;
const isTest = (file: string) => /\.(unit\.)?test\.tsx?$/.test(file) || file.endsWith('.d.ts');

function sourceFiles(dir: string, root = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p, root);
    return SOURCE.test(e.name) && !isTest(e.name) ? [path.relative(root, p).split(path.sep).join('/')] : [];
  });
}

/** The graph of the product files under `tree` (tests and declaration files left out). */
export function importGraph(tree: string): ImportGraph {
  const files = sourceFiles(tree);
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const text = fs.readFileSync(path.join(tree, file), 'utf8');
    const targets = new Set<string>();
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith('.')) continue;
      const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.(js|ts|tsx)$/, '');
      const hit = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((c) => known.has(c));
      if (hit) targets.add(hit);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Every import circle: the strongly connected components of more than one file (Tarjan), and files importing themselves. */
export function circles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return found;
}

/**
 * The BFF's rooms from the bottom up: a file may import its own room and any room below it,
 * never one above. A room is named by a path prefix; a file belongs to the longest that fits.
 */
export const BFF_ROOMS: string[][] = [
  ['util/', 'config.ts'],
  ['db/'],
  ['auth/', 'outbound/', 'mail/', 'files/'],
  ['queue/'],
  ['policies/'],
  ['services/'],
  ['services/instance/'],
  ['services/webhooks/'],
  ['services/git/'],
  ['services/access/'],
  ['services/groups/'],
  ['services/registry/'],
  ['services/ci/'],
  ['services/planning/'],
  ['services/merging/'],
  ['services/security/'],
  ['services/error-tracking/'],
  ['services/transfer/'],
  ['services/code-suggestions/'],
  ['jobs/'],
  ['presenters/'],
  ['http/'],
  ['api/'],
  ['seed/'],
  ['app.ts', 'server.ts', 'main.ts', 'listeners.ts'],
];

export function roomOf(file: string, rooms: string[][]): { room: string; level: number } | undefined {
  let best: { room: string; level: number } | undefined;
  rooms.forEach((level, i) => {
    for (const room of level) {
      const fits = room.endsWith('/') ? file.startsWith(room) : file === room;
      if (fits && (!best || room.length > best.room.length)) best = { room, level: i };
    }
  });
  return best;
}

export interface Breach {
  from: string;
  to: string;
  why: string;
}

/** Imports that go up the rooms (or leave a room no rule names), in `graph`. */
export function roomBreaches(graph: ImportGraph, rooms: string[][]): Breach[] {
  const breaches: Breach[] = [];
  for (const [from, targets] of graph) {
    const a = roomOf(from, rooms);
    if (!a) {
      breaches.push({ from, to: from, why: 'is in no room' });
      continue;
    }
    for (const to of targets) {
      const b = roomOf(to, rooms)!;
      if (b && b.level > a.level) breaches.push({ from, to, why: `${a.room} may not import ${b.room}, a room above it` });
    }
  }
  return breaches;
}

/**
 * The console's rules: the screen tables (routes.ts, the screens; sections.ts, the tabs) load
 * the screens, so nothing a screen uses may import routes.ts (links come from paths.ts) and
 * only the router and the layout read it; shared pieces (components, the API client, helpers)
 * never import a screen.
 */
export const SCREEN_TABLES = new Set(['routes.ts', 'sections.ts']);
export function consoleBreaches(graph: ImportGraph): Breach[] {
  const breaches: Breach[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (to === 'routes.ts' && from !== 'router.tsx' && !from.startsWith('layout/'))
        breaches.push({ from, to, why: 'only the router and the layout read the route table; links come from paths.ts' });
      if (to.startsWith('screens/') && !from.startsWith('screens/') && !SCREEN_TABLES.has(from) && from !== 'router.tsx')
        breaches.push({ from, to, why: 'a shared piece may not import a screen' });
    }
  }
  return breaches;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bff = importGraph(path.join(repoRoot, 'bff/src'));
  const web = importGraph(path.join(repoRoot, 'web/src'));
  const report = (name: string, graph: ImportGraph, breaches: Breach[]) => {
    const found = circles(graph);
    console.log(`${name}: ${graph.size} files, ${[...graph.values()].reduce((n, t) => n + t.length, 0)} imports, ${found.length} circles, ${breaches.length} imports against the rules`);
    for (const c of found) console.log(`  circle of ${c.length}: ${c.join(' ')}`);
    for (const b of breaches) console.log(`  ${b.from} -> ${b.to}: ${b.why}`);
  };
  report('bff/src', bff, roomBreaches(bff, BFF_ROOMS));
  report('web/src', web, consoleBreaches(web));
}
