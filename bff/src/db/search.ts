import { sql, type RawBuilder } from 'kysely';

/** `search` matching any of the columns, case-insensitively, with LIKE wildcards escaped. */
export function matchesSearch(columns: string[], search: string): RawBuilder<boolean> {
  return matchesPattern(columns, searchPattern(search));
}

/** The LIKE pattern of a search: lower case, its wildcards escaped, anywhere in the text. */
export const searchPattern = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Any of the columns, lower-cased, LIKE the pattern (a searchPattern, or its stand-in in a prepared query). */
export function matchesPattern(columns: string[], pattern: string): RawBuilder<boolean> {
  return sql<boolean>`(${sql.join(
    columns.map((c) => sql`lower(${sql.ref(c)}) LIKE ${pattern} ESCAPE '\\'`),
    sql` OR `,
  )})`;
}
