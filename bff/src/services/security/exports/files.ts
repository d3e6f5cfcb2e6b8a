import fs from 'node:fs';
import { PassThrough, Readable, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportRow } from '../../../db/schema.ts';
import type { FileStore, StoredFile } from '../../../files/index.ts';

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

/**
 * A writer's content as one byte stream (its source through its streams), for the file store's
 * `put`: a failure anywhere on the way fails the stream, and a reader that stops stops them all.
 */
export function contentStream(content: Content): Readable {
  if (!content.through?.length) return content.source;
  const out = new PassThrough();
  pipeline([content.source, ...content.through, out]).catch((e: Error) => out.destroy(e));
  return out;
}

/** An export's file in the file store: `exports/<id>.<extension>`. */
export const exportFileKey = (id: number, extension: string) => `exports/${id}${extension}`;

/**
 * An export's file: from the file store, or, for an export written before there was one
 * (migration 039), from the path it was written to while that file is still there (on the
 * machine that wrote it); a file that is gone is null (the export then answers 404).
 */
export async function openExportFile(files: FileStore, row: Pick<ExportRow, 'file_key' | 'file_path'>): Promise<StoredFile | null> {
  if (row.file_key) return files.get(row.file_key);
  if (!row.file_path) return null;
  let file: fs.promises.FileHandle;
  try {
    file = await fs.promises.open(row.file_path);
  } catch {
    return null;
  }
  const { size } = await file.stat();
  return { stream: file.createReadStream(), size, digest: '' };
}

/** Removes an export's file; a file already gone is fine (the purge may run twice). */
export async function removeExportFile(files: FileStore, row: Pick<ExportRow, 'file_key' | 'file_path'>): Promise<void> {
  if (row.file_key) await files.delete(row.file_key);
  if (row.file_path) await fs.promises.rm(row.file_path, { force: true });
}
