import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { parse as parseConnectionString } from 'pg-connection-string';
import { SqliteChanges, TableChanges, WATCHED_TABLES, type ChangeClock } from './table-changes.ts';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Compilable, type CompiledQuery, type Migration, type PostgresPool, type PostgresPoolClient } from 'kysely';
import { fileURLToPath } from 'node:url';
import type { Database } from './schema.ts';
import { isPostgres } from './dialect.ts';

export type Db = Kysely<Database>;

/**
 * Every migration, in file-name order (NNN_name.ts in ./migrations): one history for both
 * engines. Read from the folder, so adding a migration is adding a file.
 */
const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
async function loadMigrations(): Promise<Record<string, Migration>> {
  const files = fs.readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{3}_[a-z0-9_]+\.ts$/.test(f)).sort();
  const entries = await Promise.all(files.map(async (f) => [f.replace(/\.ts$/, ''), (await import(`./migrations/${f}`)) as Migration] as const));
  return Object.fromEntries(entries);
}

// COUNT(*) and other int8 values arrive as strings from pg; our counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface DbOptions {
  databaseUrl?: string;
  /** SQLite file; ignored when databaseUrl is set. */
  sqliteFile?: string;
  poolSize?: number;
  onIdleError?: (err: Error) => void;
}

/**
 * Like libpq, a connection string without a user connects as the operating-system user.
 * Sessions run without JIT compilation: our queries are short reads and writes, and the
 * planner's cost of a read rule with many subqueries (an activity feed filtered by what each
 * event is about) crossed PostgreSQL's JIT threshold, which then spent 8 s compiling a query
 * that runs in milliseconds.
 */
export function pgConnection(url: string): pg.ClientConfig {
  const parsed = parseConnectionString(url) as pg.ClientConfig;
  const options = [parsed.options, '-c jit=off'].filter(Boolean).join(' ');
  return { ...parsed, options, user: parsed.user || process.env.PGUSER || os.userInfo().username };
}

const SQLITE_BUSY_TIMEOUT_MS = 5000;

export function openDb(opts: DbOptions): Db {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ ...pgConnection(opts.databaseUrl), max: opts.poolSize ?? 10 });
    // An idle connection that the server drops (restart, failover) must not crash the process:
    // the pool discards it and the next query opens a new one.
    pool.on('error', (err) => opts.onIdleError?.(err));
    const statements = new PreparedStatements();
    const changes = new TableChanges(pgConnection(opts.databaseUrl));
    changes.listen();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: statements.preparing(pool, changes) }) });
    schemaChanged.set(db, () => statements.forgetAll());
    tableChanges.set(db, changes);
    pools.set(db, pool);
    return db;
  }
  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const changes = new SqliteChanges(() => dataVersion.get() as number);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, changes) }) });
  tableChanges.set(db, changes);
  return db;
}

/**
 * Stands in for a value of a prepared query while it is built: `values.name`, or an element
 * (`values.trees[2]`, `values.custom[0][1]`: a stand-in's numeric properties stand in for
 * its elements). Compiled, each names the path to its value.
 */
class Placeholder {
  constructor(readonly path: readonly string[]) {}
}
const INDEX = /^\d+$/;
function standIn(path: readonly string[]): Placeholder {
  return new Proxy(new Placeholder(path), {
    get: (target, name, receiver) => (typeof name === 'string' && INDEX.test(name) ? standIn([...path, name]) : Reflect.get(target, name, receiver)),
  });
}

/** The parameters of a compiled query for the values of a call: a stand-in's value by its path, any other as compiled. */
function parameterReader(parameters: readonly unknown[]): (values: Record<string, unknown>) => unknown[] {
  const paths = parameters.map((p) => (p instanceof Placeholder ? [...p.path] : undefined));
  return (values) =>
    paths.map((path, i) => {
      if (!path) return parameters[i];
      let value: unknown = values[path[0]!];
      for (let k = 1; k < path.length; k++) value = (value as Record<string, unknown> | undefined)?.[path[k]!];
      return value;
    });
}

