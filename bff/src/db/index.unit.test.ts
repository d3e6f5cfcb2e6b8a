import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { openDb, plannedOnce, prepared, preparedByShape, rowBuilder, tableChangesOf, tablesOfKeptRead } from './index.ts';

describe('SQLite rows built from raw arrays', () => {
  it('are the objects better-sqlite3 builds: keys in column order, a repeated name keeping its last value', () => {
    const plain = new SQLite(':memory:');
    const query = `select 1 as a, 'x' as b, null as c, 2 as a, 3 as "__proto__"`;
    const expected = plain.prepare(query).get() as Record<string, unknown>;
    const built = rowBuilder(['a', 'b', 'c', 'a', '__proto__'])([1, 'x', null, 2, 3]);
    assert.deepEqual(Object.entries(built), Object.entries(expected));
    assert.equal(Object.getPrototypeOf(built), Object.prototype);
    plain.close();
  });

  it('come back from queries through openDb, with writes and RETURNING unchanged', async () => {
    const db = openDb({ sqliteFile: ':memory:' });
    await sql`create table t (id integer primary key, name text, flag integer)`.execute(db);
    const inserted = await sql<{ id: number; name: string }>`insert into t (name, flag) values (${'one'}, ${1}) returning id, name`.execute(db);
    assert.deepEqual(inserted.rows, [{ id: 1, name: 'one' }]);
    await sql`insert into t (name, flag) values (${'two'}, ${0})`.execute(db);
    const rows = await sql<Record<string, unknown>>`select t.*, t.name as name from t order by id`.execute(db);
    assert.deepEqual(rows.rows, [
      { id: 1, name: 'one', flag: 1 },
      { id: 2, name: 'two', flag: 0 },
    ]);
    await db.destroy();
  });
});

describe('prepared()', () => {
  it('runs one compiled query with the values of each call, on each database', async () => {
    const named = prepared((db, v: { name: string; flag: number }) =>
      (db as unknown as Kysely<{ t: { id: number; name: string; flag: number } }>).selectFrom('t').select('id').where('name', '=', v.name).where('flag', '=', v.flag),
    );
    for (const rowsOf of [['a', 'b'], ['b', 'c']]) {
      const db = openDb({ sqliteFile: ':memory:' });
      await sql`create table t (id integer primary key, name text, flag integer)`.execute(db);
      for (const name of rowsOf) await sql`insert into t (name, flag) values (${name}, ${1})`.execute(db);
      assert.deepEqual(await named(db, { name: 'b', flag: 1 }), [{ id: rowsOf.indexOf('b') + 1 }]);
      assert.deepEqual(await named(db, { name: rowsOf[0], flag: 1 }), [{ id: 1 }]);
      assert.deepEqual(await named(db, { name: rowsOf[0], flag: 0 }), []);
      await db.destroy();
    }
  });
});

describe('preparedByShape()', () => {
  type T = Kysely<{ t: { id: number; name: string; tags: string } }>;
  it('compiles each form once, and binds each call its values, elements of lists and of lists of pairs included', async () => {
    let builds = 0;
    const find = preparedByShape((db, v: { names: string[]; pairs: [string, string][] }, shape: { names: number; pairs: number }) => {
      builds++;
      let q = (db as unknown as T).selectFrom('t').select('id');
      if (shape.names) q = q.where('name', 'in', Array.from({ length: shape.names }, (_, i) => v.names[i]!));
      for (let i = 0; i < shape.pairs; i++) q = q.where((eb) => eb.or([eb('name', '=', v.pairs[i]![0]), eb('tags', '=', v.pairs[i]![1])]));
      return q.orderBy('id');
    });
    const db = openDb({ sqliteFile: ':memory:' });
    await sql`create table t (id integer primary key, name text, tags text)`.execute(db);
    for (const [name, tags] of [['a', 'x'], ['b', 'y'], ['c', 'z']]) await sql`insert into t (name, tags) values (${name}, ${tags})`.execute(db);
    const ids = async (names: string[], pairs: [string, string][]) => (await find(db, { names: names.length, pairs: pairs.length }, { names, pairs })).map((r) => r.id);
    assert.deepEqual(await ids(['a', 'c'], []), [1, 3]);
    assert.deepEqual(await ids(['b', 'c'], []), [2, 3]);
    assert.deepEqual(await ids(['b'], []), [2]);
    assert.deepEqual(await ids(['a', 'b', 'c'], [['a', 'z']]), [1, 3]);
    assert.deepEqual(await ids(['a', 'b', 'c'], [['b', 'q']]), [2]);
    assert.deepEqual(await ids([], [['c', 'x'], ['a', 'x']]), [1]);
    assert.equal(builds, 4, 'one build for each of the four forms');
    await db.destroy();
  });
});

