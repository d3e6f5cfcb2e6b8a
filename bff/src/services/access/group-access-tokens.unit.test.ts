import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDb, type Db } from '../../db/index.ts';
import type { Actor } from '../../auth/actor.ts';
import { actorForToken } from './authentication.ts';
import { createUser } from './users.ts';
import { createGroup } from '../groups/groups.ts';
import { createGroupAccessToken, rotateGroupAccessToken } from './group-access-tokens.ts';
import { DomainError } from '../../util/errors.ts';

// The rotation rules of the spec's state table, without a server: plain values and a database.
let db: Db;
let owner: Actor;
let n = 0;
before(async () => {
  db = openDb({ sqliteFile: ':memory:' });
  await migrate(db);
  const user = await createUser(db, { username: 'rot-owner', name: 'Owner', email: 'rot-owner@example.com', password: 'password1' });
  owner = { user, via: 'token', scopes: ['api'] };
});
after(() => db.destroy());

async function groupWithToken(scopes = ['api'], expires_at?: string) {
  const group = await createGroup(db, owner.user!, { name: `Rot ${++n}`, path: `rot-${n}` }, null);
  const token = await createGroupAccessToken(db, owner, group, { name: 'bot', scopes: scopes as never, access_level: 40, expires_at } as never);
  return { group, token };
}
const rejectsAs = (kind: DomainError['kind']) => (e: unknown) => e instanceof DomainError && e.kind === kind;
const stateOf = async (id: number) => db.selectFrom('personal_access_tokens').select(['revoked', 'family_id', 'previous_token_id']).where('id', '=', id).executeTakeFirstOrThrow();

describe('rotateGroupAccessToken', () => {
  it('revokes the old token and returns a new one of the same family, which works', async () => {
    const { group, token } = await groupWithToken();
    const rotated = await rotateGroupAccessToken(db, owner, group, 50, token.token.id, undefined);
    assert.notEqual(rotated.token.id, token.token.id);
    assert.equal((await stateOf(token.token.id)).revoked, 1);
    assert.deepEqual(await stateOf(rotated.token.id), { revoked: 0, family_id: token.token.id, previous_token_id: token.token.id });
    assert.equal(await actorForToken(db, token.plaintext), 'revoked');
    assert.equal(typeof (await actorForToken(db, rotated.plaintext)), 'object');
  });

  it('treats rotating an already revoked token as reuse: the whole family is revoked', async () => {
    const { group, token } = await groupWithToken();
    const first = await rotateGroupAccessToken(db, owner, group, 50, token.token.id, undefined);
    const second = await rotateGroupAccessToken(db, owner, group, 50, first.token.id, undefined);
    await assert.rejects(rotateGroupAccessToken(db, owner, group, 50, token.token.id, undefined), rejectsAs('unauthorized'));
    for (const id of [token.token.id, first.token.id, second.token.id]) assert.equal((await stateOf(id)).revoked, 1, `token ${id} of the family`);
  });

  it('lets a token rotate itself only with the api or self_rotate scope', async () => {
    const { group, token } = await groupWithToken(['read_api']);
    const self = await actorForToken(db, token.plaintext);
    assert.ok(typeof self === 'object');
    await assert.rejects(rotateGroupAccessToken(db, self, group, 40, 'self', undefined), rejectsAs('forbidden'));
    const { group: g2, token: t2 } = await groupWithToken(['read_api', 'self_rotate']);
    const self2 = await actorForToken(db, t2.plaintext);
    assert.ok(typeof self2 === 'object');
    const rotated = await rotateGroupAccessToken(db, self2, g2, 40, 'self', undefined);
    assert.equal((await stateOf(t2.token.id)).revoked, 1);
    assert.equal(rotated.token.family_id, t2.token.id);
  });

  it('refuses a group token rotating another token (401), a caller below Owner (401), and a personal token without api (403)', async () => {
    const { group, token } = await groupWithToken();
    const { token: other } = await groupWithToken();
    const bot = await actorForToken(db, token.plaintext);
    assert.ok(typeof bot === 'object');
    await assert.rejects(rotateGroupAccessToken(db, bot, group, 40, token.token.id, undefined), rejectsAs('unauthorized'));
    await assert.rejects(rotateGroupAccessToken(db, owner, group, 40, token.token.id, undefined), rejectsAs('unauthorized'));
    await assert.rejects(rotateGroupAccessToken(db, { ...owner, scopes: ['read_api'] }, group, 50, token.token.id, undefined), rejectsAs('forbidden'));
    // A token of another group is not found through this one: the caller learns nothing (401).
    await assert.rejects(rotateGroupAccessToken(db, owner, group, 50, other.token.id, undefined), rejectsAs('unauthorized'));
    assert.equal((await stateOf(token.token.id)).revoked, 0, 'nothing was rotated');
  });

  it('uses the expiry asked for, and refuses an expired token', async () => {
    const { group, token } = await groupWithToken();
    const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const rotated = await rotateGroupAccessToken(db, owner, group, 50, token.token.id, inAMonth);
    assert.equal(rotated.token.expires_at, inAMonth);
    const { group: g2, token: t2 } = await groupWithToken();
    await db.updateTable('personal_access_tokens').set({ expires_at: '2000-01-01' }).where('id', '=', t2.token.id).execute();
    await assert.rejects(rotateGroupAccessToken(db, owner, g2, 50, t2.token.id, undefined), rejectsAs('unauthorized'));
  });
});
