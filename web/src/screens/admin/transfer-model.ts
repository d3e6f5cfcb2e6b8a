import type { ApiError } from '../../api/client.ts';

/**
 * A refused transfer in plain words: the platform's sentence without its wrapping
 * ("Failed to transfer project {:new_namespace=>[\"…\"]}", "Transfer failed: …"), or what a
 * status means when there is no sentence.
 */
export function transferRefusal(error: Pick<ApiError, 'status' | 'message'>): string {
  const wrapped = /\[\s*"((?:[^"\\]|\\.)*)"/.exec(error.message);
  if (wrapped) return wrapped[1].replace(/\\(.)/g, '$1');
  const plain = /^Transfer failed: (.*)$/.exec(error.message);
  if (plain) return plain[1];
  if (error.status === 404) return 'That group no longer exists, or you cannot see it. Pick another.';
  if (error.status === 403) return 'You are not allowed to transfer this. Only Owners and administrators can.';
  return error.message || 'Something went wrong on the server. Try again.';
}