/**
 * A query built and compiled once per database, then run with the values of each call:
 * otherwise Kysely builds and compiles a query on every call, a large share of a small
 * request's time. `build` gets stand-ins for the values, so it must not depend on them (no
 * branching on a value, no list of varying length); what varies becomes another query.
 *
 * With `keep`, a read whose tables are all watched (db/table-changes.ts) is kept, by its
 * values, while none of its tables has changed: the next call with the same values answers
 * without a round trip on PostgreSQL, and without reading the rows again on SQLite (turning a
 * page of wide rows into JS values costs some 10 µs a row there, far more than checking the
 * data version). Its rows are frozen, as they are shared by every caller. Only for reads that
 * depend on nothing but their tables and values (no `now()`), and that show no mark of use
 * (see WATCHED_TABLES). `keep: 'if-watched'`: kept only when every table it reads is watched
 * (a list whose filters may read others), otherwise run each time.
 */
export function prepared<V extends Record<string, unknown>, O>(
  build: (db: Db, values: V) => Compilable<O>,
  opts: { keep?: boolean | 'if-watched' } = {},
): (db: Db, values: V) => Promise<O[]> {
  const compiled = new WeakMap<
    Db,
    { query: CompiledQuery<O>; parametersOf: (values: V) => unknown[]; tables: string[] | undefined; kept: Map<string, { rows: O[]; generation: number }>; keptRows: number }
  >();
  const standIns = new Proxy({}, { get: (_target, name) => standIn([String(name)]) }) as V;
  return async (db, values) => {
    let entry = compiled.get(db);
    if (!entry) {
      const query = build(db, standIns).compile();
      const tables = opts.keep === 'if-watched' ? keepableTables(query.sql) : opts.keep ? tablesOfKeptRead(query.sql) : undefined;
      entry = { query, parametersOf: parameterReader(query.parameters), tables, kept: new Map(), keptRows: 0 };
      compiled.set(db, entry);
    }
    const parameters = entry.parametersOf(values);
    const changes = entry.tables ? tableChanges.get(db) : undefined;
    if (!changes || !entry.tables) return (await db.executeQuery<O>({ ...entry.query, parameters })).rows;
    const key = JSON.stringify(parameters);
    const generation = changes.generationOf(entry.tables);
    const kept = entry.kept.get(key);
    if (kept && kept.generation === generation) return kept.rows;
    const rows = (await db.executeQuery<O>({ ...entry.query, parameters })).rows;
    if (generation !== undefined && changes.generationOf(entry.tables) === generation) keep(entry, key, rows, generation);
    return rows;
  };
}

/**
 * Keeps a read's rows (frozen) by its key, within MAX_KEPT_ROWS_PER_READ rows for each read
 * (an answer without rows counting as one), the oldest going first.
 */
function keep<O>(entry: { kept: Map<string, { rows: O[]; generation: number }>; keptRows: number }, key: string, rows: O[], generation: number): void {
  const weight = (r: O[]) => Math.max(1, r.length);
  const before = entry.kept.get(key);
  if (before) {
    entry.kept.delete(key);
    entry.keptRows -= weight(before.rows);
  }
  for (const [oldest, { rows: old }] of entry.kept) {
    if (entry.keptRows + weight(rows) <= MAX_KEPT_ROWS_PER_READ) break;
    entry.kept.delete(oldest);
    entry.keptRows -= weight(old);
  }
  for (const row of rows) Object.freeze(row);
  entry.kept.set(key, { rows: Object.freeze(rows) as O[], generation });
  entry.keptRows += weight(rows);
}
const MAX_KEPT_ROWS_PER_READ = 10_000;

/**
 * `prepared` for a statement run inside transactions (whose Kysely instance is new each time,
 * so `prepared`'s compilation by database would be redone every call): built and compiled once
 * per engine, then run on the database or transaction each call passes. Nothing is kept.
 */
export function preparedStatement<V extends Record<string, unknown>, O>(build: (db: Db, values: V) => Compilable<O>): (db: Db, values: V) => Promise<O[]> {
  const byEngine = new Map<boolean, { query: CompiledQuery<O>; parametersOf: (values: V) => unknown[] }>();
  const standIns = new Proxy({}, { get: (_target, name) => standIn([String(name)]) }) as V;
  return async (db, values) => {
    const engine = isPostgres(db);
    let entry = byEngine.get(engine);
    if (!entry) {
      const query = build(db, standIns).compile();
      byEngine.set(engine, (entry = { query, parametersOf: parameterReader(query.parameters) }));
    }
    return (await db.executeQuery<O>({ ...entry.query, parameters: entry.parametersOf(values) })).rows;
  };
}

