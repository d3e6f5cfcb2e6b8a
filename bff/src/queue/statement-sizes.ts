/**
 * A statement whose text grows with a list (an IN list, a multi-row VALUES) is a new
 * statement for each length: SQLite prepares it again (prepared statements are cached by
 * text), for more than it costs to run. Batches of any size are therefore sent in a few
 * shapes: IN lists padded to a power of two, rows in power-of-two chunks (on SQLite; on
 * PostgreSQL, which parses every statement anyway, a round trip costs more than a new text).
 */
import type { Db } from '../db/index.ts';
import { isPostgres } from '../db/dialect.ts';

/** The list padded to a power-of-two length by repeating its last element (for IN lists, where a repeat changes nothing). */
export function padded<T>(list: T[]): T[] {
  if (list.length < 2) return list;
  const size = 2 ** Math.ceil(Math.log2(list.length));
  return list.length === size ? list : [...list, ...Array<T>(size - list.length).fill(list[list.length - 1])];
}

/** The list cut into chunks of power-of-two lengths, at most `max` (13 rows: 8, 4, 1). */
export function powerOfTwoChunks<T>(list: T[], max = 64): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; ) {
    const size = Math.min(max, 2 ** Math.floor(Math.log2(list.length - i)));
    out.push(list.slice(i, i + size));
    i += size;
  }
  return out;
}

/** Rows for multi-row INSERTs: power-of-two chunks on SQLite, as few statements as possible on PostgreSQL. */
export function rowChunks<T>(db: Db, rows: T[]): T[][] {
  if (!isPostgres(db)) return powerOfTwoChunks(rows);
  return Array.from({ length: Math.ceil(rows.length / 1000) }, (_, i) => rows.slice(i * 1000, (i + 1) * 1000));
}
