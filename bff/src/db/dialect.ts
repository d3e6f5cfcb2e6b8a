import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Whether the column `id` holds one of the IDs in the traversal path `traversal` ('/1/7/42/':
 * a group and its ancestors), tested where the row is read, with an index lookup per ID.
 * Neither engine splits a string into a set the same way: PostgreSQL reads it as an array,
 * SQLite as a JSON array.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function inTraversal(db: Kysely<any>, id: string, traversal: string): RawBuilder<boolean> {
  return isPostgres(db)
    ? sql<boolean>`${sql.ref(id)} = any(string_to_array(trim(both '/' from ${sql.ref(traversal)}), '/')::int[])`
    : sql<boolean>`${sql.ref(id)} in (select value from json_each('[' || replace(trim(${sql.ref(traversal)}, '/'), '/', ',') || ']'))`;
}