/**
 * `prepared` for a query whose form varies: `shape` says which form (which filters, how many
 * values in a list), as plain data, and each form is built and compiled once. `build` may
 * branch on the shape, never on a value; an array's length belongs in the shape. At most
 * MAX_SHAPES forms are kept, the oldest going first.
 */
export function preparedByShape<S, V extends Record<string, unknown>, O>(
  build: (db: Db, values: V, shape: S) => Compilable<O>,
  opts: { keep?: boolean | 'if-watched' } = {},
): (db: Db, shape: S, values: V) => Promise<O[]> {
  const byShape = new Map<string, (db: Db, values: V) => Promise<O[]>>();
  return (db, shape, values) => {
    const key = JSON.stringify(shape);
    let query = byShape.get(key);
    if (!query) {
      query = prepared((db, v: V) => build(db, v, shape), opts);
      if (byShape.size >= MAX_SHAPES) byShape.delete(byShape.keys().next().value!);
      byShape.set(key, query);
    }
    return query(db, values);
  };
}
const MAX_SHAPES = 200;

/** The tables of a read that may be kept, or undefined when it reads a table that is not watched (or the clock). */
function keepableTables(text: string): string[] | undefined {
  try {
    return tablesOfKeptRead(text);
  } catch {
    return undefined;
  }
}

/** The tables a kept read reads (Kysely quotes every name), each of which must be watched. */
export function tablesOfKeptRead(text: string): string[] {
  if (!/^\s*select\b/i.test(text) || /\b(now|current_date|current_timestamp|random)\b/i.test(text)) {
    throw new Error(`Only a select that depends on nothing but its tables and values can be kept: ${text}`);
  }
  const tables = [...new Set([...text.matchAll(/\b(?:from|join)\s+"(\w+)"/gi)].map((m) => m[1]!))];
  const unwatched = tables.filter((t) => !WATCHED_TABLES.has(t));
  if (unwatched.length) throw new Error(`A kept read may read only watched tables (db/table-changes.ts), not ${unwatched.join(', ')}: ${text}`);
  return tables;
}

/**
 * Kysely prepares every query anew; better-sqlite3 statements are reusable (all calls are
 * synchronous), so the queries we run again and again are prepared once. Rows are read as
 * arrays and built into objects by a function compiled once per statement: better-sqlite3
 * builds each row object key by key in C++, which costs two to three times as much for the
 * wide rows of groups and projects. The rows are the same objects it would build: keys in
 * column order, and a name selected twice keeps its last value.
 */
function withStatementCache(sqlite: SQLite.Database, changes: ChangeClock, max = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      // A transaction takes the write lock when it begins. In WAL mode one that reads first and
      // writes later fails at once (SQLITE_BUSY, without waiting) when another process wrote
      // in between; one that begins with the lock waits its turn (busy_timeout). Within one
      // process nothing changes: its transactions already run one at a time.
      if (sql === 'begin') sql = 'begin immediate';
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = rowBuilding(sqlite.prepare(plannedOnce(sql)));
        // Every statement but a read is told to `changes` once it returned (or failed), as on PostgreSQL.
        if (!/^\s*select\b/i.test(sql)) stmt = telling(stmt, () => changes.statementDone(sqlite, sql));
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  } as unknown as SQLite.Database;
}

/**
 * SQLite's planner reads the value bound to a bare `LIMIT ?` or `OFFSET ?`, so binding one
 * marks the statement expired and every run parses and plans it again: 30–40 µs for a page of
 * a wide table, more than reading the page. As an expression (`(?) + 0`) the value is read
 * when the statement runs, and the statement is planned once. Kysely binds every page's limit
 * and offset; values are always bound, never in the text, so the pattern is only ever ours.
 */
export const plannedOnce = (sql: string) => sql.replace(/\b(limit|offset) \?(?=\s|\)|$)/gi, '$1 (?) + 0');

type Row = Record<string, unknown>;

