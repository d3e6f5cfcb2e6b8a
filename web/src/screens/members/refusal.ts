import { isApiError } from '../../api/client.ts';

/**
 * What a refused member change means, in plain words. The server's reasons are the platform's
 * (last Owner, a role above your own, below an inherited role); the rest keeps the server's text.
 */
export function memberRefusal(error: unknown): string {
  if (!isApiError(error)) return 'The change could not be made.';
  const text = `${error.message} ${JSON.stringify(error.body ?? '')}`;
  if (/last Owner|at least one Owner/i.test(text)) {
    return 'A group must always have an Owner. Make someone else an Owner first, then change or remove this one.';
  }
  if (/above your own/i.test(text)) return 'You cannot give or change a role higher than your own. Ask an Owner.';
  if (/inherited membership/i.test(text)) return `${error.message.replace(/^access_level /, 'The role ')}: a member keeps at least the role they inherit from a parent group.`;
  if (/already exists/i.test(text)) return 'This user is already a member.';
  if (error.status === 403) return 'Your role does not allow this change.';
  return error.message;
}

/**
 * The addresses an invitation request refused and why, in plain words (the platform answers 201
 * with `{"status": "error", "message": {address: reason}}`, or one reason for the whole request).
 */
export function invitationRefusals(result: { status: string; message?: unknown }, emails: string[]): Record<string, string> {
  if (result.status === 'success') return {};
  const plain = (reason: string) => {
    if (/already been taken/i.test(reason)) return 'already invited; revoke the pending invitation to send a new one.';
    if (/past/i.test(reason)) return 'the access expiry date has passed.';
    if (/inherited membership/i.test(reason)) return `${reason}: a member keeps at least the role they inherit from a parent group.`;
    return reason;
  };
  if (typeof result.message === 'string') return Object.fromEntries(emails.map((e) => [e, plain(result.message as string)]));
  return Object.fromEntries(Object.entries((result.message ?? {}) as Record<string, string>).map(([k, v]) => [k, plain(String(v))]));
}
