import dayjs from 'dayjs';
import { ROLE_NAMES } from '../../../shared/src/role-names.ts';

/** "must be less than …" → "Must be less than …": validation wording reads as a sentence under a field. */
export const sentence = (message: string | undefined) => (message ? message.charAt(0).toUpperCase() + message.slice(1) : undefined);

export const formatDate = (iso: string | null | undefined) => (iso ? dayjs(iso).format('MMM D, YYYY') : '—');

export const roleName = (level: number) => ROLE_NAMES[level] ?? (level >= 50 ? 'Owner' : 'No role');

export const VISIBILITY_COLORS: Record<string, string> = { public: 'teal', internal: 'blue', private: 'gray' };
export const VISIBILITY_LABELS: Record<string, string> = { public: 'Public', internal: 'Internal', private: 'Private' };
