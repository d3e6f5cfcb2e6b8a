import { HOOK_EVENTS, SYSTEM_EVENTS, type HookFlag } from '../../../../shared/src/hook-events.ts';
import type { HookEvent, Webhook } from '../../../../shared/src/hooks.ts';

/** A hook is named by its name, or by its URL when it has none. */
export const hookTitle = (hook: Pick<Webhook, 'name' | 'url'>) => hook.name.trim() || hook.url;

const FLAG_OF_TRIGGER = new Map((Object.keys(HOOK_EVENTS) as HookFlag[]).map((f) => [HOOK_EVENTS[f].trigger, f]));
export const flagOfTrigger = (trigger: string) => FLAG_OF_TRIGGER.get(trigger);
/** `push_hooks` → "Push events"; a trigger this console does not know is shown as sent. */
export const triggerLabel = (trigger: string) => {
  const flag = flagOfTrigger(trigger);
  if (!flag && trigger === SYSTEM_EVENTS.trigger) return 'System events';
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

/** Why a delivery got no HTTP answer, in a few words (`short`) and as a sentence (`long`). */
export interface DeliveryFailure {
  short: string;
  long: string;
}

const failure = (short: string, long: string): DeliveryFailure => ({ short, long });

/**
 * The outbound client's error ("ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9", "Request timed
 * out after 10 s", a refused local address) read for people; an error it does not know is shown as sent.
 */
export function explainDeliveryError(message: string | null | undefined): DeliveryFailure {
  const text = (message ?? '').replace(/^(Resend|Hook execution) failed:\s*/i, '').trim();
  const timeout = /timed out after ([\d.]+ ?s)/i.exec(text);
  if (timeout) return failure('timed out', `The receiver did not answer within ${timeout[1]}.`);
  if (/TIMEOUT|ETIMEDOUT/i.test(text)) return failure('timed out', 'The receiver did not answer in time.');
  if (/ECONNREFUSED/.test(text)) return failure('connection refused', 'The receiver could not be reached (connection refused).');
  if (/ENOTFOUND|EAI_AGAIN|cannot be resolved/.test(text)) {
    // "ENOTFOUND: getaddrinfo ENOTFOUND hooks.example.com": the name is the resolver's last word.
    const host = /(?:ENOTFOUND|EAI_AGAIN)\s+(\S+?)\.?$/.exec(text)?.[1];
    return failure('host not found', host ? `The host name ${host} could not be resolved.` : 'The receiver’s host name could not be resolved.');
  }
  if (/ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed/i.test(text)) return failure('connection closed', 'The receiver closed the connection before answering.');
  if (/EHOSTUNREACH|ENETUNREACH/.test(text)) return failure('unreachable', 'The receiver’s network could not be reached.');
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|certificate/i.test(text)) return failure('certificate not trusted', 'The receiver’s SSL certificate could not be verified.');
  if (/local network are not allowed|localhost are not allowed/i.test(text)) {
    return failure('blocked: local address', 'Requests to the local network are not allowed on this instance (an administrator can allow them).');
  }
  if (!text) return failure('no answer', 'The request failed without an HTTP answer.');
  return failure('no answer', `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`);
}

/** "HTTP 500", or why there was no answer ("connection refused"). */
export const failureText = (event: Pick<HookEvent, 'response_status' | 'internal_error_message'>) =>
  hasHttpAnswer(event.response_status) ? `HTTP ${event.response_status}` : explainDeliveryError(event.internal_error_message).short;
