/**
 * The unique index or constraint a write collided with, on either engine: PostgreSQL names the
 * constraint; SQLite names an expression index (`index 'x'`) or the columns (`t.a, t.b`).
 * Undefined for any other error.
 */
export function uniqueViolation(e: unknown): string | undefined {
  const err = e as { code?: string; constraint?: string; message?: string } | null;
  if (err?.code === '23505') return err.constraint ?? '';
  if (err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const m = /UNIQUE constraint failed: (?:index '([^']+)'|(.+))$/.exec(err.message ?? '');
    return m?.[1] ?? m?.[2] ?? '';
  }
  return undefined;
}
