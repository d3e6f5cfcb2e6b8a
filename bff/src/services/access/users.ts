import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { UserRow, UsersTable } from '../../db/schema.ts';
import type { UserCreateBody, UserUpdateBody } from '../../../../shared/src/users.ts';
import type { z } from 'zod';
import type { userListQuery } from '../../../../shared/src/users.ts';
import { hashPassword } from '../../auth/secrets.ts';
import { conflict, forbidden, notFound, validationFailed } from '../../util/errors.ts';
import { columnsOf } from '../../db/columns.ts';
import { customAttributeConditions } from '../instance/custom-attributes.ts';
import { getSettings } from '../instance/application-settings.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { nowIso } from '../../util/time.ts';
import { fireSystemHookEvent } from '../webhooks/hook-delivery.ts';
import { systemUserPayload } from '../webhooks/system-hook-payloads.ts';
import { acceptInvitations } from './invitations.ts';

const userColumns = columnsOf<UsersTable>();

export async function findUser(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user with this id, or `404 User Not Found`. */
export async function getUser(db: Db, id: number): Promise<UserRow> {
  const user = await findUser(db, id);
  if (!user) throw notFound('User');
  return user;
}

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
}

export async function createUser(db: Db, body: UserCreateBody & { bot?: boolean }): Promise<UserRow> {
  if (!body.password && !body.reset_password && !body.force_random_password) {
    throw validationFailed({ password: ['is missing (or send reset_password or force_random_password)'] });
  }
  await checkTaken(db, body);
  // What the request leaves out, the instance's settings for new accounts decide (as on the platform).
  const defaults = await getSettings(db);
  // Without a password (reset_password, force_random_password) no password signs in: no digest is
  // stored rather than the digest of a random one nobody knows, which would cost a hash for nothing.
  const passwordDigest = body.password ? await hashPassword(body.password) : null;
  return db.transaction().execute(async (trx) => {
    const inserted = await insertUser(trx, {
      username: body.username,
      name: body.name,
      email: body.email,
      is_admin: body.admin ? 1 : 0,
      bot: body.bot ? 1 : 0,
      external: (body.external ?? defaults.user_default_external) ? 1 : 0,
      can_create_group: (body.can_create_group ?? defaults.can_create_group) ? 1 : 0,
      password_digest: passwordDigest,
      bio: body.bio ?? '',
      public_email: body.public_email ?? null,
    });
    const user = await trx.selectFrom('users').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
    // System hooks hear of the new user with it, in the same transaction.
    await fireSystemHookEvent(trx, systemUserPayload('user_create', user));
    return user;
  });
}

/**
 * The one way a user row is written (people, group bots, SCIM-provisioned users): active, and
 * without a password unless a digest is given. Two requests creating the same user at once both
 * pass the callers' checks: the unique indexes decide.
 */
