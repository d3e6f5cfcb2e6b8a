import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { parse as parseConnectionString } from 'pg-connection-string';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration } from 'kysely';
import type { Database } from './schema.ts';
import * as m001 from './migrations/001_core.ts';
import * as m002 from './migrations/002_resource_tokens.ts';
import * as m003 from './migrations/003_push_rules.ts';
import * as m004 from './migrations/004_deploy_feed_settings.ts';
import * as m005 from './migrations/005_scim.ts';
import * as m006 from './migrations/006_hooks_jobs.ts';
import * as m007 from './migrations/007_delivery_indexes.ts';

export type Db = Kysely<Database>;

/** Every migration, in order; one history for both engines. */
const migrations: Record<string, Migration> = {
  '001_core': m001,
  '002_resource_tokens': m002,
  '003_push_rules': m003,
  '004_deploy_feed_settings': m004,
  '005_scim': m005,
  '006_hooks_jobs': m006,
  '007_delivery_indexes': m007,
};

// COUNT(*) and other int8 values arrive as strings from pg; our counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface DbOptions {
  databaseUrl?: string;
  /** SQLite file; ignored when databaseUrl is set. */
  sqliteFile?: string;
  poolSize?: number;
  onIdleError?: (err: Error) => void;
}

/** Like libpq, a connection string without a user connects as the operating-system user. */
export function pgConnection(url: string): pg.ClientConfig {
  const parsed = parseConnectionString(url) as pg.ClientConfig;
  return { ...parsed, user: parsed.user || process.env.PGUSER || os.userInfo().username };
}

export function openDb(opts: DbOptions): Db {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ ...pgConnection(opts.databaseUrl), max: opts.poolSize ?? 10 });
    // An idle connection that the server drops (restart, failover) must not crash the process:
    // the pool discards it and the next query opens a new one.
    pool.on('error', (err) => opts.onIdleError?.(err));
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

/**
 * Kysely prepares every query anew; better-sqlite3 statements are reusable (all calls are
 * synchronous), so the queries we run again and again are prepared once.
 */
function withStatementCache(sqlite: SQLite.Database, max = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  } as unknown as SQLite.Database;
}

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
