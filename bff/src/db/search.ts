import { sql, type RawBuilder } from 'kysely';

/** `search` matching any of the columns, case-insensitively, with LIKE wildcards escaped. */
export function matchesSearch(columns: string[], search: string): RawBuilder<boolean> {
  const term = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`(${sql.join(
    columns.map((c) => sql`lower(${sql.ref(c)}) LIKE ${term} ESCAPE '\\'`),
    sql` OR `,
  )})`;
}
