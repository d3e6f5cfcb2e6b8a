import crypto from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { nowIso } from '../util/time.ts';

/** A stored file as read: its bytes as a stream, its length and SHA-256 (hex). */
export interface StoredFile {
  stream: Readable;
  size: number;
  digest: string;
}

/** What `put` wrote: the length and SHA-256 (hex) of the bytes it took. */
export interface PutResult {
  size: number;
  digest: string;
}

export interface PurgeOptions {
  /** Only keys that start with it (an area's own files: `exports/`). */
  prefix?: string;
  /** Only puts that never finished (a writer killed or failed halfway). */
  incompleteOnly?: boolean;
}

/**
 * Where every area keeps its files (export files; import archives and cache entries later),
 * readable by every instance of the installation: on PostgreSQL the database itself, on
 * SQLite the data directory. A file is named by its key (`exports/12.csv`), written and read
 * as a stream (never held whole in memory), and published whole or not at all: a reader, or
 * a process killed halfway, never sees half a file.
 */
export interface FileStore {
  /** `database` (PostgreSQL) or `directory` (SQLite: the data directory). */
  readonly kind: 'database' | 'directory';
  /**
   * Streams `source` into the file `key`, replacing the one there once it is whole. A source
   * that fails leaves the file as it was (nothing, or the one before). A put of the same key
   * that never finished (its process killed) is dropped first.
   */
  put(key: string, source: Readable): Promise<PutResult>;
  /** The file `key`, or null when there is none (or it was deleted meanwhile). */
  get(key: string): Promise<StoredFile | null>;
  /** Removes the file `key`; a file already gone is fine. */
  delete(key: string): Promise<void>;
  /** Removes the files put before `before` (by their put's start or end), and says how many. */
  purgeOlderThan(before: Date, opts?: PurgeOptions): Promise<number>;
  /** Whether the store answers: a readiness check. */
  check(): Promise<{ ok: boolean; detail: string }>;
}

/** Counts and hashes the bytes that pass through it. */
export function tally(): Transform & { result(): PutResult } {
  const hash = crypto.createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer | string, _enc, done) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      hash.update(buf);
      size += buf.length;
      done(null, buf);
    },
  });
  return Object.assign(tap, { result: () => ({ size, digest: hash.digest('hex') }) });
}

/**
 * What both stores share: the catalogue of files in `stored_files` (a row per put, published by
 * setting `complete` in one short transaction once the bytes are whole). Each store keeps the
 * bytes its way, by the row's id.
 */
export abstract class CataloguedStore implements FileStore {
  abstract readonly kind: 'database' | 'directory';
  constructor(protected readonly db: Db) {}

  /** Writes the bytes of the file `id` (whole, ready to read, once this resolves). */
  protected abstract writeBytes(id: number, source: Readable): Promise<PutResult>;
  /** The bytes of the file `id` of `size` bytes, or null when they are gone. */
  protected abstract readBytes(id: number, size: number): Promise<Readable | null>;
  /** Removes the bytes of files whose rows are deleted (nothing to do where they go with their rows). */
  protected abstract removeBytes(ids: number[]): Promise<void>;
  abstract check(): Promise<{ ok: boolean; detail: string }>;

  async put(key: string, source: Readable): Promise<PutResult> {
    await this.remove(this.db.selectFrom('stored_files').select('id').where('key', '=', key).where('complete', '=', 0));
    const { id } = await this.db.insertInto('stored_files').values({ key, created_at: nowIso() }).returning('id').executeTakeFirstOrThrow();
    let written: PutResult;
    let replaced: number[];
    try {
      written = await this.writeBytes(id, source);
      // Published in one short transaction: the file before (if any) goes as this one comes.
      replaced = await this.db.transaction().execute(async (trx) => {
        const before = await trx.deleteFrom('stored_files').where('key', '=', key).where('complete', '=', 1).returning('id').execute();
        await trx
          .updateTable('stored_files')
          .set({ complete: 1, size: written.size, digest: written.digest, created_at: nowIso() })
          .where('id', '=', id)
          .execute();
        return before.map((r) => r.id);
      });
    } catch (e) {
      source.destroy();
      await this.remove(this.db.selectFrom('stored_files').select('id').where('id', '=', id)).catch(() => undefined);
      throw e;
    }
    await this.removeBytes(replaced);
    return written;
  }

  async get(key: string): Promise<StoredFile | null> {
    const row = await this.db.selectFrom('stored_files').select(['id', 'size', 'digest']).where('key', '=', key).where('complete', '=', 1).executeTakeFirst();
    if (!row) return null;
    const size = Number(row.size);
    const stream = await this.readBytes(row.id, size);
    return stream && { stream, size, digest: row.digest };
  }

  async delete(key: string): Promise<void> {
    await this.remove(this.db.selectFrom('stored_files').select('id').where('key', '=', key));
  }

  async purgeOlderThan(before: Date, opts: PurgeOptions = {}): Promise<number> {
    let purged = 0;
    for (;;) {
      let q = this.db.selectFrom('stored_files').select('id').where('created_at', '<', before.toISOString());
      if (opts.prefix) q = q.where(sql<string>`substr(key, 1, ${opts.prefix.length})`, '=', opts.prefix);
      if (opts.incompleteOnly) q = q.where('complete', '=', 0);
      const n = await this.remove(q.orderBy('id').limit(200));
      purged += n;
      if (n < 200) return purged;
    }
  }

  /** Deletes the rows `ids` selects and their bytes; says how many. */
  private async remove(ids: { execute(): Promise<{ id: number }[]> }): Promise<number> {
    const found = (await ids.execute()).map((r) => r.id);
    if (!found.length) return 0;
    await this.db.deleteFrom('stored_files').where('id', 'in', found).execute();
    await this.removeBytes(found);
    return found.length;
  }
}