export async function insertUser(
  db: Db,
  fields: Pick<Insertable<UsersTable>, 'username' | 'name' | 'email'> & Partial<Omit<Insertable<UsersTable>, 'id' | 'state' | 'created_at' | 'updated_at'>>,
): Promise<{ id: number }> {
  const now = nowIso();
  const inserted = await db
    .insertInto('users')
    .values({ is_admin: 0, bot: 0, external: 0, can_create_group: 1, password_digest: null, bio: '', public_email: null, ...fields, state: 'active', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The address's pending invitations become memberships: the user is created with it confirmed.
  await acceptInvitations(db, { id: inserted.id, email: fields.email });
  return inserted;
}

/** Email and username are unique whatever their case; a taken one is a conflict (409), as on the platform. */
async function checkTaken(db: Db, fields: { email?: string; username?: string }, exceptId?: number): Promise<void> {
  const taken = async (column: 'email' | 'username', value: string) =>
    db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', [column]), '=', value.toLowerCase()))
      .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
      .executeTakeFirst();
  if (fields.email && (await taken('email', fields.email))) throw conflict('Email has already been taken');
  if (fields.username && (await taken('username', fields.username))) throw conflict('Username has already been taken');
}

/**
 * Changes what the body sends; the rest is kept. A new password replaces the old one's digest.
 * An administrator cannot take away their own administrator access (`actorId`): doing it by
 * mistake could leave the instance with no one to give it back.
 */
export async function updateUser(db: Db, user: UserRow, body: UserUpdateBody, avatar?: unknown, actorId?: number): Promise<UserRow> {
  // Clients send the form as multipart, which may carry an avatar: not kept for users yet.
  if (avatar) throw validationFailed({ avatar: ['cannot be uploaded for users yet'] });
  if (body.admin === false && user.id === actorId && user.is_admin) throw forbidden('You cannot remove your own administrator access');
  await checkTaken(db, body, user.id);
  const { password, admin, skip_reconfirmation: _confirmed, public_email, ...fields } = body;
  await db
    .updateTable('users')
    .set({
      ...userColumns(fields),
      ...(admin !== undefined ? { is_admin: admin ? 1 : 0 } : {}),
      ...(public_email !== undefined ? { public_email: public_email === '' ? null : public_email } : {}),
      ...(password !== undefined ? { password_digest: await hashPassword(password) } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', user.id)
    .execute();
  return db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
}

/**
 * Blocks an account: its tokens and sessions stop working at once (authentication reads the
 * state on every request), its data stays. The bots behind access tokens are internal users,
 * which the platform refuses to block.
 */
export async function blockUser(db: Db, user: UserRow, actorId?: number): Promise<void> {
  if (user.bot) throw forbidden('An internal user cannot be blocked');
  // Blocking ends the caller's own sessions and tokens at once: an administrator would lock themselves out.
  if (user.id === actorId) throw forbidden('You cannot block yourself');
  await db.updateTable('users').set({ state: 'blocked', updated_at: nowIso() }).where('id', '=', user.id).execute();
}

export async function unblockUser(db: Db, user: UserRow): Promise<void> {
  if (user.state === 'deactivated') throw forbidden('Deactivated users cannot be unblocked by the API');
  await db.updateTable('users').set({ state: 'active', updated_at: nowIso() }).where('id', '=', user.id).execute();
}

export async function listUsers(db: Db, q: z.infer<typeof userListQuery>, page: PageRequest, admin: boolean): Promise<Page<UserRow>> {
  let query = db.selectFrom('users');
  if (q.username) query = query.where((eb) => eb(eb.fn('lower', ['username']), '=', q.username!.toLowerCase()));
  if (q.search) {
    const term = `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => {
      const ors = [
        eb(eb.fn('lower', ['username']), 'like', sql<string>`${term} ESCAPE '\\'`),
        eb(eb.fn('lower', ['name']), 'like', sql<string>`${term} ESCAPE '\\'`),
      ];
      // Only administrators may find users by their private email address.
      if (admin) ors.push(eb(eb.fn('lower', ['email']), '=', q.search!.toLowerCase()));
      else ors.push(eb(eb.fn('lower', ['public_email']), '=', q.search!.toLowerCase()));
      return eb.or(ors);
    });
  }
  if (q.active) query = query.where('state', '=', 'active');
  if (q.blocked) query = query.where('state', '=', 'blocked');
  if (q.admins && admin) query = query.where('is_admin', '=', 1);
  if (q.exclude_bots) query = query.where('bot', '=', 0);
  if (q.custom_attributes && admin) {
    for (const condition of customAttributeConditions(db, 'user', 'users.id', q.custom_attributes)) query = query.where(condition);
  }
  const orderBy = q.order_by === 'updated_at' ? 'updated_at' : (q.order_by ?? 'id');
  const dir = q.sort ?? (q.order_by ? 'asc' : 'desc');
  return offsetPage(db, query.selectAll().orderBy(orderBy, dir).orderBy('id', dir), page);
}

/** The users of `ids` (nulls and repeats left out), by id: one query for a page of rows naming users. */
export async function usersById(db: Db, ids: (number | null | undefined)[]): Promise<Map<number, UserRow>> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  if (!wanted.length) return new Map();
  return new Map((await db.selectFrom('users').selectAll().where('id', 'in', wanted).execute()).map((u) => [u.id, u]));
}
