/**
 * Turns validated input into column values under the storage conventions (see db/schema.ts):
 * booleans become 0/1, arrays and hashes become JSON text, undefined is dropped.
 */
export function toColumns<T extends Record<string, unknown>>(input: T): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (typeof value === 'boolean') out[key] = value ? 1 : 0;
    else if (value !== null && typeof value === 'object') out[key] = JSON.stringify(value);
    else out[key] = value as string | number | null;
  }
  return out;
}

export const bool = (v: number | null | undefined): boolean => v === 1 || (v as unknown) === true;
export const boolOrNull = (v: number | null | undefined): boolean | null => (v === null || v === undefined ? null : bool(v));
export function json<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
