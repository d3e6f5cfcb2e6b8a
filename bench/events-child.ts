/**
 * The Gatehouse server of the events section (bench/events.ts), in its own process: a fresh
 * database (SQLite in BENCH_DATA_DIR, or PostgreSQL at DATABASE_URL), one private project
 * holding BENCH_EVENTS events (half pushes, a quarter issues opened, a quarter comments), written
 * in one INSERT … SELECT over a generated series (with their numbers in the project, as the
 * triggers would give them one by one). Reports one
 * `@@bench {json}` line, then serves until its stdin closes.
 */
import { sql } from 'kysely';
import { loadConfig } from '../bff/src/config.ts';
import { startServer } from '../bff/src/server.ts';
import { createGroup } from '../bff/src/services/groups/groups.ts';
import { createProject } from '../bff/src/services/groups/projects.ts';
import { isPostgres } from '../bff/src/db/dialect.ts';
import { benchServerEnv, serveUntilParentGoes } from './lib.ts';

export interface EventsChildReady {
  url: string;
  projectId: number;
  /** The author of every event (root), for /users/:id/events. */
  authorId: number;
  events: number;
  seedMs: number;
  /** When the first and the last event happened (ISO), for the date filters. */
  firstAt: string;
  lastAt: string;
}

async function main(): Promise<void> {
  const config = loadConfig({ ...benchServerEnv(), GATEHOUSE_WORKERS: '0', ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}) });
  const running = await startServer(config);
  const db = running.db;
  const root = await db.selectFrom('users').selectAll().where('username', '=', 'root').executeTakeFirstOrThrow();
  const group = await createGroup(db, root, { name: 'Bench events', path: 'bench-events' }, null);
  const project = await createProject(db, root, group, { namespace_id: group.id, name: 'busy', path: 'busy' });
  const count = Number(process.env.BENCH_EVENTS ?? 1_000_000);
  const started = performance.now();
  const pushData = JSON.stringify({ commit_count: 1, action: 'pushed', ref_type: 'branch', commit_from: 'a'.repeat(40), commit_to: 'b'.repeat(40), ref: 'main', commit_title: 'feat: step', ref_count: null });
  // Timestamps a second apart, oldest first, ending now.
  const t0 = Date.now() - count * 1000;
  const series = isPostgres(db)
    ? sql`SELECT n FROM generate_series(1, ${count}) AS n`
    : sql`WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${count}) SELECT n FROM s`;
  const createdAt = isPostgres(db)
    ? sql`to_char(to_timestamp((${t0}::bigint + n::bigint * 1000) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', (${t0} + n * 1000) / 1000.0, 'unixepoch')`;
  // A mix the filters can page through: of every four events two are pushes, one opens an
  // issue, one is a comment (a note), so each kind has 250,000 events or more.
  const kind = (pushed: unknown, opened: unknown, commented: unknown) => sql`CASE WHEN n % 4 < 2 THEN ${pushed} WHEN n % 4 = 2 THEN ${opened} ELSE ${commented} END`;
  const nothing = sql`NULL`;
  const action = kind('pushed', 'opened', 'commented on');
  const targetType = kind(nothing, 'Issue', 'Note');
  const data = kind(pushData, nothing, nothing);
  // The filters' numbers (migration 033) written here as the trigger would, one by one, when the
  // database has them (so the same seed measures the code before them).
  const numbered = await sql`SELECT action_seq FROM events WHERE 1 = 0`.execute(db).then(
    () => true,
    () => false,
  );
  const byAuthor = await sql`SELECT author_seq FROM events WHERE 1 = 0`.execute(db).then(
    () => true,
    () => false,
  );
  const actionSeq = kind(sql`(n / 4) * 2 + n % 4`, sql`n / 4 + 1`, sql`n / 4 + 1`);
  const targetSeq = kind(nothing, sql`n / 4 + 1`, sql`n / 4 + 1`);
  const numbers = numbered
    ? {
        columns: sql`, action_key, action_seq, target_key, target_seq`,
        values: sql`, ${kind('pushed', 'created', 'commented')}, ${actionSeq}, ${kind(nothing, 'issue', 'note')}, ${targetSeq}`,
      }
    : { columns: sql``, values: sql`` };
  // The author's numbers (migration 036): one author in one project, so the same as the project's.
  const authorNumbers = byAuthor ? { columns: sql`, author_seq, author_action_seq, author_target_seq`, values: sql`, n, ${actionSeq}, ${targetSeq}` } : { columns: sql``, values: sql`` };
  await sql`INSERT INTO events (project_id, group_id, author_id, action_name, target_type, target_id, push_data, created_at, project_seq${numbers.columns}${authorNumbers.columns})
    SELECT ${project.id}, NULL, ${root.id}, ${action}, ${targetType}, NULL, ${data}, ${createdAt}, n${numbers.values}${authorNumbers.values} FROM (${series}) AS series`.execute(db);
  // As autovacuum leaves a table that took many inserts (PostgreSQL 13+ vacuums after inserts
  // alone): its pages marked all-visible, so an index-only scan reads no rows.
  if (isPostgres(db)) await sql`VACUUM (ANALYZE) events`.execute(db);
  else await sql`ANALYZE`.execute(db);
  const ready: EventsChildReady = { url: serveUntilParentGoes(running), projectId: project.id, authorId: root.id, events: count, seedMs: performance.now() - started, firstAt: new Date(t0 + 1000).toISOString(), lastAt: new Date(t0 + count * 1000).toISOString() };
  process.stdout.write(`@@bench ${JSON.stringify(ready)}\n`);
}

main().catch((err: unknown) => {
  console.error('bench events child failed:', err);
  process.exit(1);
});