/** The statement, calling `done` after each run of it (Kysely's driver calls `all` or `run`). */
function telling(stmt: SQLite.Statement, done: () => void): SQLite.Statement {
  const after =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return fn(...args);
      } finally {
        done();
      }
    };
  return {
    reader: stmt.reader,
    all: after((params: unknown[]) => stmt.all(params)),
    run: after((params: unknown[]) => stmt.run(params)),
    iterate: (params: unknown[]) => stmt.iterate(params),
  } as unknown as SQLite.Statement;
}

/** The statement as Kysely's driver uses it (reader, all, run, iterate), reading raw rows where it returns any. */
function rowBuilding(stmt: SQLite.Statement): SQLite.Statement {
  if (!stmt.reader) return stmt;
  let names = stmt.columns().map((c) => c.name);
  let builder = rowBuilder(names);
  stmt.raw(true);
  // SQLite re-prepares a statement whose tables changed (a migration adding a column): rebuild then.
  const build = (values: unknown[]) => {
    if (values.length !== names.length) {
      names = stmt.columns().map((c) => c.name);
      builder = rowBuilder(names);
    }
    return builder(values);
  };
  return {
    reader: true,
    all: (params: unknown[]) => (stmt.all(params) as unknown[][]).map(build),
    run: (params: unknown[]) => stmt.run(params),
    *iterate(params: unknown[]) {
      for (const values of stmt.iterate(params) as IterableIterator<unknown[]>) yield build(values);
    },
  } as unknown as SQLite.Statement;
}

/** A function returning `{ [name]: values[i] }` for the columns, as an object literal (one hidden class per statement). */
export function rowBuilder(names: string[]): (values: unknown[]) => Row {
  const last = new Map<string, number>();
  names.forEach((name, i) => last.set(name, i));
  const fields = [...last].map(([name, i]) => `${JSON.stringify(name)}: v[${i}]`);
  return new Function('v', `return { ${fields.join(', ')} };`) as (values: unknown[]) => Row;
}

/**
 * PostgreSQL parses and plans every unnamed statement anew, which costs more than running the
 * small queries of a request. The queries Kysely builds are few distinct texts run again and
 * again, so each connection prepares them under a name once (pg sends Parse for a name only
 * the first time) and later runs only bind and execute. Bounded: statements with many
 * parameters (IN lists of every length) run unnamed, and a connection names at most
 * MAX_PER_CONNECTION texts. Transaction control and DDL always run unnamed.
 */
class PreparedStatements {
  static readonly MAX_PER_CONNECTION = 256;
  static readonly MAX_PARAMETERS = 16;
  static readonly PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
  /** Raised when the schema changes: names of an older schema are not reused (a prepared `select *` keeps its columns). */
  #generation = 0;
  readonly #byClient = new WeakMap<pg.PoolClient, { generation: number; names: Map<string, string>; wrapped: PostgresPoolClient }>();

  forgetAll(): void {
    this.#generation++;
  }

  /** The pool as Kysely uses it; every statement that returns is told to `changes`, which closes with the pool. */
  preparing(pool: pg.Pool, changes: TableChanges): PostgresPool {
    return {
      connect: async () => this.#wrap(await pool.connect(), changes),
      end: async () => {
        await changes.close();
        await pool.end();
      },
    };
  }

