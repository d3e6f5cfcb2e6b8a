import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../../config.ts';

/** Where finished export files live: one file per export, named by its id. */
export const exportsDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'exports');

/** What a writer produces: a source of chunks, and the streams that turn it into the file's bytes. */
export interface Content {
  source: Readable;
  through?: Duplex[];
}

/**
 * The bytes of a file made of text chunks (a writer yields one chunk per page of rows), as a
 * byte stream with backpressure: a chunk is asked for only once the file has taken the one
 * before, so a page or two is held however many there are.
 */
export const textChunks = (chunks: AsyncIterable<string>): Readable => Readable.from(chunks, { objectMode: false, highWaterMark: 64 * 1024 });

export interface WrittenFile {
  path: string;
  size: number;
  digest: string;
}

/**
 * Streams `content` into `finalPath` through a temporary file renamed at the end, so a reader
 * (or a server killed halfway) never sees half a file; the size and SHA-256 are taken on the way.
 */
export async function writeAtomically(finalPath: string, content: Content): Promise<WrittenFile> {
  await fs.promises.mkdir(path.dirname(finalPath), { recursive: true });
  const tmp = `${finalPath}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
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
  try {
    await pipeline([content.source, ...(content.through ?? []), tap, fs.createWriteStream(tmp)]);
    await fs.promises.rename(tmp, finalPath);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
  return { path: finalPath, size, digest: hash.digest('hex') };
}

/** Removes an export's file; a file already gone is fine (the purge may run twice). */
export const removeFile = (p: string | null) => (p ? fs.promises.rm(p, { force: true }) : Promise.resolve());
