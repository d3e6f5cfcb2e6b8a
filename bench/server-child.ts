/**
 * The Gatehouse server under load, in its own process (started by bench/run.ts with
 * `node --import tsx bench/server-child.ts`). It opens a fresh database (SQLite in
 * BENCH_DATA_DIR, or PostgreSQL when DATABASE_URL is set), seeds the benchmark data set
 * through the real services, then reports one `@@bench {json}` line on stdout and serves
 * until SIGTERM or until its stdin closes (the parent went away).
 *
 * Data set: one top-level group `bench` with 1,000 subgroups of 10 projects each
 * (10,000 projects), plus a top-level group `bench-wide` holding 100 projects directly, so
 * that the group detail's "up to 100 projects" path is measured too (GET /groups/:id lists
 * only the group's own projects, and `bench` itself has none), and `bench-twenty` with 20
 * projects, the "group with 20 projects".
 *
 * BENCH_SEED=0: no seeding. The child opens a database another child seeded already (a second
 * instance joining the first's PostgreSQL database, bench/proxy.ts), finds the bench groups by
 * their paths and reports their ids (seedMs 0). GATEHOUSE_REPOSITORIES_DIR and
 * GATEHOUSE_SECRET_KEY are passed on when set, as every instance of one database needs the same.
 */
import { sql } from 'kysely';
import { loadConfig } from '../bff/src/config.ts';
import { startServer } from '../bff/src/server.ts';
import { benchServerEnv, serveUntilParentGoes } from './lib.ts';
import { createGroup } from '../bff/src/services/groups/groups.ts';
import { createProject } from '../bff/src/services/groups/projects.ts';
import { isPostgres } from '../bff/src/db/dialect.ts';
import type { Db } from '../bff/src/db/index.ts';
import type { GroupRow } from '../bff/src/db/schema.ts';

export const SUBGROUPS = 1000;
export const PROJECTS_PER_SUBGROUP = 10;
export const WIDE_PROJECTS = 100;
/** The "group with 20 projects" (issue 27): a top-level group holding 20 projects directly. */
export const TWENTY_PROJECTS = 20;

export interface ChildReady {
  url: string;
  engine: 'sqlite' | 'postgres';
  topId: number;
  subId: number;
  wideId: number;
  twentyId: number;
  seedMs: number;
  groups: number;
  projects: number;
}

/** Runs `fn` over `items` with at most `limit` in flight (PostgreSQL gains from it; SQLite is serial anyway). */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  });
  await Promise.all(workers);
}

async function seed(db: Db): Promise<Omit<ChildReady, 'url' | 'engine' | 'seedMs'>> {
  const root = await db.selectFrom('users').select('id').where('username', '=', 'root').executeTakeFirstOrThrow();
  const top = await createGroup(db, root, { name: 'Bench', path: 'bench' }, null);
  const subs: GroupRow[] = new Array(SUBGROUPS);
  const indexes = Array.from({ length: SUBGROUPS }, (_, i) => i);
  await eachLimited(indexes, isPostgres(db) ? 8 : 1, async (i) => {
    const n = String(i + 1).padStart(4, '0');
    const sub = await createGroup(db, root, { name: `Subgroup ${n}`, path: `sub-${n}`, description: `Benchmark subgroup ${n}` }, top);
    subs[i] = sub;
    for (let j = 1; j <= PROJECTS_PER_SUBGROUP; j++) {
      await createProject(db, root, sub, { namespace_id: sub.id, name: `Project ${j}`, path: `project-${j}`, description: `Project ${j} of ${n}` });
    }
  });
  const wide = await createGroup(db, root, { name: 'Bench wide', path: 'bench-wide' }, null);
  for (let j = 1; j <= WIDE_PROJECTS; j++) {
    await createProject(db, root, wide, { namespace_id: wide.id, name: `Wide project ${j}`, path: `wide-${j}` });
  }
  const twenty = await createGroup(db, root, { name: 'Bench twenty', path: 'bench-twenty' }, null);
  for (let j = 1; j <= TWENTY_PROJECTS; j++) {
    await createProject(db, root, twenty, { namespace_id: twenty.id, name: `Twenty project ${j}`, path: `twenty-${j}`, description: `Project ${j} of 20` });
  }
  // PostgreSQL: autovacuum would analyze the freshly loaded tables at some point during the
  // run (changing plans mid-measurement); analyze now so every target sees the steady state.
  // SQLite has no automatic ANALYZE and the server never runs one, so its steady state is
  // "no statistics" and it is left as is.
  if (isPostgres(db)) await sql`ANALYZE`.execute(db);
  const groups = await db.selectFrom('groups').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const projects = await db.selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { topId: top.id, subId: subs[SUBGROUPS / 2].id, wideId: wide.id, twentyId: twenty.id, groups: Number(groups.n), projects: Number(projects.n) };
}

/** The ids of a data set seeded earlier (BENCH_SEED=0), found by the paths `seed` gives its groups. */
async function seeded(db: Db): Promise<Omit<ChildReady, 'url' | 'engine' | 'seedMs'>> {
  const top = await db.selectFrom('groups').select('id').where('path', '=', 'bench').where('parent_id', 'is', null).executeTakeFirst();
  if (!top) throw new Error('BENCH_SEED=0: the database holds no seeded `bench` group (start a child with seeding on it first)');
  const byPath = async (p: string, parent: number | null) => {
    const q = db.selectFrom('groups').select('id').where('path', '=', p);
    const row = await (parent === null ? q.where('parent_id', 'is', null) : q.where('parent_id', '=', parent)).executeTakeFirstOrThrow();
    return row.id;
  };
  const groups = await db.selectFrom('groups').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const projects = await db.selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return {
    topId: top.id,
    subId: await byPath(`sub-${String(SUBGROUPS / 2 + 1).padStart(4, '0')}`, top.id),
    wideId: await byPath('bench-wide', null),
    twentyId: await byPath('bench-twenty', null),
    groups: Number(groups.n),
    projects: Number(projects.n),
  };
}

async function main(): Promise<void> {
  const env = process.env;
  const config = loadConfig({
    ...benchServerEnv(),
    ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}),
    ...(env.GATEHOUSE_REPOSITORIES_DIR ? { GATEHOUSE_REPOSITORIES_DIR: env.GATEHOUSE_REPOSITORIES_DIR } : {}),
    ...(env.GATEHOUSE_SECRET_KEY ? { GATEHOUSE_SECRET_KEY: env.GATEHOUSE_SECRET_KEY } : {}),
    ...(env.GATEHOUSE_WORKERS ? { GATEHOUSE_WORKERS: env.GATEHOUSE_WORKERS } : {}),
  });
  const running = await startServer(config);
  const started = performance.now();
  const data = env.BENCH_SEED === '0' ? await seeded(running.db) : await seed(running.db);
  const seedMs = env.BENCH_SEED === '0' ? 0 : performance.now() - started;
  const url = serveUntilParentGoes(running);

  const ready: ChildReady = {
    url,
    engine: config.databaseUrl ? 'postgres' : 'sqlite',
    seedMs,
    ...data,
  };
  process.stdout.write(`@@bench ${JSON.stringify(ready)}\n`);
}

main().catch((err: unknown) => {
  console.error('bench server child failed:', err);
  process.exit(1);
});