describe('SQLite statements with a bound LIMIT or OFFSET', () => {
  it('take them as expressions, so that binding a page does not make SQLite plan the statement again', () => {
    assert.equal(
      plannedOnce('select "id" from "t" where "id" in (select "id" from "u" limit ?) order by "id" limit ? offset ?'),
      'select "id" from "t" where "id" in (select "id" from "u" limit (?) + 0) order by "id" limit (?) + 0 offset (?) + 0',
    );
    assert.equal(plannedOnce('select 1 limit 1'), 'select 1 limit 1');
  });

  it('return the same pages as before, a negative limit still meaning no limit', async () => {
    const db = openDb({ sqliteFile: ':memory:' }) as unknown as Kysely<{ t: { id: number } }>;
    await sql`create table t (id integer primary key)`.execute(db);
    for (let i = 1; i <= 7; i++) await sql`insert into t (id) values (${i})`.execute(db);
    const page = (limit: number, offset: number) => db.selectFrom('t').select('id').orderBy('id').limit(limit).offset(offset).execute();
    assert.deepEqual((await page(3, 0)).map((r) => r.id), [1, 2, 3]);
    assert.deepEqual((await page(3, 6)).map((r) => r.id), [7]);
    assert.deepEqual((await page(-1, 5)).map((r) => r.id), [6, 7]);
    await db.destroy();
  });
});

describe('kept reads', () => {
  it('name the tables they read, and refuse a table whose changes are not heard, a write, or a read of the clock', () => {
    const text =
      'select "groups".*, (select max("m"."access_level") from "members" as "m" where "m"."source_id" = "groups"."id") as "level" ' +
      'from "groups" inner join "projects" on "projects"."namespace_id" = "groups"."id" where "groups"."id" = $1';
    assert.deepEqual(tablesOfKeptRead(text).sort(), ['groups', 'members', 'projects']);
    assert.throws(() => tablesOfKeptRead('select * from "groups" inner join "web_hooks" on "web_hooks"."group_id" = "groups"."id"'), /not web_hooks/);
    assert.throws(() => tablesOfKeptRead('select * from "projects" where "created_at" > now()'), /nothing but its tables and values/);
    assert.throws(() => tablesOfKeptRead('update "groups" set "name" = $1'), /nothing but its tables and values/);
  });

  it('are kept on SQLite too, and read again after a write of this process, of another connection, or a cascade', async () => {
    type T = Kysely<{ groups: { id: number; name: string }; projects: { id: number; group_id: number; name: string }; notes: { id: number } }>;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kept-sqlite-'));
    const file = path.join(dir, 'kept.sqlite3');
    const db = openDb({ sqliteFile: file });
    const other = openDb({ sqliteFile: file });
    try {
      await sql`create table groups (id integer primary key, name text)`.execute(db);
      await sql`create table projects (id integer primary key, group_id integer references groups (id) on delete cascade, name text)`.execute(db);
      await sql`create table notes (id integer primary key)`.execute(db);
      await sql`insert into groups values (1, 'one')`.execute(db);
      await sql`insert into projects values (1, 1, 'p')`.execute(db);
      const byId = prepared((db, v: { id: number }) => (db as unknown as T).selectFrom('groups').selectAll().where('id', '=', v.id), { keep: true });
      const projectsOf = prepared((db, v: { id: number }) => (db as unknown as T).selectFrom('projects').selectAll().where('group_id', '=', v.id), { keep: true });
      const first = await byId(db, { id: 1 });
      assert.equal(first[0]?.name, 'one');
      assert.equal(await byId(db, { id: 1 }), first, 'kept: the same rows again');
      assert.equal(Object.isFrozen(first[0]), true);
      // A write of another table that is not watched keeps it.
      await sql`insert into notes values (1)`.execute(db);
      assert.equal(await byId(db, { id: 1 }), first);
      // This process's own write.
      await sql`update groups set name = 'renamed' where id = 1`.execute(db);
      assert.equal((await byId(db, { id: 1 }))[0]?.name, 'renamed');
      // Another connection's (another process on the same file): its commit changes the data
      // version, read again by the next request, or in the next turn of the event loop.
      await sql`update groups set name = 'by another' where id = 1`.execute(other);
      tableChangesOf(db)!.requestStarted();
      assert.equal((await byId(db, { id: 1 }))[0]?.name, 'by another');
      await sql`update groups set name = 'by another again' where id = 1`.execute(other);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal((await byId(db, { id: 1 }))[0]?.name, 'by another again');
      // A delete that cascades into a table it does not name.
      assert.equal((await projectsOf(db, { id: 1 })).length, 1);
      await sql`delete from groups where id = 1`.execute(db);
      assert.equal((await projectsOf(db, { id: 1 })).length, 0);
    } finally {
      await db.destroy();
      await other.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
