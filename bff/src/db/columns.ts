import { toColumns } from '../util/rows.ts';

/** A validated input value as stored (see db/schema.ts): booleans as 0/1, lists and hashes as JSON text. */
type Column<V> = V extends undefined ? undefined : V extends boolean ? number : V extends string | number | null ? V : string;
export type Columns<T> = { [K in keyof T]: Column<T[K]> };

/**
 * Validated input turned into the columns of `Table`, typed: a key of the input that is not a
 * column of the table fails the type check (not a request at run time), and the values come out
 * with the types the table declares.
 */
export function columnsOf<Table>() {
  return <T extends Record<string, unknown>>(input: T & { [K in Exclude<keyof T, keyof Table>]: never }): Columns<T> => toColumns(input) as Columns<T>;
}
