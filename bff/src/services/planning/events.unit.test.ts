import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrate, openDb, type Db } from '../../db/index.ts';
import { up as numberByFilter } from '../../db/migrations/033_event_filter_numbers.ts';
import { up as numberByAuthor } from '../../db/migrations/036_author_event_numbers.ts';
import { ACTION_NAMES, TARGET_TYPES, renumberAuthorEvents } from './events.ts';
import { insertUser } from '../access/users.ts';
import { createGroup } from '../groups/groups.ts';
import { createProject } from '../groups/projects.ts';

/** The database as it was before migration 036 (after 035). */
async function before036(db: Db): Promise<void> {
  for (const trigger of ['events_number_by_author', 'events_author_gaps']) await sql`DROP TRIGGER ${sql.raw(trigger)}`.execute(db);
  for (const index of ['events_author_seq', 'events_author_action_seq', 'events_author_target_seq', 'events_author_created_seq']) await db.schema.dropIndex(index).execute();
  for (const table of ['author_event_dates_unordered', 'author_event_gaps']) await db.schema.dropTable(table).execute();
  for (const column of ['author_seq', 'author_action_seq', 'author_target_seq']) await db.schema.alterTable('events').dropColumn(column).execute();
  const inProject = sql<boolean>`project_id IS NOT NULL`;
  await db.schema.createIndex('events_author_listed').on('events').columns(['author_id', 'id', 'created_at']).where(inProject).execute();
  await db.schema.createIndex('events_author_action').on('events').columns(['author_id', 'action_key', 'id', 'created_at']).where(inProject).execute();
  await db.schema.createIndex('events_author_target').on('events').columns(['author_id', 'target_key', 'id', 'created_at']).where(inProject).execute();
  await db.schema.createIndex('events_author_created').on('events').columns(['author_id', 'created_at']).execute();
}

/** The database as it was before migration 033: its columns, table, trigger and indexes gone (and 034's and 035's indexes on its columns). */
async function before033(db: Db): Promise<void> {
  await before036(db);
  await sql`DROP TRIGGER events_number_by_filter`.execute(db);
  for (const index of ['events_action_seq', 'events_target_seq', 'events_project_created_seq', 'events_author_action', 'events_author_target', 'events_author_listed']) await db.schema.dropIndex(index).execute();
  await db.schema.createIndex('events_project_created').on('events').columns(['project_id', 'created_at']).execute();
  await db.schema.dropTable('event_dates_unordered').execute();
  for (const column of ['action_key', 'action_seq', 'target_key', 'target_seq']) await db.schema.alterTable('events').dropColumn(column).execute();
}

const keyOf = (map: Record<string, string[]>, value: string | null) => Object.entries(map).find(([, names]) => value !== null && names.includes(value))?.[0] ?? null;

describe('migration 033: the numbers of events by filter', () => {
  it('numbers existing events by filter value in project order, marks a project whose dates go back, and its triggers number new ones', async () => {
    const db = openDb({ sqliteFile: ':memory:' });
    try {
      await migrate(db);
      await before033(db);
      await sql`PRAGMA foreign_keys = OFF`.execute(db);
      const names = [...new Set(Object.values(ACTION_NAMES).flat()), 'something else'];
      const types = [null, ...new Set(Object.values(TARGET_TYPES).flat())];
      const insert = (project_id: number, i: number, created_at: string) =>
        db
          .insertInto('events')
          .values({ project_id, group_id: null, author_id: null, action_name: names[i % names.length], target_type: types[(i * 5) % types.length], target_id: null, push_data: null, created_at })
          .execute();
      for (let i = 0; i < 40; i++) {
        await insert(1, i, new Date(Date.UTC(2025, 0, 1, i)).toISOString());
        await insert(2, i, new Date(Date.UTC(2025, 0, 1, i === 20 ? 0 : i)).toISOString());
      }
      await numberByFilter(db);

      const expectNumbered = async (projectId: number) => {
        const rows = await db.selectFrom('events').selectAll().where('project_id', '=', projectId).orderBy('project_seq').execute();
        const counts = new Map<string, number>();
        for (const row of rows) {
          const action = keyOf(ACTION_NAMES, row.action_name);
          const target = keyOf(TARGET_TYPES, row.target_type);
          const next = (k: string | null) => (k === null ? null : counts.set(k, (counts.get(k) ?? 0) + 1).get(k)!);
          assert.deepEqual([row.action_key, row.action_seq, row.target_key, row.target_seq], [action, next(action && `a:${action}`), target, next(target && `t:${target}`)], `event ${row.id}`);
        }
        return rows.length;
      };
      assert.equal(await expectNumbered(1), 40);
      assert.equal(await expectNumbered(2), 40);
      assert.deepEqual((await db.selectFrom('event_dates_unordered').select('project_id').execute()).map((r) => r.project_id), [2]);

      // New events, numbered by the trigger; one dated before the last marks its project.
      await insert(1, 40, '2025-01-03T00:00:00.000Z');
      await insert(1, 41, '2025-01-03T00:00:00.000Z');
      assert.equal(await expectNumbered(1), 42);
      assert.deepEqual((await db.selectFrom('event_dates_unordered').select('project_id').orderBy('project_id').execute()).map((r) => r.project_id), [2]);
      await insert(1, 42, '2025-01-02T00:00:00.000Z');
      assert.equal(await expectNumbered(1), 43);
      assert.deepEqual((await db.selectFrom('event_dates_unordered').select('project_id').orderBy('project_id').execute()).map((r) => r.project_id), [1, 2]);
    } finally {
      await db.destroy();
    }
  });
});

