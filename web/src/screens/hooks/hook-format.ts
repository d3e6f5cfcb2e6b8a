import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import { HOOK_EVENTS, type HookFlag, type Webhook } from '../../../../shared/src/hooks.ts';

dayjs.extend(relativeTime);

/** A hook is named by its name, or by its URL when it has none. */
export const hookTitle = (hook: Pick<Webhook, 'name' | 'url'>) => hook.name.trim() || hook.url;

const FLAG_OF_TRIGGER = new Map((Object.keys(HOOK_EVENTS) as HookFlag[]).map((f) => [HOOK_EVENTS[f].trigger, f]));
export const flagOfTrigger = (trigger: string) => FLAG_OF_TRIGGER.get(trigger);
/** `push_hooks` → "Push events"; a trigger this console does not know is shown as sent. */
export const triggerLabel = (trigger: string) => {
  const flag = flagOfTrigger(trigger);
  return flag ? HOOK_EVENTS[flag].label : trigger;
};

export type StatusCategory = 'successful' | 'client_failure' | 'server_failure' | 'other';

/** The categories of the API's `status` filter; a delivery without an HTTP answer counts with the server failures, as there. */
export function statusCategory(status: string): StatusCategory {
  const code = Number(status);
  if (!Number.isInteger(code)) return 'server_failure';
  if (code >= 200 && code < 300) return 'successful';
  if (code >= 400 && code < 500) return 'client_failure';
  if (code >= 500) return 'server_failure';
  return 'other';
}

export const CATEGORY_COLORS: Record<StatusCategory, string> = {
  successful: 'teal',
  client_failure: 'orange',
  server_failure: 'red',
  other: 'gray',
};

export const CATEGORY_LABELS: Record<StatusCategory, string> = {
  successful: 'Successful',
  client_failure: 'Client failure',
  server_failure: 'Server failure',
  other: 'Not successful',
};

/** "200", or "Error" for a delivery that got no HTTP answer ("internal error"). */
export const statusText = (status: string) => (/^\d{3}$/.test(status) ? status : 'Error');
export const hasHttpAnswer = (status: string) => /^\d{3}$/.test(status);

/** 0.0423 s → "42 ms"; 1.5 s → "1.50 s". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—';
  if (seconds < 1) return `${Math.max(0, Math.round(seconds * 1000))} ms`;
  return `${seconds.toFixed(2)} s`;
}

export const fromNow = (iso: string) => dayjs(iso).fromNow();
export const fullDateTime = (iso: string) => dayjs(iso).format('MMM D, YYYY HH:mm:ss');
/** "20:31:08" today, "Nov 20, 20:31:08" before. */
export const clockTime = (iso: string) => {
  const d = dayjs(iso);
  return d.isSame(dayjs(), 'day') ? d.format('HH:mm:ss') : d.format('MMM D, HH:mm:ss');
};
export const shortTime = (iso: string) => {
  const d = dayjs(iso);
  return d.isSame(dayjs(), 'day') ? d.format('HH:mm') : d.format('MMM D, HH:mm');
};

/** A body as people read it: JSON indented, anything else as it came. */
export function prettyBody(value: unknown): { text: string; json: boolean } {
  if (value === null || value === undefined || value === '') return { text: '', json: false };
  if (typeof value === 'string') {
    try {
      return { text: JSON.stringify(JSON.parse(value), null, 2), json: true };
    } catch {
      return { text: value, json: false };
    }
  }
  return { text: JSON.stringify(value, null, 2), json: true };
}
