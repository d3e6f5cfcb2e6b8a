import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { openDb, type Db } from './index.ts';
import { MAX_COUNT, offsetPage, pageRequest, preparedOffsetPage } from './pagination.ts';

interface T {
  t: { id: number; kind: string };
}

/** A table of `n` rows (ids 1…n), the even ones of kind "even". */
async function tableOf(n: number): Promise<Db> {
  const db = openDb({ sqliteFile: ':memory:' });
  await sql`create table t (id integer primary key, kind text not null)`.execute(db);
  await sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${n}) insert into t (id, kind) select i, case when i % 2 = 0 then 'even' else 'odd' end from s`.execute(db);
  return db;
}
const rows = (db: Db) => (db as unknown as Kysely<T>).selectFrom('t').selectAll();

describe('offset pages', () => {
  it('count a list of up to MAX_COUNT rows exactly, and slice it', async () => {
    const db = await tableOf(MAX_COUNT);
    const page = await offsetPage(db, rows(db).orderBy('id', 'desc'), pageRequest({ page: 2, per_page: 3 }));
    assert.equal(page.total, MAX_COUNT);
    assert.deepEqual(page.items.map((r) => r.id), [MAX_COUNT - 3, MAX_COUNT - 4, MAX_COUNT - 5]);
    const even = await offsetPage(db, rows(db).where('kind', '=', 'even').orderBy('id'), pageRequest({ per_page: 2 }));
    assert.equal(even.total, MAX_COUNT / 2);
    await db.destroy();
  });

  it('leave a longer list uncounted, and say whether a next page exists by reading one row more', async () => {
    const db = await tableOf(MAX_COUNT + 1);
    const first = await offsetPage(db, rows(db).orderBy('id'), pageRequest({ per_page: 100 }));
    assert.equal(first.total, undefined);
    assert.equal(first.hasNext, true);
    assert.deepEqual([first.items.length, first.items[0].id, first.items[99].id], [100, 1, 100]);
    // The last page (10,001 = 100 × 100 + 1): one row, no next page.
    const last = await offsetPage(db, rows(db).orderBy('id'), pageRequest({ page: 101, per_page: 100 }));
    assert.deepEqual([last.items.map((r) => r.id), last.hasNext], [[MAX_COUNT + 1], false]);
    const before = await offsetPage(db, rows(db).orderBy('id'), pageRequest({ page: 100, per_page: 100 }));
    assert.deepEqual([before.items.length, before.hasNext], [100, true]);
    await db.destroy();
  });

  it('do the same for lists built by shape, with the shape’s own filter', async () => {
    const list = preparedOffsetPage((db, v: { kind: string }, shape: { desc: boolean }) =>
      rows(db)
        .where('kind', '=', v.kind)
        .orderBy('id', shape.desc ? 'desc' : 'asc'),
    );
    const db = await tableOf(2 * MAX_COUNT + 2);
    const even = await list(db, { desc: true }, { kind: 'even' }, pageRequest({ per_page: 2 }));
    assert.deepEqual([even.total, even.hasNext, even.items.map((r) => r.id)], [undefined, true, [2 * MAX_COUNT + 2, 2 * MAX_COUNT]]);
    const none = await list(db, { desc: false }, { kind: 'none' }, pageRequest({}));
    assert.deepEqual([none.total, none.items], [0, []]);
    await db.destroy();
  });
});
