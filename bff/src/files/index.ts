import path from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { isPostgres } from '../db/dialect.ts';
import { DatabaseStore } from './database.ts';
import { DirectoryStore } from './directory.ts';
import type { FileStore } from './store.ts';

export type { FileStore, StoredFile, PutResult, PurgeOptions } from './store.ts';

/** Where the directory store keeps its files, under the data directory. */
export const filesDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'files');

/**
 * The installation's file store, chosen by its database: on PostgreSQL (several instances,
 * possibly on several machines) the database itself, on SQLite (one machine) the data directory.
 * Opened once at start and handed to whatever stores files.
 */
export function openFileStore(db: Db, config: Pick<Config, 'dataDir'>): FileStore {
  return isPostgres(db) ? new DatabaseStore(db) : new DirectoryStore(db, filesDir(config));
}

/** Whether the file store answers, for a readiness check: `{ ok, detail }`. */
export const checkFileStore = (files: FileStore) => files.check();
