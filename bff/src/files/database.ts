import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CataloguedStore, tally, type PutResult } from './store.ts';
import { errorCodeOf } from '../util/errors.ts';

/** The bytes of one row of `stored_file_chunks`: few enough round trips, little held at once. */
export const CHUNK_BYTES = 512 * 1024;

/**
 * The store on PostgreSQL: a file's bytes are rows of `stored_file_chunks` of CHUNK_BYTES
 * each, in the database every instance shares. Written as they come (one insert per chunk, a
 * chunk held at a time), read one query per chunk as the reader asks for more.
 */
export class DatabaseStore extends CataloguedStore {
  readonly kind = 'database' as const;

  protected async writeBytes(id: number, source: Readable): Promise<PutResult> {
    const db = this.db;
    const tap = tally();
    let seq = 0;
    let held: Buffer[] = [];
    let heldBytes = 0;
    const insert = (data: Buffer) => db.insertInto('stored_file_chunks').values({ file_id: id, seq: seq++, data }).execute();
    // Whole chunks while a chunk's worth is held; the rest too at the end.
    const flush = async (all: boolean) => {
      while (heldBytes >= CHUNK_BYTES || (all && heldBytes > 0)) {
        const joined = held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes);
        const data = joined.subarray(0, CHUNK_BYTES);
        const rest = joined.subarray(data.length);
        held = rest.length ? [Buffer.from(rest)] : [];
        heldBytes = rest.length;
        await insert(data);
      }
    };
    const sink = new Writable({
      highWaterMark: CHUNK_BYTES,
      write(chunk: Buffer, _enc, done) {
        held.push(chunk);
        heldBytes += chunk.length;
        flush(false).then(() => done(), done);
      },
      final(done) {
        flush(true).then(() => done(), done);
      },
    });
    await pipeline(source, tap, sink);
    return tap.result();
  }

  protected async readBytes(id: number, size: number): Promise<Readable | null> {
    const db = this.db;
    let seq = 0;
    let sent = 0;
    return new Readable({
      highWaterMark: CHUNK_BYTES,
      read() {
        if (sent >= size) return void this.push(null);
        db.selectFrom('stored_file_chunks')
          .select('data')
          .where('file_id', '=', id)
          .where('seq', '=', seq++)
          .executeTakeFirst()
          .then(
            (row) => {
              // Deleted while it was read: a short file is an error, never a whole-looking one.
              if (!row) return void this.destroy(new Error(`stored file ${id}: chunk ${seq - 1} is missing (${sent} of ${size} bytes read)`));
              sent += row.data.length;
              this.push(row.data);
              if (sent >= size) this.push(null);
            },
            (e: Error) => this.destroy(e),
          );
      },
    });
  }

  protected async removeBytes(): Promise<void> {
    // The chunks go with their file's row (ON DELETE CASCADE).
  }

  async check(): Promise<{ ok: boolean; detail: string }> {
    try {
      await this.db.selectFrom('stored_files').select('id').limit(1).execute();
      return { ok: true, detail: 'file store: the database (PostgreSQL)' };
    } catch (e) {
      const code = errorCodeOf(e);
      return { ok: false, detail: `file store: the database does not answer${code ? ` (${code})` : ''}` };
    }
  }
}