  #wrap(client: pg.PoolClient, changes: TableChanges): PostgresPoolClient {
    let state = this.#byClient.get(client);
    if (!state) {
      const names = new Map<string, string>();
      const done = (text: string) => () => changes.statementDone(client, text);
      // Kysely passes SQL text and parameters (a cursor only for streaming, which Gatehouse does not use).
      const query = (sql: string | pg.Submittable, parameters: readonly unknown[]) => {
        if (typeof sql !== 'string') return client.query(sql);
        const result = client.query({ ...this.#config(client, sql, parameters), rowMode: 'array' }).then(asObjects);
        // A failed statement counts too: its transaction may have written before it.
        void result.then(done(sql), done(sql));
        return result;
      };
      const wrapped = { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
      state = { generation: this.#generation, names, wrapped };
      this.#byClient.set(client, state);
    }
    return state.wrapped;
  }

  #config(client: pg.PoolClient, text: string, parameters: readonly unknown[]): pg.QueryConfig {
    const values = [...parameters];
    if (parameters.length > PreparedStatements.MAX_PARAMETERS || !PreparedStatements.PREPARABLE.test(text)) return { text, values };
    const state = this.#byClient.get(client)!;
    if (state.generation !== this.#generation) {
      state.generation = this.#generation;
      state.names.clear();
    }
    let name = state.names.get(text);
    if (name === undefined) {
      if (state.names.size >= PreparedStatements.MAX_PER_CONNECTION) return { text, values };
      // Unique on the connection: a name is never given to another text, even after a schema change.
      name = `gh_${this.#generation}_${state.names.size}`;
      state.names.set(text, name);
    }
    return { name, text, values };
  }
}

/**
 * pg builds each row by spreading a null-prototype object of every column name, then setting
 * them one by one (a dictionary-mode object, slow for the wide rows of groups and projects);
 * rows are read as arrays and built by the same compiled object literal as SQLite's (rowBuilder:
 * keys in column order, a name selected twice keeping its last value, as pg's own rows).
 */
const buildersByColumns = new Map<string, (values: unknown[]) => Row>();
function asObjects<R extends pg.QueryResult | pg.QueryResult[]>(result: R): R {
  for (const r of Array.isArray(result) ? result : [result]) {
    if (!r.fields?.length) continue;
    const names = r.fields.map((f: pg.FieldDef) => f.name);
    const key = names.join('\u0000');
    let build = buildersByColumns.get(key);
    if (!build) {
      build = rowBuilder(names);
      if (buildersByColumns.size >= 1000) buildersByColumns.clear();
      buildersByColumns.set(key, build);
    }
    r.rows = (r.rows as unknown[][]).map(build);
  }
  return result;
}

/** What this process knows of changes to the watched tables (db/table-changes.ts), by which it keeps reads. */
const tableChanges = new WeakMap<Db, ChangeClock>();
export const tableChangesOf = (db: Db): ChangeClock | undefined => tableChanges.get(db);

/** The connection pool of a PostgreSQL database (SQLite has none: one connection in the process). */
const pools = new WeakMap<Db, pg.Pool>();
export function poolUse(db: Db): { total: number; idle: number; waiting: number; max: number } | undefined {
  const pool = pools.get(db);
  return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
}

/** What openDb registered to run once migrations changed the schema. */
const schemaChanged = new WeakMap<Db, () => void>();

/** The advisory lock PostgreSQL holds while an instance migrates (a key of our own, in this database only). */
const MIGRATION_LOCK_KEY = 0x6761_7465; // "gate"
/** How long a start waits for another process's migrations on SQLite (then SQLITE_BUSY). */
const SQLITE_MIGRATION_WAIT_MS = 120_000;

/**
 * Runs the pending migrations, once however many instances start at once on a new database.
 * Kysely's own lock does not cover creating its tables (on PostgreSQL two concurrent
 * `create table if not exists` collide on pg_type), nor, on SQLite, reading which migrations
 * ran. So the whole run holds a lock: on PostgreSQL an advisory lock on a connection of its
 * own (a second instance waits, then finds nothing to do); on SQLite the database's write lock
 * (BEGIN IMMEDIATE), the migrations running in that one transaction.
 */
export async function migrate(db: Db): Promise<void> {
  const run = async (on: Db) => {
    const migrator = new Migrator({ db: on, provider: { getMigrations: loadMigrations } });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  };
  try {
    if (isPostgres(db)) {
      await db.connection().execute(async (lock) => {
        await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(lock);
        try {
          // On the lock's own connection: a pool of one (the test template's) has no other.
          await run(lock);
        } finally {
          await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(lock);
        }
      });
    } else {
      await db.connection().execute(async (conn) => {
        await sql.raw(`pragma busy_timeout = ${SQLITE_MIGRATION_WAIT_MS}`).execute(conn);
        try {
          await sql`begin immediate`.execute(conn);
          try {
            await run(conn);
            await sql`commit`.execute(conn);
          } catch (e) {
            await sql`rollback`.execute(conn);
            throw e;
          }
        } finally {
          await sql.raw(`pragma busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`).execute(conn);
        }
      });
    }
  } finally {
    schemaChanged.get(db)?.();
  }
}
