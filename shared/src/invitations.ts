import { z } from './errors.ts';
import { dateParam, datetimeParam, intParam, paginationQuery, stringListParam } from './params.ts';
import { accessLevel } from './roles.ts';

/**
 * A pending invitation by email (spec: Invitations). The platform's entity also carries the
 * invitation's token; Gatehouse shows the token only in the email it sends, and keeps a digest.
 */
export const invitation = z.object({
  id: z.number().int(),
  invite_email: z.string(),
  created_at: z.string(),
  access_level: z.number().int(),
  expires_at: z.string().nullable(),
  created_by_name: z.string().nullable(),
});
export type Invitation = z.infer<typeof invitation>;

/** The platform's address rule (Devise's): something, one @, something, no spaces. */
export const INVITE_EMAIL = /^[^@\s]+@[^@\s]+$/;
/** At most this many addresses and users in one request, as on the platform. */
export const INVITE_LIMIT = 100;

/** A date, or a datetime of which the date is kept (the platform documents both spellings). */
const expiryParam = () => z.union([dateParam(), datetimeParam().transform((v) => v.slice(0, 10))]);

export const invitationCreateBody = z.object({
  /** One address, several separated by commas, or an array of them. */
  email: stringListParam()
    .pipe(z.array(z.string().max(255)).max(INVITE_LIMIT * 2))
    .optional(),
  /** Existing users to add at once: one id, several separated by commas, or an array. */
  user_id: z
    .preprocess((v) => (typeof v === 'number' ? String(v) : Array.isArray(v) ? v.map((x) => (typeof x === 'number' ? String(x) : x)) : v), stringListParam())
    .pipe(z.array(z.string().max(15)).max(INVITE_LIMIT * 2))
    .optional(),
  access_level: intParam().pipe(accessLevel),
  expires_at: expiryParam().nullable().optional(),
  invite_source: z.string().max(255).optional(),
});
export type InvitationCreateBody = z.infer<typeof invitationCreateBody>;

/** The platform's answer to an invitation request: 201 either way; the errors keyed by address (or username). */
export const invitationResult = z.union([
  z.object({ status: z.literal('success') }),
  z.object({ status: z.literal('error'), message: z.union([z.string(), z.record(z.string(), z.string())]) }),
]);
export type InvitationResult = z.infer<typeof invitationResult>;

export const invitationListQuery = paginationQuery.extend({
  /** The exact address (the platform matches it whole). */
  query: z.string().max(255).optional(),
});

export const invitationUpdateBody = z.object({
  access_level: intParam().pipe(accessLevel).optional(),
  expires_at: expiryParam().nullable().optional(),
});