describe('migration 036: the numbers of events by author', () => {
  it('numbers existing events per author, marks an author whose dates go back, numbers new ones, marks gaps a deleted project leaves and housekeeping closes them', async () => {
    const db = openDb({ sqliteFile: ':memory:' });
    try {
      await migrate(db);
      await before036(db);
      const [alice, bob] = await Promise.all(['alice', 'bob'].map(async (username) => (await insertUser(db, { username, name: username, email: `${username}@example.com` })).id));
      const group = await createGroup(db, { id: alice }, { name: 'g', path: 'g' }, null);
      const projects: number[] = [];
      for (const path of ['p1', 'p2']) projects.push((await createProject(db, { id: alice } as never, group, { namespace_id: group.id, name: path, path })).id);
      await db.deleteFrom('events').execute();
      const names = ['pushed to', 'opened', 'commented on', 'something else'];
      const types = [null, 'Issue', 'Note', null];
      const insert = (author_id: number, i: number, created_at: string) =>
        db
          .insertInto('events')
          .values({ project_id: projects[i % 2], group_id: null, author_id, action_name: names[i % 4], target_type: types[i % 4], target_id: null, push_data: null, created_at })
          .execute();
      // An epic's event (no project) is in no author's list.
      await db.insertInto('events').values({ project_id: null, group_id: group.id, author_id: alice, action_name: 'created', target_type: 'Epic', target_id: null, push_data: null, created_at: '2025-01-01T00:00:00.000Z' }).execute();
      for (let i = 0; i < 30; i++) {
        await insert(alice, i, new Date(Date.UTC(2025, 0, 1, i)).toISOString());
        await insert(bob, i, new Date(Date.UTC(2025, 0, 1, i === 10 ? 0 : i)).toISOString());
      }
      await numberByAuthor(db);

      /** Checks each of an author's events carries its numbers, counted again here. */
      const expectNumbered = async (authorId: number) => {
        const rows = await db.selectFrom('events').selectAll().where('author_id', '=', authorId).orderBy('id').execute();
        const counts = new Map<string, number>();
        const next = (k: string | null) => (k === null ? null : counts.set(k, (counts.get(k) ?? 0) + 1).get(k)!);
        for (const row of rows) {
          const expected = row.project_id === null ? [null, null, null] : [next('all'), next(row.action_key && `a:${row.action_key}`), next(row.target_key && `t:${row.target_key}`)];
          assert.deepEqual([row.author_seq, row.author_action_seq, row.author_target_seq], expected, `event ${row.id}`);
        }
        return rows.filter((r) => r.project_id !== null).length;
      };
      const marked = async (table: 'author_event_dates_unordered' | 'author_event_gaps') => (await db.selectFrom(table).select('author_id').orderBy('author_id').execute()).map((r) => r.author_id);
      assert.equal(await expectNumbered(alice), 30);
      assert.equal(await expectNumbered(bob), 30);
      assert.deepEqual(await marked('author_event_dates_unordered'), [bob]);

      // New events, numbered by the trigger; one dated before alice's last marks her.
      await insert(alice, 30, '2025-01-03T00:00:00.000Z');
      assert.equal(await expectNumbered(alice), 31);
      assert.deepEqual(await marked('author_event_dates_unordered'), [bob]);
      await insert(alice, 31, '2025-01-02T00:00:00.000Z');
      assert.equal(await expectNumbered(alice), 32);
      assert.deepEqual(await marked('author_event_dates_unordered'), [alice, bob]);

      // A deleted project takes half of each author's events: both are marked, and numbered again.
      assert.equal(await renumberAuthorEvents(db), 0);
      await db.deleteFrom('projects').where('id', '=', projects[0]).execute();
      assert.deepEqual(await marked('author_event_gaps'), [alice, bob]);
      assert.equal(await renumberAuthorEvents(db), 2);
      assert.deepEqual(await marked('author_event_gaps'), []);
      assert.equal(await expectNumbered(alice), 16);
      assert.equal(await expectNumbered(bob), 15);
      await insert(bob, 1, '2025-02-01T00:00:00.000Z');
      assert.equal(await expectNumbered(bob), 16);
    } finally {
      await db.destroy();
    }
  });
});
