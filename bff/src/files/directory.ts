import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db/index.ts';
import { CataloguedStore, tally, type PutResult } from './store.ts';
import { errorCodeOf } from '../util/errors.ts';

/**
 * The store on SQLite (one machine): a file's bytes are a file of the data directory named by
 * its row's id, written to `<id>.tmp` and renamed once whole; the catalogue is in the database.
 */
export class DirectoryStore extends CataloguedStore {
  readonly kind = 'directory' as const;
  constructor(
    db: Db,
    readonly dir: string,
  ) {
    super(db);
  }

  private pathOf = (id: number) => path.join(this.dir, String(id));

  protected async writeBytes(id: number, source: Readable): Promise<PutResult> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    const tmp = `${this.pathOf(id)}.tmp`;
    const tap = tally();
    try {
      await pipeline(source, tap, fs.createWriteStream(tmp));
      await fs.promises.rename(tmp, this.pathOf(id));
    } catch (e) {
      await fs.promises.rm(tmp, { force: true });
      throw e;
    }
    return tap.result();
  }

  protected async readBytes(id: number): Promise<Readable | null> {
    let file: fs.promises.FileHandle;
    try {
      file = await fs.promises.open(this.pathOf(id));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    return file.createReadStream();
  }

  protected async removeBytes(ids: number[]): Promise<void> {
    await Promise.all(ids.flatMap((id) => [this.pathOf(id), `${this.pathOf(id)}.tmp`].map((p) => fs.promises.rm(p, { force: true }))));
  }

  async check(): Promise<{ ok: boolean; detail: string }> {
    try {
      await fs.promises.mkdir(this.dir, { recursive: true });
      await fs.promises.access(this.dir, fs.constants.R_OK | fs.constants.W_OK);
      return { ok: true, detail: `file store: the directory ${this.dir}` };
    } catch (e) {
      const code = errorCodeOf(e);
      return { ok: false, detail: `file store: the directory ${this.dir} cannot be written${code ? ` (${code})` : ''}` };
    }
  }
}
