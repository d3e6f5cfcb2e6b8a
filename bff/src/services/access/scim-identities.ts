import type { Db } from '../../db/index.ts';
import type { GroupRow, ScimIdentityRow, UserRow } from '../../db/schema.ts';
import type { ScimUserInput } from '../../../../shared/src/scim-identities.ts';
import { ACCESS_LEVELS } from '../../../../shared/src/roles.ts';
import { newToken, safeEqual, tokenDigest } from '../../auth/secrets.ts';
import { insertUser } from './users.ts';
import { notFound, validationFailed } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';

/* ---------- The spec's identity operations (group Owners) ---------- */

export async function listIdentities(db: Db, group: GroupRow, page: PageRequest): Promise<Page<ScimIdentityRow>> {
  return offsetPage(db, db.selectFrom('scim_identities').selectAll().where('group_id', '=', group.id).orderBy('id'), page);
}

export async function getIdentity(db: Db, group: GroupRow, uid: string): Promise<ScimIdentityRow> {
  const row = await db.selectFrom('scim_identities').selectAll().where('group_id', '=', group.id).where('extern_uid', '=', uid).executeTakeFirst();
  if (!row) throw notFound('Identity');
  return row;
}

export async function updateIdentity(db: Db, group: GroupRow, uid: string, externUid: string): Promise<ScimIdentityRow> {
  const row = await getIdentity(db, group, uid);
  if (externUid !== uid) {
    const taken = await db.selectFrom('scim_identities').select('id').where('group_id', '=', group.id).where('extern_uid', '=', externUid).executeTakeFirst();
    if (taken) throw validationFailed({ extern_uid: ['has already been taken'] });
  }
  await db.updateTable('scim_identities').set({ extern_uid: externUid, updated_at: nowIso() }).where('id', '=', row.id).execute();
  return { ...row, extern_uid: externUid };
}

export async function deleteIdentity(db: Db, group: GroupRow, uid: string): Promise<void> {
  const row = await getIdentity(db, group, uid);
  await db.deleteFrom('scim_identities').where('id', '=', row.id).execute();
}

/* ---------- The group's SCIM token ---------- */

export const SCIM_TOKEN_PREFIX = 'gtscim-';

/** A new SCIM token for the group; the previous one stops working. */
export async function resetScimToken(db: Db, group: GroupRow): Promise<{ plaintext: string; created_at: string }> {
  const plaintext = newToken(SCIM_TOKEN_PREFIX);
  const created_at = nowIso();
  // Replaced in place: two resets at once leave one token, the later one.
  const token_digest = tokenDigest(plaintext);
  await db
    .insertInto('scim_tokens')
    .values({ group_id: group.id, token_digest, created_at })
    .onConflict((oc) => oc.column('group_id').doUpdateSet({ token_digest, created_at }))
    .execute();
  return { plaintext, created_at };
}

export async function scimTokenInfo(db: Db, group: GroupRow): Promise<{ created_at: string }> {
  const row = await db.selectFrom('scim_tokens').select('created_at').where('group_id', '=', group.id).executeTakeFirst();
  if (!row) throw notFound('SCIM token');
  return row;
}

/** The group whose SCIM token this is, if the path names it. */
export async function groupForScimToken(db: Db, groupPath: string, plaintext: string): Promise<GroupRow | undefined> {
  const digest = tokenDigest(plaintext);
  const row = await db
    .selectFrom('scim_tokens')
    .innerJoin('groups', 'groups.id', 'scim_tokens.group_id')
    .selectAll('groups')
    .select('scim_tokens.token_digest')
    .where('scim_tokens.token_digest', '=', digest)
    .executeTakeFirst();
  if (!row || !safeEqual(row.token_digest, digest) || row.full_path.toLowerCase() !== groupPath.toLowerCase()) return undefined;
  const { token_digest: _d, ...group } = row;
  return group as GroupRow;
}

/* ---------- SCIM 2.0 provisioning (identity providers) ---------- */

export interface ScimUser {
  identity: ScimIdentityRow;
  user: UserRow;
}

async function withUser(db: Db, identity: ScimIdentityRow): Promise<ScimUser> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', identity.user_id).executeTakeFirstOrThrow();
  return { identity, user };
}

export type ScimFilter = { attribute: 'userName' | 'externalId' | 'id' | 'emails'; value: string } | undefined;

/** The one filter identity providers use: `attribute eq "value"`. */
export function parseScimFilter(filter: string | undefined): ScimFilter | 'invalid' {
  if (!filter) return undefined;
  const m = /^\s*(userName|externalId|id|emails(?:\.value)?)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter);
  if (!m) return 'invalid';
  const attr = m[1].toLowerCase();
  const attribute = attr === 'username' ? 'userName' : attr === 'externalid' ? 'externalId' : attr === 'id' ? 'id' : 'emails';
  return { attribute, value: m[2].replace(/\\(.)/g, '$1') };
}

