import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BFF_ROOMS, circles, consoleBreaches, importGraph, repoRoot, roomBreaches, roomOf, type ImportGraph } from './import-graph.ts';

/*
 * The house as ARCHITECTURE.md draws it, held against the code: no import circle in bff/src or
 * web/src, no BFF import up the rooms, no console screen reading the route table that loads it.
 */

const bff = importGraph(path.join(repoRoot, 'bff/src'));
const web = importGraph(path.join(repoRoot, 'web/src'));
const graphOf = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

describe('the import graph', () => {
  it('reads every product file and its imports, static, dynamic and type-only', () => {
    assert.ok(bff.size > 250, `bff/src: ${bff.size} files`);
    assert.ok(web.size > 100, `web/src: ${web.size} files`);
    assert.ok(bff.get('app.ts')?.includes('api/index.ts'));
    // A type-only import and a lazy screen import are edges too.
    assert.ok(bff.get('services/notifier.ts')?.includes('db/schema.ts'));
    assert.ok(web.get('routes.ts')?.some((f) => f.startsWith('screens/')));
    assert.ok(![...bff.keys()].some((f) => f.includes('.test.')), 'tests are left out');
  });

  it('reads a tree written on disk, imports with and without extensions and index files', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-graph-'));
    try {
      fs.mkdirSync(path.join(dir, 'lib'));
      fs.writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b.ts';\nimport type { C } from './lib';\nconst d = () => import('./d.tsx');\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "export { x } from './a.js';\nimport fs from 'node:fs';\n");
      fs.writeFileSync(path.join(dir, 'lib/index.ts'), 'export type C = 1;\n');
      fs.writeFileSync(path.join(dir, 'd.tsx'), "import React from 'react';\nexport default React;\n");
      fs.writeFileSync(path.join(dir, 'a.unit.test.ts'), "import './a.ts';\n");
      const graph = importGraph(dir);
      assert.deepEqual(Object.fromEntries(graph), { 'a.ts': ['b.ts', 'd.tsx', 'lib/index.ts'], 'b.ts': ['a.ts'], 'd.tsx': [], 'lib/index.ts': [] });
      assert.deepEqual(circles(graph), [['a.ts', 'b.ts']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds circles of any length, and a file importing itself', () => {
    assert.deepEqual(circles(graphOf({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] })), [['a', 'b', 'c']]);
    assert.deepEqual(circles(graphOf({ a: ['a'] })), [['a']]);
    assert.deepEqual(circles(graphOf({ a: ['b'], b: [] })), []);
  });

  it('has no circle in bff/src', () => {
    assert.deepEqual(circles(bff), []);
  });

  it('has no circle in web/src', () => {
    assert.deepEqual(circles(web), []);
  });
});

describe('the rooms of the BFF', () => {
  it('places every file of bff/src in a room, a folder by its longest prefix', () => {
    assert.deepEqual(
      [...bff.keys()].filter((f) => !roomOf(f, BFF_ROOMS)),
      [],
    );
    assert.equal(roomOf('services/merging/trains/run.ts', BFF_ROOMS)?.room, 'services/merging/');
    assert.equal(roomOf('services/notifier.ts', BFF_ROOMS)?.room, 'services/');
    assert.ok(roomOf('services/notifier.ts', BFF_ROOMS)!.level < roomOf('services/git/push-events.ts', BFF_ROOMS)!.level);
  });

  it('refuses an import up the rooms, and takes one down or within a room', () => {
    const graph = graphOf({
      'services/git/push-events.ts': ['services/merging/auto-merge.ts', 'services/webhooks/hook-delivery.ts', 'services/git/push-git.ts'],
      'db/pagination.ts': ['util/errors.ts'],
    });
    assert.deepEqual(
      roomBreaches(graph, BFF_ROOMS).map((b) => `${b.from} -> ${b.to}`),
      ['services/git/push-events.ts -> services/merging/auto-merge.ts'],
    );
  });

  it('holds in bff/src: nothing imports a room above its own', () => {
    assert.deepEqual(roomBreaches(bff, BFF_ROOMS), []);
  });
});

describe('the rooms of the console', () => {
  it('refuses a screen reading the route table, and a shared piece importing a screen', () => {
    const graph = graphOf({
      'screens/groups/GroupPage.tsx': ['routes.ts', 'paths.ts'],
      'components/DataTable.tsx': ['screens/groups/columns.tsx'],
      'router.tsx': ['routes.ts', 'screens/misc/NotFoundPage.tsx'],
      'routes.ts': ['screens/groups/GroupPage.tsx'],
      'layout/AppLayout.tsx': ['routes.ts'],
    });
    assert.deepEqual(
      consoleBreaches(graph).map((b) => `${b.from} -> ${b.to}`),
      ['screens/groups/GroupPage.tsx -> routes.ts', 'components/DataTable.tsx -> screens/groups/columns.tsx'],
    );
  });

  it('holds in web/src', () => {
    assert.deepEqual(consoleBreaches(web), []);
  });
});
