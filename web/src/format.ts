import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';
import { ROLE_NAMES } from '../../shared/src/role-names.ts';

/*
 * How the console writes dates, durations, sizes, numbers, roles and messages: one place, so a
 * value reads the same on every screen. Pure functions (no React, no DOM).
 */

dayjs.extend(relativeTime);

/** "must be less than …" → "Must be less than …": validation wording reads as a sentence under a field. */
export const sentence = (message: string | undefined) => (message ? message.charAt(0).toUpperCase() + message.slice(1) : undefined);

// Dates and times, in the browser's time zone.

/** "Nov 20, 2025"; "—" without a date. */
export const formatDate = (iso: string | null | undefined) => (iso ? dayjs(iso).format('MMM D, YYYY') : '—');
/** "Nov 20, 2025 20:31:08": a moment to the second (deliveries, job failures). */
export const fullDateTime = (iso: string) => dayjs(iso).format('MMM D, YYYY HH:mm:ss');
/** "Nov 20, 2025 20:31": a moment to the minute (when a token was made or used). */
export const fullDateTimeToMinute = (iso: string) => dayjs(iso).format('MMM D, YYYY HH:mm');
/** "3 minutes ago", "in 2 hours". */
export const fromNow = (iso: string) => dayjs(iso).fromNow();
/** "20:31:08" today, "Nov 20, 20:31:08" before. */
export const clockTime = (iso: string) => {
  const d = dayjs(iso);
  return d.isSame(dayjs(), 'day') ? d.format('HH:mm:ss') : d.format('MMM D, HH:mm:ss');
};
/** "20:31" today, "Nov 20, 20:31" before. */
export const shortTime = (iso: string) => {
  const d = dayjs(iso);
  return d.isSame(dayjs(), 'day') ? d.format('HH:mm') : d.format('MMM D, HH:mm');
};

// Durations: two ways, for two kinds of wait.

/** A short wait to the millisecond (a webhook delivery): 0.0423 s → "42 ms"; 1.5 s → "1.50 s". */
export function formatPreciseDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—';
  if (seconds < 1) return `${Math.max(0, Math.round(seconds * 1000))} ms`;
  return `${seconds.toFixed(2)} s`;
}

/** A long wait to the second (pipelines, merge trains): 75 → "1m 15s", 3725 → "1h 2m"; "—" while nothing ran. */
export function formatRoundedDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

// Numbers and sizes.

/** 12345 → "12,345" (in the browser's locale). */
export const formatNumber = (v: number) => v.toLocaleString();
/** The server counts lists up to 10,000 records (as the platform does): null is a list longer than that. */
export const UNCOUNTED = 'more than 10,000';
export const formatTotal = (v: number | null) => (v === null ? UNCOUNTED : formatNumber(v));
/** 1 → "1 webhook", 1200 → "1,200 webhooks". */
export const formatCount = (v: number, one: string, many: string) => `${formatNumber(v)} ${v === 1 ? one : many}`;
/** 25 → "25%", 12.5 → "12.5%", 33.333 → "33.33%". */
export const formatPercent = (n: number) => `${Number.isInteger(n) ? n : n.toFixed(2).replace(/0+$/, '')}%`;
/** A file's size: "512 B", "2.0 KB", "1.5 MB" (1 KB = 1024 B); "—" when unknown. */
export const formatSize = (bytes: number | null) =>
  bytes === null ? '—' : bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

// Roles and visibility.

export const roleName = (level: number) => ROLE_NAMES[level] ?? (level >= 50 ? 'Owner' : 'No role');

export const VISIBILITY_COLORS: Record<string, string> = { public: 'teal', internal: 'blue', private: 'gray' };
export const VISIBILITY_LABELS: Record<string, string> = { public: 'Public', internal: 'Internal', private: 'Private' };