export async function scimListUsers(db: Db, group: GroupRow, filter: ScimFilter, startIndex: number, count: number) {
  let q = db
    .selectFrom('scim_identities')
    .innerJoin('users', 'users.id', 'scim_identities.user_id')
    .selectAll('scim_identities')
    .where('scim_identities.group_id', '=', group.id);
  if (filter?.attribute === 'userName') q = q.where((eb) => eb(eb.fn('lower', ['users.username']), '=', filter.value.toLowerCase()));
  if (filter?.attribute === 'emails') q = q.where((eb) => eb(eb.fn('lower', ['users.email']), '=', filter.value.toLowerCase()));
  if (filter?.attribute === 'externalId' || filter?.attribute === 'id') q = q.where('scim_identities.extern_uid', '=', filter.value);
  const all = await q.orderBy('scim_identities.id').execute();
  const page = all.slice(startIndex - 1, startIndex - 1 + count);
  return { total: all.length, items: await Promise.all(page.map((i) => withUser(db, i))) };
}

export async function scimGetUser(db: Db, group: GroupRow, uid: string): Promise<ScimUser> {
  return withUser(db, await getIdentity(db, group, uid));
}

async function addGuestMembership(db: Db, group: GroupRow, userId: number): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('members')
    .values({ source_type: 'group', source_id: group.id, user_id: userId, access_level: ACCESS_LEVELS.guest, created_by_id: null, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['source_type', 'source_id', 'user_id']).doNothing())
    .execute();
}

async function removeMembership(db: Db, group: GroupRow, userId: number): Promise<void> {
  await db.deleteFrom('members').where('source_type', '=', 'group').where('source_id', '=', group.id).where('user_id', '=', userId).execute();
}

export class ScimConflict extends Error {}

/**
 * Provisions a user: links an existing account with the same email, or creates one, then
 * records the identity and gives the user the Guest role in the group.
 */
export async function scimCreateUser(db: Db, group: GroupRow, input: ScimUserInput): Promise<ScimUser> {
  const email = (input.emails.find((e) => e.primary) ?? input.emails[0]).value;
  const existingIdentity = await db.selectFrom('scim_identities').select('id').where('group_id', '=', group.id).where('extern_uid', '=', input.externalId).executeTakeFirst();
  if (existingIdentity) throw new ScimConflict(`User with externalId ${input.externalId} already exists`);
  return db.transaction().execute(async (trx) => {
    let user = await trx
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
    if (user) {
      const linked = await trx.selectFrom('scim_identities').select('id').where('group_id', '=', group.id).where('user_id', '=', user.id).executeTakeFirst();
      if (linked) throw new ScimConflict(`User with email ${email} is already provisioned`);
    } else {
      const base = input.userName.replace(/@.*$/, '').replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[.-]+/, '') || 'user';
      let username = base;
      for (let n = 1; await trx.selectFrom('users').select('id').where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase())).executeTakeFirst(); n++) {
        username = `${base}${n}`;
      }
      const name = input.name?.formatted ?? input.displayName ?? ([input.name?.givenName, input.name?.familyName].filter(Boolean).join(' ') || username);
      // Provisioned users sign in through their identity provider: no password.
      const inserted = await insertUser(trx, { username, name, email });
      user = await trx.selectFrom('users').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
    }
    const active = input.active ?? true;
    const now = nowIso();
    await trx
      .insertInto('scim_identities')
      .values({ group_id: group.id, user_id: user.id, extern_uid: input.externalId, active: active ? 1 : 0, created_at: now, updated_at: now })
      .execute();
    if (active) await addGuestMembership(trx, group, user.id);
    return withUser(trx, await getIdentity(trx, group, input.externalId));
  });
}

/** `active` false deprovisions (the membership is removed); true provisions again as Guest. */
export async function scimSetActive(db: Db, group: GroupRow, uid: string, active: boolean): Promise<ScimUser> {
  const identity = await getIdentity(db, group, uid);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('scim_identities').set({ active: active ? 1 : 0, updated_at: nowIso() }).where('id', '=', identity.id).execute();
    if (active) await addGuestMembership(trx, group, identity.user_id);
    else await removeMembership(trx, group, identity.user_id);
  });
  return scimGetUser(db, group, uid);
}

export async function scimDeleteUser(db: Db, group: GroupRow, uid: string): Promise<void> {
  const identity = await getIdentity(db, group, uid);
  await db.transaction().execute(async (trx) => {
    await removeMembership(trx, group, identity.user_id);
    await trx.deleteFrom('scim_identities').where('id', '=', identity.id).execute();
  });
}
