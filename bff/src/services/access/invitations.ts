import crypto from 'node:crypto';
import type { Db } from '../../db/index.ts';
import type { InvitationRow } from '../../db/schema.ts';
import type { Actor } from '../../auth/actor.ts';
import type { Config } from '../../config.ts';
import { tokenDigest } from '../../auth/secrets.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { sendMail } from '../../mail/mailer.ts';
import { ROLE_NAMES } from '../../../../shared/src/roles.ts';
import { INVITE_LIMIT, type InvitationResult } from '../../../../shared/src/invitations.ts';
import { DomainError, notFound, validationFailed } from '../../util/errors.ts';
import { nowIso, today } from '../../util/time.ts';
import { addInvitedMember, addMember, checkGrant, checkExpiry, updateMember, type MemberSource } from './members.ts';

export interface InvitationWithCreator {
  invitation: InvitationRow;
  createdByName: string | null;
}

/** An invitation's mail, sent after the request's writes: the token is in it and nowhere else. */
interface InvitationMail {
  to: string;
  token: string;
}

/** The platform's sentence for a refusal of one address or user: "Access level should be …", or the reason alone. */
function reasonOf(e: DomainError): string {
  if (e.fields) {
    return Object.entries(e.fields)
      .map(([field, msgs]) => `${field.charAt(0).toUpperCase()}${field.slice(1).replace(/_/g, ' ')} ${Array.isArray(msgs) ? msgs.join(', ') : 'is invalid'}`)
      .join('. ');
  }
  return e.message.replace(/^\d{3} [A-Za-z ]+? - /, '').replace(/^\d{3} /, '');
}

/** Adds an existing user, or changes their role if they are already a direct member (as the platform does). */
async function addOrUpdate(db: Db, actor: Actor, actorLevel: number, source: MemberSource, userId: number, body: { access_level: number; expires_at: string | null }) {
  const member = await db.selectFrom('members').select('id').where('source_type', '=', source.type).where('source_id', '=', source.id).where('user_id', '=', userId).executeTakeFirst();
  if (member) await updateMember(db, actor, actorLevel, source, userId, body);
  else await addMember(db, actor, actorLevel, source, { user_id: userId, ...body });
}

/**
 * POST …/invitations: each address of an existing user (and each user id) becomes a membership
 * at once; any other address a pending invitation, mailed when SMTP is configured. One refusal
 * does not stop the others: the answer names each refused address (users by username, whose
 * addresses the caller may not know) with its reason, as the platform's InviteService.
 */
export async function invite(
  db: Db,
  config: Config,
  actor: Actor,
  actorLevel: number,
  source: MemberSource & { name: string },
  body: { emails: string[]; userIds: number[]; access_level: number; expires_at: string | null },
  warn: (e: unknown) => void,
): Promise<InvitationResult> {
  // Granting a role above the caller's own refuses the whole request (the platform's AccessDeniedError).
  checkGrant(actor, actorLevel, body.access_level);
  const emails = [...new Set(body.emails.map((e) => e.toLowerCase()))];
  const userIds = [...new Set(body.userIds)];
  if (emails.length + userIds.length > INVITE_LIMIT) return { status: 'error', message: `Too many users specified (limit is ${INVITE_LIMIT})` };
  const errors: Record<string, string> = {};
  const past = body.expires_at !== null && body.expires_at <= today();
  const grant = { access_level: body.access_level, expires_at: body.expires_at };
  const attempt = async (key: string, work: () => Promise<void>) => {
    if (past) {
      errors[key] = 'Expires at cannot be a date in the past';
      return;
    }
    try {
      await work();
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      errors[key] = reasonOf(e);
    }
  };

  const users = userIds.length ? await db.selectFrom('users').select(['id', 'username']).where('id', 'in', userIds).execute() : [];
  for (const id of userIds) {
    const user = users.find((u) => u.id === id);
    if (!user) errors[String(id)] = 'User not found';
    else await attempt(user.username, () => addOrUpdate(db, actor, actorLevel, source, user.id, grant));
  }

  const mails: InvitationMail[] = [];
  for (const email of emails) {
    await attempt(email, async () => {
      const user = await db
        .selectFrom('users')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
        .executeTakeFirst();
      if (user) return addOrUpdate(db, actor, actorLevel, source, user.id, grant);
      const token = crypto.randomBytes(24).toString('base64url');
      const now = nowIso();
      try {
        await db
          .insertInto('invitations')
          .values({ source_type: source.type, source_id: source.id, invite_email: email, token_digest: tokenDigest(token), ...grant, created_by_id: actor.user?.id ?? null, created_at: now, updated_at: now })
          .execute();
      } catch (e) {
        if (uniqueViolation(e) === undefined) throw e;
        throw validationFailed({ invite_email: ['has already been taken'] });
      }
      mails.push({ to: email, token });
    });
  }

  const inviter = actor.user?.name ?? 'An administrator';
  for (const mail of mails) {
    try {
      await sendMail(config, {
        to: mail.to,
        subject: `${inviter} invited you to join ${source.name}`,
        text: invitationText(inviter, source, ROLE_NAMES[body.access_level] ?? String(body.access_level), mail, body.expires_at),
      });
    } catch (e) {
      // The invitation stands without its mail; the error names the relay, never the token.
      warn(e);
    }
  }
  return Object.keys(errors).length ? { status: 'error', message: errors } : { status: 'success' };
}

