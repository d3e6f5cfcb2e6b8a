/** Datetimes are stored and returned as ISO 8601 with milliseconds and Z. */
export const nowIso = (): string => new Date().toISOString();
export const isoPlus = (ms: number, from = Date.now()): string => new Date(from + ms).toISOString();
export const today = (): string => new Date().toISOString().slice(0, 10);
export const addDays = (days: number, from = new Date()): string => new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
