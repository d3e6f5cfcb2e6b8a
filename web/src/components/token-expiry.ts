import dayjs from 'dayjs';

/**
 * Token dates are calendar days on the server's clock (UTC): a token is active while its
 * expiry date is after today, and may live at most 365 days. The console reckons the same way,
 * so the bounds it offers are the ones the server accepts wherever the browser is.
 */
export const MAX_LIFETIME_DAYS = 365;
export const EXPIRING_SOON_DAYS = 7;

export const serverToday = (now = new Date()) => now.toISOString().slice(0, 10);
export const daysFromToday = (days: number, now = new Date()) => dayjs(serverToday(now)).add(days, 'day').format('YYYY-MM-DD');

export const expiryBounds = (now = new Date()) => ({ min: daysFromToday(1, now), max: daysFromToday(MAX_LIFETIME_DAYS, now) });

/**
 * The expiry the rotate dialog proposes: the new token lives as long as the old one was made to
 * (created to expires), within the allowed bounds; a token without an expiry gets the longest.
 */
export function rotationExpiry(token: { created_at: string; expires_at: string | null }, now = new Date()): string {
  if (!token.expires_at) return expiryBounds(now).max;
  const lifetime = dayjs(token.expires_at.slice(0, 10)).diff(dayjs(token.created_at.slice(0, 10)), 'day');
  return daysFromToday(Math.min(Math.max(lifetime, 1), MAX_LIFETIME_DAYS), now);
}

export type ExpiryStatus = { kind: 'none' } | { kind: 'expired' } | { kind: 'soon'; days: number } | { kind: 'later'; days: number };

export function expiryStatus(expiresAt: string | null, now = new Date()): ExpiryStatus {
  if (!expiresAt) return { kind: 'none' };
  const days = dayjs(expiresAt.slice(0, 10)).diff(dayjs(serverToday(now)), 'day');
  if (days <= 0) return { kind: 'expired' };
  return days <= EXPIRING_SOON_DAYS ? { kind: 'soon', days } : { kind: 'later', days };
}

export const inDays = (days: number) => (days === 1 ? 'tomorrow' : `in ${days} days`);