function invitationText(inviter: string, source: { type: string; name: string }, role: string, mail: InvitationMail, expiresAt: string | null): string {
  return [
    'Hello,',
    '',
    `${inviter} invited you to join the ${source.type} ${source.name} as ${role}${expiresAt ? ` until ${expiresAt}` : ''}.`,
    '',
    `Your access starts when an account with this address (${mail.to}) exists: ask your administrator to create it.`,
    'If you were not expecting this invitation, you can ignore this email.',
    '',
    `Invitation code: ${mail.token}`,
    '',
  ].join('\n');
}

/** GET …/invitations: the pending invitations of the group or project itself (not its ancestors'), oldest first; `query` is an exact address. */
export async function listInvitations(db: Db, source: MemberSource, query: string | undefined, page: PageRequest): Promise<Page<InvitationWithCreator>> {
  let q = db.selectFrom('invitations').selectAll().where('source_type', '=', source.type).where('source_id', '=', source.id);
  if (query) q = q.where('invite_email', '=', query.toLowerCase());
  return (await offsetPage(db, q.orderBy('id'), page)).mapAsync((rows) => withCreators(db, rows));
}

async function withCreators(db: Db, rows: InvitationRow[]): Promise<InvitationWithCreator[]> {
  const ids = [...new Set(rows.flatMap((r) => (r.created_by_id ? [r.created_by_id] : [])))];
  const users = ids.length ? await db.selectFrom('users').select(['id', 'name']).where('id', 'in', ids).execute() : [];
  return rows.map((invitation) => ({ invitation, createdByName: users.find((u) => u.id === invitation.created_by_id)?.name ?? null }));
}

async function getInvitation(db: Db, source: MemberSource, email: string): Promise<InvitationRow> {
  const row = await db
    .selectFrom('invitations')
    .selectAll()
    .where('source_type', '=', source.type)
    .where('source_id', '=', source.id)
    .where('invite_email', '=', email.toLowerCase())
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** PUT …/invitations/:email: its role or the expiry of the access it will give. */
export async function updateInvitation(
  db: Db,
  actor: Actor,
  actorLevel: number,
  source: MemberSource,
  email: string,
  body: { access_level?: number; expires_at?: string | null },
): Promise<InvitationWithCreator> {
  const row = await getInvitation(db, source, email);
  checkGrant(actor, actorLevel, body.access_level ?? row.access_level, row.access_level);
  checkExpiry(body.expires_at);
  await db
    .updateTable('invitations')
    .set({ ...(body.access_level !== undefined ? { access_level: body.access_level } : {}), ...(body.expires_at !== undefined ? { expires_at: body.expires_at } : {}), updated_at: nowIso() })
    .where('id', '=', row.id)
    .execute();
  const [updated] = await withCreators(db, [await getInvitation(db, source, email)]);
  return updated;
}

/** DELETE …/invitations/:email: the invitation is withdrawn; its code no longer gives anything. */
export async function deleteInvitation(db: Db, actor: Actor, actorLevel: number, source: MemberSource, email: string): Promise<void> {
  const row = await getInvitation(db, source, email);
  checkGrant(actor, actorLevel, row.access_level);
  await db.deleteFrom('invitations').where('id', '=', row.id).execute();
}

/**
 * A user created with an address that has pending invitations (by an administrator, by SCIM, or
 * by the first start): each becomes their membership, as the platform accepts a confirmed
 * address's invitations. An invitation whose access expiry has passed gives nothing.
 */
export async function acceptInvitations(db: Db, user: { id: number; email: string }): Promise<number> {
  const rows = await db.selectFrom('invitations').selectAll().where('invite_email', '=', user.email.toLowerCase()).orderBy('id').execute();
  let accepted = 0;
  for (const row of rows) {
    if (row.expires_at === null || row.expires_at > today()) {
      const source = await sourceOf(db, row);
      if (source) {
        await addInvitedMember(db, source, user.id, row);
        accepted++;
      }
    }
    await db.deleteFrom('invitations').where('id', '=', row.id).execute();
  }
  return accepted;
}

async function sourceOf(db: Db, row: InvitationRow): Promise<MemberSource | undefined> {
  const groupId =
    row.source_type === 'group' ? row.source_id : (await db.selectFrom('projects').select('namespace_id').where('id', '=', row.source_id).executeTakeFirst())?.namespace_id;
  if (groupId === undefined) return undefined;
  const group = await db.selectFrom('groups').selectAll().where('id', '=', groupId).executeTakeFirst();
  return group && { type: row.source_type, id: row.source_id, group };
}
