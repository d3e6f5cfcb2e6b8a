import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The console's modules import one another in one direction: nothing imports in a circle (a
 * circle makes the order modules run in depend on which is loaded first), and no screen imports
 * the screen table that loads it (routes.ts; links come from paths.ts, tabs from sections.ts).
 * Static, dynamic and type-only imports all count.
 */

const root = path.dirname(fileURLToPath(import.meta.url));
const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Each module's relative imports that are console modules (styles and generated types are left out). */
function importGraph(): Map<string, string[]> {
  const files = new Set(sources(root));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => path.resolve(path.dirname(file), m[1] ?? m[2])).filter((t) => files.has(t));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one module, or of one that imports itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
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
      if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.map((f) => path.relative(root, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('imports of the console', () => {
  const graph = importGraph();

  it('reads the modules and their imports', () => {
    assert.ok(graph.size > 100);
    assert.ok(graph.get(path.join(root, 'router.tsx'))?.includes(path.join(root, 'routes.ts')));
  });

  it('has no circle', () => {
    assert.deepEqual(circles(graph), []);
  });

  it('finds a circle where there is one', () => {
    const a = path.join(root, 'a.ts');
    const b = path.join(root, 'b.ts');
    assert.deepEqual(circles(new Map([[a, [b]], [b, [a]]])), [['a.ts', 'b.ts']]);
  });

  it('leaves the screen table to the router and the layout', () => {
    const routes = path.join(root, 'routes.ts');
    const importers = [...graph].filter(([, targets]) => targets.includes(routes)).map(([file]) => path.relative(root, file));
    assert.deepEqual(importers.sort(), ['layout/AppLayout.tsx', 'router.tsx']);
  });
});
