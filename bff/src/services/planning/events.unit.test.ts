import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrate, openDb, type Db } from '../../db/index.ts';
import { up as numberByFilter } from '../../db/migrations/033_event_filter_numbers.ts';
import { ACTION_NAMES, TARGET_TYPES } from './events.ts';

/** The database as it was before migration 033: its columns, table, trigger and indexes gone (and 034's and 035's indexes on its columns). */
async function before033(db: Db): Promise<void> {
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
