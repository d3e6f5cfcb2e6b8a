import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { personalAccessToken, personalAccessTokenWithToken } from '../../../shared/src/personal-access-tokens.ts';
import { buildGroup, buildUser, expectShape, expectStatus, request as api, startTestServer, type TestServer } from '../../test/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

type BuiltUser = Awaited<ReturnType<typeof buildUser>>;

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TOKEN_KEYS = ['active', 'created_at', 'description', 'expires_at', 'id', 'last_used_at', 'name', 'revoked', 'scopes', 'user_id'];
const daysFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const UNAUTHORIZED = { message: '401 Unauthorized' };

/** A token as listed or read: the shared schema, the exact field set, never the secret. */
function expectToken(body: Record<string, unknown>) {
  const t = expectShape(personalAccessToken, body);
  assert.deepEqual(Object.keys(body).sort(), TOKEN_KEYS);
  assert.match(t.created_at, ISO_DATETIME);
  if (t.expires_at !== null) assert.match(t.expires_at, /^\d{4}-\d{2}-\d{2}$/);
  return t;
}

const createToken = (userId: number | string, json: unknown, token?: string | null) =>
  api(`/users/${userId}/personal_access_tokens`, { method: 'POST', json, token });

/** Creates a token for a user as the administrator and returns its id and plaintext. */
async function tokenFor(userId: number, json: Record<string, unknown> = {}) {
  const res = await createToken(userId, { name: 'extra', scopes: ['api'], ...json });
  expectStatus(res, 201);
  return { id: res.body.id as number, token: res.body.token as string };
}

/** How many tokens a user has, as the administrator sees them. */
const tokenCount = async (userId: number) => Number((await api(`/personal_access_tokens?user_id=${userId}`)).headers.get('x-total'));
const readToken = async (id: number) => (await api(`/personal_access_tokens/${id}`)).body;
const setExpiry = (id: number, expiresAt: string) =>
  server.running.db.updateTable('personal_access_tokens').set({ expires_at: expiresAt }).where('id', '=', id).execute();

describe('POST /users/:user_id/personal_access_tokens', () => {
  let owner: BuiltUser;
  before(async () => {
    owner = await buildUser();
  });

  describe('as an administrator', () => {
    it('creates a token, returns its plaintext once, and the token works', async () => {
      const expiry = daysFromNow(30);
      const res = await createToken(owner.user.id, { name: 'ci', description: 'for the pipeline', scopes: ['read_api', 'read_user'], expires_at: expiry });
      expectStatus(res, 201);
      const t = expectShape(personalAccessTokenWithToken, res.body);
      assert.deepEqual(Object.keys(res.body).sort(), [...TOKEN_KEYS, 'token'].sort());
      assert.equal(t.name, 'ci');
      assert.equal(t.description, 'for the pipeline');
      assert.deepEqual(t.scopes, ['read_api', 'read_user']);
      assert.equal(t.user_id, owner.user.id);
      assert.equal(t.expires_at, expiry);
      assert.equal(t.revoked, false);
      assert.equal(t.active, true);
      assert.equal(t.last_used_at, null);
      assert.ok(t.token.length >= 20);

      const me = await api('/user', { token: t.token });
      expectStatus(me, 200);
      assert.equal(me.body.id, owner.user.id);
      const read = await api(`/personal_access_tokens/${t.id}`);
      expectStatus(read, 200);
      assert.ok(!('token' in read.body), 'the plaintext is never shown again');
    });
    it('sets expires_at to the maximum lifetime (365 days) when none is given', async () => {
      const res = await createToken(owner.user.id, { name: 'default expiry', scopes: ['api'] });
      expectStatus(res, 201);
      assert.equal(res.body.expires_at, daysFromNow(365));
      assert.equal(res.body.description, null);
    });
    it('accepts form fields, scopes as a comma-separated list', async () => {
      const res = await api(`/users/${owner.user.id}/personal_access_tokens`, { method: 'POST', form: { name: 'form', scopes: 'api,read_user' } });
      expectStatus(res, 201);
      assert.deepEqual(res.body.scopes, ['api', 'read_user']);
    });
    it('stores each scope once', async () => {
      const res = await createToken(owner.user.id, { name: 'dupes', scopes: ['api', 'api'] });
      expectStatus(res, 201);
      assert.deepEqual(res.body.scopes, ['api']);
    });
    it('gives every token a different secret', async () => {
      const a = await tokenFor(owner.user.id);
      const b = await tokenFor(owner.user.id);
      assert.notEqual(a.token, b.token);
    });
  });

  describe('with invalid parameters', () => {
    it('answers 400 name is missing and scopes is missing, and creates nothing', async () => {
      const before = await tokenCount(owner.user.id);
      const noName = await createToken(owner.user.id, { scopes: ['api'] });
      expectStatus(noName, 400);
      assert.deepEqual(noName.body, { message: 'name is missing' });
      const noScopes = await createToken(owner.user.id, { name: 'x' });
      expectStatus(noScopes, 400);
      assert.deepEqual(noScopes.body, { message: 'scopes is missing' });
      assert.equal(await tokenCount(owner.user.id), before);
    });
    for (const [label, body, field] of [
      ['a blank name', { name: '  ' }, 'name'],
      ['an oversize name', { name: 'n'.repeat(256) }, 'name'],
      ['a name that is a number', { name: 42 }, 'name'],
      ['an oversize description', { description: 'd'.repeat(256) }, 'description'],
      ['no scopes', { scopes: [] }, 'scopes'],
      ['an unknown scope', { scopes: ['api', 'sudo_everything'] }, 'scopes'],
      ['scopes as an object', { scopes: { api: true } }, 'scopes'],
      ['expires_at "soon"', { expires_at: 'soon' }, 'expires_at'],
      ['expires_at in the past', { expires_at: '2020-01-01' }, 'expires_at'],
      ['expires_at today', { expires_at: daysFromNow(0) }, 'expires_at'],
      ['expires_at beyond the maximum lifetime', { expires_at: daysFromNow(400) }, 'expires_at'],
    ] as const) {
      it(`answers 400 naming ${field} for ${label}, and creates nothing`, async () => {
        const before = await tokenCount(owner.user.id);
        const res = await createToken(owner.user.id, { name: 'bad', scopes: ['api'], ...(body as Record<string, unknown>) });
        expectStatus(res, 400);
        assert.ok(res.body.message?.[field], JSON.stringify(res.body));
        assert.equal(await tokenCount(owner.user.id), before);
      });
    }
  });

  describe('for an unknown user', () => {
    for (const id of ['999999', '99999999999', 'abc', '0x1']) {
      it(`answers 404 User Not Found for ${id}`, async () => {
        const res = await createToken(id, { name: 'x', scopes: ['api'] });
        expectStatus(res, 404);
        assert.deepEqual(res.body, { message: '404 User Not Found' });
      });
    }
  });

  describe('without the role', () => {
    it('answers 403 to a user who is not an administrator, even for themselves, and creates nothing', async () => {
      const before = await tokenCount(owner.user.id);
      const res = await createToken(owner.user.id, { name: 'mine', scopes: ['api'] }, owner.token);
      expectStatus(res, 403);
      assert.deepEqual(res.body, { message: '403 Forbidden' });
      assert.equal(await tokenCount(owner.user.id), before);
    });
    it('answers 403 insufficient_scope to an administrator’s read_api token', async () => {
      const admin = await buildUser({ admin: true, scopes: ['read_api'] });
      const before = await tokenCount(owner.user.id);
      const res = await createToken(owner.user.id, { name: 'x', scopes: ['api'] }, admin.token);
      expectStatus(res, 403);
      assert.equal(res.body.error, 'insufficient_scope');
      assert.equal(await tokenCount(owner.user.id), before);
    });
    it('answers 401 without authentication', async () => {
      const res = await createToken(owner.user.id, { name: 'x', scopes: ['api'] }, null);
      expectStatus(res, 401);
      assert.deepEqual(res.body, UNAUTHORIZED);
    });
  });
});

describe('GET /personal_access_tokens', () => {
  let alice: BuiltUser, bob: BuiltUser;
  let aliceCi: { id: number }, aliceRevoked: { id: number }, aliceExpired: { id: number };
  before(async () => {
    alice = await buildUser();
    bob = await buildUser();
    aliceCi = await tokenFor(alice.user.id, { name: 'Deploy CI' });
    aliceRevoked = await tokenFor(alice.user.id, { name: 'old laptop' });
    expectStatus(await api(`/personal_access_tokens/${aliceRevoked.id}`, { method: 'DELETE' }), 204);
    aliceExpired = await tokenFor(alice.user.id, { name: 'expired one' });
    await setExpiry(aliceExpired.id, '2021-06-01');
  });
  const idsOf = (body: { id: number }[]) => body.map((t) => t.id);

  describe('as a user', () => {
    it('lists only the caller’s own tokens, newest first', async () => {
      const res = await api('/personal_access_tokens', { token: alice.token });
      expectStatus(res, 200);
      for (const t of res.body) expectToken(t);
      assert.deepEqual(idsOf(res.body), [aliceExpired.id, aliceRevoked.id, aliceCi.id, alice.tokenId]);
      assert.ok(res.body.every((t: { user_id: number }) => t.user_id === alice.user.id));
      assert.equal(res.headers.get('x-total'), '4');
    });
    it('accepts the caller’s own user_id', async () => {
      const res = await api(`/personal_access_tokens?user_id=${alice.user.id}`, { token: alice.token });
      expectStatus(res, 200);
      assert.equal(res.body.length, 4);
    });
    it('answers 401 for another user’s user_id, never showing their tokens', async () => {
      const res = await api(`/personal_access_tokens?user_id=${bob.user.id}`, { token: alice.token });
      expectStatus(res, 401);
      assert.deepEqual(res.body, UNAUTHORIZED);
    });
    it('filters by state', async () => {
      const active = await api('/personal_access_tokens?state=active', { token: alice.token });
      assert.deepEqual(idsOf(active.body), [aliceCi.id, alice.tokenId]);
      assert.ok(active.body.every((t: { active: boolean }) => t.active));
      const inactive = await api('/personal_access_tokens?state=inactive', { token: alice.token });
      assert.deepEqual(idsOf(inactive.body), [aliceExpired.id, aliceRevoked.id]);
      assert.ok(inactive.body.every((t: { active: boolean }) => !t.active));
    });
    it('filters by revoked', async () => {
      const revoked = await api('/personal_access_tokens?revoked=true', { token: alice.token });
      assert.deepEqual(idsOf(revoked.body), [aliceRevoked.id]);
      assert.equal(revoked.body[0].revoked, true);
      const kept = await api('/personal_access_tokens?revoked=false', { token: alice.token });
      assert.deepEqual(idsOf(kept.body), [aliceExpired.id, aliceCi.id, alice.tokenId]);
    });
    it('searches names, ignoring case', async () => {
      const res = await api('/personal_access_tokens?search=deploy', { token: alice.token });
      assert.deepEqual(idsOf(res.body), [aliceCi.id]);
      const none = await api(`/personal_access_tokens?search=${encodeURIComponent('%')}`, { token: alice.token });
      assert.deepEqual(none.body, [], '% is matched literally');
    });
    it('paginates', async () => {
      const res = await api('/personal_access_tokens?per_page=3&page=2', { token: alice.token });
      expectStatus(res, 200);
      assert.deepEqual(idsOf(res.body), [alice.tokenId]);
      assert.equal(res.headers.get('x-total'), '4');
      assert.equal(res.headers.get('x-total-pages'), '2');
      assert.equal(res.headers.get('x-prev-page'), '1');
      assert.match(res.headers.get('link')!, /rel="prev"/);
    });
  });

  describe('as an administrator', () => {
    it('lists every user’s tokens, or one user’s with user_id', async () => {
      const all = await api('/personal_access_tokens?per_page=100');
      expectStatus(all, 200);
      const owners = new Set(all.body.map((t: { user_id: number }) => t.user_id));
      assert.ok(owners.has(alice.user.id) && owners.has(bob.user.id));
      const bobs = await api(`/personal_access_tokens?user_id=${bob.user.id}`);
      assert.deepEqual(idsOf(bobs.body), [bob.tokenId]);
    });
  });

  describe('with invalid parameters', () => {
    for (const [query, field] of [
      ['state=sleeping', 'state'],
      ['revoked=maybe', 'revoked'],
      ['user_id=abc', 'user_id'],
      ['per_page=0', 'per_page'],
      ['page=0', 'page'],
      ['created_after=yesterday', 'created_after'],
      [`search=${'s'.repeat(256)}`, 'search'],
    ]) {
      it(`answers 400 naming ${field} for ${query.slice(0, 24)}`, async () => {
        const res = await api(`/personal_access_tokens?${query}`, { token: alice.token });
        expectStatus(res, 400);
        assert.ok(res.body.message?.[field], JSON.stringify(res.body));
      });
    }
  });

  describe('without authentication', () => {
    it('answers 401', async () => {
      const res = await api('/personal_access_tokens', { token: null });
      expectStatus(res, 401);
      assert.deepEqual(res.body, UNAUTHORIZED);
    });
  });
});

describe('GET /personal_access_tokens/:id', () => {
  let alice: BuiltUser, bob: BuiltUser;
  before(async () => {
    alice = await buildUser();
    bob = await buildUser();
  });

  it('returns the caller’s own token without its secret', async () => {
    const res = await api(`/personal_access_tokens/${alice.tokenId}`, { token: alice.token });
    expectStatus(res, 200);
    const t = expectToken(res.body);
    assert.equal(t.id, alice.tokenId);
    assert.equal(t.user_id, alice.user.id);
    assert.deepEqual(t.scopes, ['api']);
  });
  it('answers 404 for another user’s token, which an administrator can read', async () => {
    const res = await api(`/personal_access_tokens/${bob.tokenId}`, { token: alice.token });
    expectStatus(res, 404);
    assert.deepEqual(res.body, { message: '404 Token Not Found' });
    const asAdmin = await api(`/personal_access_tokens/${bob.tokenId}`);
    expectStatus(asAdmin, 200);
    assert.equal(expectToken(asAdmin.body).user_id, bob.user.id);
  });
  for (const id of ['999999', '99999999999', 'abc', '-1', '1.0']) {
    it(`answers 404 for ${id}`, async () => {
      const res = await api(`/personal_access_tokens/${id}`);
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: '404 Token Not Found' });
    });
  }
  it('answers 401 without authentication', async () => {
    const res = await api(`/personal_access_tokens/${alice.tokenId}`, { token: null });
    expectStatus(res, 401);
    assert.deepEqual(res.body, UNAUTHORIZED);
  });
});

describe('GET /personal_access_tokens/self', () => {
  it('returns the token that authenticates the request, already marked as used', async () => {
    const u = await buildUser({ scopes: ['read_api'] });
    const res = await api('/personal_access_tokens/self', { token: u.token });
    expectStatus(res, 200);
    const t = expectToken(res.body);
    assert.equal(t.id, u.tokenId);
    assert.deepEqual(t.scopes, ['read_api']);
    assert.match(t.last_used_at ?? '', ISO_DATETIME);
  });
  it('accepts Authorization: Bearer', async () => {
    const u = await buildUser();
    const res = await api('/personal_access_tokens/self', { token: null, headers: { Authorization: `Bearer ${u.token}` } });
    expectStatus(res, 200);
    assert.equal(res.body.id, u.tokenId);
  });
  it('answers 401 without authentication', async () => {
    const res = await api('/personal_access_tokens/self', { token: null });
    expectStatus(res, 401);
    assert.deepEqual(res.body, UNAUTHORIZED);
  });
});

describe('DELETE /personal_access_tokens/:id', () => {
  describe('as the token’s owner', () => {
    it('revokes it: 204, the token stops working and reads as revoked', async () => {
      const u = await buildUser();
      const other = await tokenFor(u.user.id);
      const res = await api(`/personal_access_tokens/${other.id}`, { method: 'DELETE', token: u.token });
      expectStatus(res, 204);
      assert.equal(res.text, '');
      const use = await api('/user', { token: other.token });
      expectStatus(use, 401);
      assert.deepEqual(use.body, UNAUTHORIZED);
      const t = expectToken(await readToken(other.id));
      assert.equal(t.revoked, true);
      assert.equal(t.active, false);
      expectStatus(await api('/user', { token: u.token }), 200);
    });
  });

  describe('as an administrator', () => {
    it('revokes any user’s token', async () => {
      const u = await buildUser();
      expectStatus(await api(`/personal_access_tokens/${u.tokenId}`, { method: 'DELETE' }), 204);
      expectStatus(await api('/user', { token: u.token }), 401);
    });
    it('answers 400 for a token already revoked', async () => {
      const u = await buildUser();
      expectStatus(await api(`/personal_access_tokens/${u.tokenId}`, { method: 'DELETE' }), 204);
      const again = await api(`/personal_access_tokens/${u.tokenId}`, { method: 'DELETE' });
      expectStatus(again, 400);
      assert.ok(again.body.message);
    });
  });

  describe('without the role', () => {
    it('answers 404 for another user’s token, which keeps working', async () => {
      const alice = await buildUser();
      const bob = await buildUser();
      const res = await api(`/personal_access_tokens/${bob.tokenId}`, { method: 'DELETE', token: alice.token });
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: '404 Token Not Found' });
      expectStatus(await api('/user', { token: bob.token }), 200);
      assert.equal((await readToken(bob.tokenId)).revoked, false);
    });
    it('answers 403 insufficient_scope to a read_api token, which stays active', async () => {
      const u = await buildUser({ scopes: ['read_api'] });
      const res = await api(`/personal_access_tokens/${u.tokenId}`, { method: 'DELETE', token: u.token });
      expectStatus(res, 403);
      assert.equal(res.body.error, 'insufficient_scope');
      assert.equal((await readToken(u.tokenId)).revoked, false);
    });
    it('answers 401 without authentication', async () => {
      const u = await buildUser();
      const res = await api(`/personal_access_tokens/${u.tokenId}`, { method: 'DELETE', token: null });
      expectStatus(res, 401);
      assert.equal((await readToken(u.tokenId)).revoked, false);
    });
  });

  describe('for an unknown token', () => {
    for (const id of ['999999', '99999999999', 'abc']) {
      it(`answers 404 for ${id}`, async () => {
        const res = await api(`/personal_access_tokens/${id}`, { method: 'DELETE' });
        expectStatus(res, 404);
        assert.deepEqual(res.body, { message: '404 Token Not Found' });
      });
    }
  });
});

describe('DELETE /personal_access_tokens/self', () => {
  it('revokes the calling token and nothing else', async () => {
    const u = await buildUser();
    const spare = await tokenFor(u.user.id);
    const res = await api('/personal_access_tokens/self', { method: 'DELETE', token: u.token });
    expectStatus(res, 204);
    expectStatus(await api('/user', { token: u.token }), 401);
    assert.equal((await readToken(u.tokenId)).revoked, true);
    expectStatus(await api('/user', { token: spare.token }), 200);
  });
  it('lets a token of any scope read and revoke itself (as on the platform), but not another token', async () => {
    const u = await buildUser({ scopes: ['read_repository'] });
    const spare = await tokenFor(u.user.id);
    expectStatus(await api(`/personal_access_tokens/${spare.id}`, { method: 'DELETE', token: u.token }), 403);
    const self = await api('/personal_access_tokens/self', { token: u.token });
    expectStatus(self, 200);
    assert.equal(self.body.id, u.tokenId);
    expectStatus(await api('/personal_access_tokens/self', { method: 'DELETE', token: u.token }), 204);
    assert.equal((await readToken(u.tokenId)).revoked, true);
    assert.equal((await readToken(spare.id)).revoked, false);
  });
  it('answers 401 with a token that is already revoked', async () => {
    const u = await buildUser();
    expectStatus(await api('/personal_access_tokens/self', { method: 'DELETE', token: u.token }), 204);
    const again = await api('/personal_access_tokens/self', { method: 'DELETE', token: u.token });
    expectStatus(again, 401);
    assert.deepEqual(again.body, UNAUTHORIZED);
  });
  it('answers 401 without authentication', async () => {
    const res = await api('/personal_access_tokens/self', { method: 'DELETE', token: null });
    expectStatus(res, 401);
    assert.deepEqual(res.body, UNAUTHORIZED);
  });
});

describe('authentication with a personal access token', () => {
  let u: BuiltUser;
  before(async () => {
    u = await buildUser();
  });

  describe('presenting the token', () => {
    it('accepts the PRIVATE-TOKEN header', async () => {
      const res = await api('/user', { token: null, headers: { 'PRIVATE-TOKEN': u.token } });
      expectStatus(res, 200);
      assert.equal(res.body.id, u.user.id);
    });
    it('accepts Authorization: Bearer, whatever the case of "Bearer"', async () => {
      for (const scheme of ['Bearer', 'bearer']) {
        const res = await api('/user', { token: null, headers: { Authorization: `${scheme} ${u.token}` } });
        expectStatus(res, 200);
        assert.equal(res.body.id, u.user.id);
      }
    });
    it('accepts the private_token query parameter', async () => {
      const res = await api(`/user?private_token=${encodeURIComponent(u.token)}`, { token: null });
      expectStatus(res, 200);
      assert.equal(res.body.id, u.user.id);
    });
    it('ignores an Authorization header of another scheme', async () => {
      const res = await api('/user', { token: null, headers: { Authorization: `Basic ${Buffer.from(`x:${u.token}`).toString('base64')}` } });
      expectStatus(res, 401);
      assert.deepEqual(res.body, UNAUTHORIZED);
    });
  });

  describe('answering 401 Unauthorized', () => {
    it('without a token', async () => {
      const res = await api('/user', { token: null });
      expectStatus(res, 401);
      assert.deepEqual(res.body, UNAUTHORIZED);
    });
    it('for an unknown token, even where anonymous access is allowed', async () => {
      for (const path of ['/user', '/projects', '/groups']) {
        for (const headers of [{ 'PRIVATE-TOKEN': 'gtpat-not-a-real-token' }, { Authorization: 'Bearer gtpat-not-a-real-token' }] as Record<string, string>[]) {
          const res = await api(path, { token: null, headers });
          expectStatus(res, 401);
          assert.deepEqual(res.body, UNAUTHORIZED);
        }
      }
    });
    it('for a revoked token', async () => {
      const v = await buildUser();
      expectStatus(await api(`/personal_access_tokens/${v.tokenId}`, { method: 'DELETE' }), 204);
      const res = await api('/projects', { token: v.token });
      expectStatus(res, 401);
      assert.deepEqual(res.body, UNAUTHORIZED);
    });
    it('for an expired token, and one that expires today', async () => {
      for (const expiry of ['2020-02-02', daysFromNow(0)]) {
        const v = await buildUser();
        expectStatus(await api('/user', { token: v.token }), 200);
        await setExpiry(v.tokenId, expiry);
        const res = await api('/user', { token: v.token });
        expectStatus(res, 401);
        assert.deepEqual(res.body, UNAUTHORIZED);
        assert.equal((await readToken(v.tokenId)).active, false);
      }
    });
    it('for the token of a blocked user', async () => {
      const v = await buildUser();
      await server.running.db.updateTable('users').set({ state: 'blocked' }).where('id', '=', v.user.id).execute();
      const res = await api('/user', { token: v.token });
      expectStatus(res, 401);
      assert.deepEqual(res.body, UNAUTHORIZED);
    });
  });

  describe('scopes', () => {
    it('lets a read_api token read but not write (403 insufficient_scope, nothing created)', async () => {
      const reader = await buildUser({ scopes: ['read_api'] });
      expectStatus(await api('/groups', { token: reader.token }), 200);
      const path = `readonly${Date.now()}`;
      const res = await api('/groups', { method: 'POST', token: reader.token, json: { name: path, path } });
      expectStatus(res, 403);
      assert.equal(res.body.error, 'insufficient_scope');
      assert.match(res.body.message, /^403 Forbidden/);
      const search = await api(`/groups?search=${path}&all_available=true`);
      assert.deepEqual(search.body, []);
    });
    it('lets a read_user token read users but not groups or projects', async () => {
      const reader = await buildUser({ scopes: ['read_user'] });
      expectStatus(await api('/user', { token: reader.token }), 200);
      expectStatus(await api(`/users/${u.user.id}`, { token: reader.token }), 200);
      for (const path of ['/groups', '/projects']) {
        const res = await api(path, { token: reader.token });
        expectStatus(res, 403);
        assert.equal(res.body.error, 'insufficient_scope');
      }
    });
    it('lets an api token write', async () => {
      const writer = await buildUser({ scopes: ['api'] });
      const group = await buildGroup({ token: writer.token });
      assert.ok(group.id > 0);
    });
    it('refuses a token with no API scope at all', async () => {
      const repo = await buildUser({ scopes: ['read_repository'] });
      const res = await api('/groups', { token: repo.token });
      expectStatus(res, 403);
      assert.equal(res.body.error, 'insufficient_scope');
    });
  });

  describe('last_used_at', () => {
    it('is null until the token is used, then the time of use', async () => {
      const v = await buildUser();
      assert.equal((await readToken(v.tokenId)).last_used_at, null);
      const before = Date.now();
      expectStatus(await api('/user', { token: v.token }), 200);
      const used = (await readToken(v.tokenId)).last_used_at;
      assert.match(used, ISO_DATETIME);
      assert.ok(Date.parse(used) >= before - 1000 && Date.parse(used) <= Date.now() + 1000, used);
    });
    it('is not set by a failed attempt with a revoked token', async () => {
      const v = await buildUser();
      expectStatus(await api(`/personal_access_tokens/${v.tokenId}`, { method: 'DELETE' }), 204);
      expectStatus(await api('/user', { token: v.token }), 401);
      assert.equal((await readToken(v.tokenId)).last_used_at, null);
    });
  });
});

async function sessionOf(user: BuiltUser) {
  const res = await api('/api/console/session', { method: 'POST', token: null, json: { username: user.user.username, password: user.password } });
  expectStatus(res, 201);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  return { token: null, headers: { cookie, 'X-CSRF-Token': res.body.csrf_token as string } };
}

describe('POST /user/personal_access_tokens', () => {
  const create = (json: unknown, opts: { token?: string | null; headers?: Record<string, string> }) =>
    api('/user/personal_access_tokens', { method: 'POST', json, ...opts });

  describe('with a token', () => {
    it('creates a k8s_proxy token for the caller’s own user, expiring tomorrow by default', async () => {
      const me = await buildUser();
      const res = await create({ name: 'kube', scopes: ['k8s_proxy'] }, { token: me.token });
      expectStatus(res, 201);
      const t = expectShape(personalAccessTokenWithToken, res.body);
      assert.deepEqual(Object.keys(res.body).sort(), [...TOKEN_KEYS, 'token'].sort());
      assert.deepEqual([t.user_id, t.name, t.scopes, t.expires_at, t.active], [me.user.id, 'kube', ['k8s_proxy'], daysFromNow(1), true]);
      assert.equal((await readToken(t.id)).user_id, me.user.id);
    });
    it('refuses any other scope with 400 and creates nothing (a token cannot mint a broader one)', async () => {
      const me = await buildUser();
      const before = await tokenCount(me.user.id);
      for (const scopes of [['api'], ['k8s_proxy', 'read_api'], ['self_rotate']]) {
        const res = await create({ name: 'wider', scopes }, { token: me.token });
        expectStatus(res, 400);
        assert.match(JSON.stringify(res.body.message.scopes), /does not have a valid value/);
      }
      assert.equal(await tokenCount(me.user.id), before);
    });
    it('refuses a read_api token (a write) with 403', async () => {
      const reader = await buildUser({ scopes: ['read_api'] });
      const res = await create({ name: 'kube', scopes: ['k8s_proxy'] }, { token: reader.token });
      expectStatus(res, 403);
      assert.equal(res.body.error, 'insufficient_scope');
    });
  });

  describe('from a console session', () => {
    it('creates a token with the scopes and expiry the person chose', async () => {
      const me = await buildUser();
      const session = await sessionOf(me);
      const expiry = daysFromNow(60);
      const res = await create({ name: 'laptop', description: 'my scripts', scopes: ['api', 'read_user'], expires_at: expiry }, session);
      expectStatus(res, 201);
      const t = expectShape(personalAccessTokenWithToken, res.body);
      assert.deepEqual([t.user_id, t.scopes, t.expires_at, t.description], [me.user.id, ['api', 'read_user'], expiry, 'my scripts']);
      expectStatus(await api('/user', { token: t.token }), 200);
    });
  });

  describe('with invalid parameters', () => {
    it('answers 400 for a missing name, no scopes, or an expiry beyond 365 days', async () => {
      const me = await buildUser();
      const session = await sessionOf(me);
      const before = await tokenCount(me.user.id);
      expectStatus(await create({ scopes: ['api'] }, session), 400);
      expectStatus(await create({ name: 'x', scopes: [] }, session), 400);
      const far = await create({ name: 'x', scopes: ['api'], expires_at: daysFromNow(400) }, session);
      expectStatus(far, 400);
      assert.ok(far.body.message.expires_at);
      assert.equal(await tokenCount(me.user.id), before);
    });
  });

  it('answers 401 without credentials', async () => {
    expectStatus(await create({ name: 'x', scopes: ['k8s_proxy'] }, { token: null }), 401);
  });
});

describe('POST /personal_access_tokens/:token_id/rotate', () => {
  const rotate = (id: number | string, opts: { token?: string | null; headers?: Record<string, string>; json?: unknown } = {}) =>
    api(`/personal_access_tokens/${id}/rotate`, { method: 'POST', json: opts.json ?? {}, token: opts.token, headers: opts.headers });

  describe('as the token’s owner', () => {
    it('revokes the old token and returns a new one of the same name and scopes, expiring in 7 days by default', async () => {
      const me = await buildUser();
      const old = await tokenFor(me.user.id, { name: 'deploy', description: 'nightly', scopes: ['read_api', 'read_user'] });
      const res = await rotate(old.id, { token: me.token });
      expectStatus(res, 200);
      const t = expectShape(personalAccessTokenWithToken, res.body);
      assert.deepEqual(Object.keys(res.body).sort(), [...TOKEN_KEYS, 'token'].sort());
      assert.notEqual(t.id, old.id);
      assert.deepEqual([t.name, t.description, t.scopes, t.user_id, t.expires_at, t.active], ['deploy', 'nightly', ['read_api', 'read_user'], me.user.id, daysFromNow(7), true]);
      assert.equal((await readToken(old.id)).revoked, true);
      expectStatus(await api('/user', { token: old.token }), 401);
      expectStatus(await api('/user', { token: t.token }), 200);
    });
    it('takes the expiry asked for, from a console session too', async () => {
      const me = await buildUser();
      const old = await tokenFor(me.user.id);
      const res = await rotate(old.id, { ...(await sessionOf(me)), json: { expires_at: daysFromNow(90) } });
      expectStatus(res, 200);
      assert.equal(res.body.expires_at, daysFromNow(90));
    });
    it('refuses a revoked or an expired token with 400', async () => {
      const me = await buildUser();
      const revoked = await tokenFor(me.user.id);
      expectStatus(await api(`/personal_access_tokens/${revoked.id}`, { method: 'DELETE' }), 204);
      const r1 = await rotate(revoked.id, { token: me.token });
      expectStatus(r1, 400);
      assert.equal(r1.body.message, '400 Bad request - token already revoked');
      const expired = await tokenFor(me.user.id);
      await setExpiry(expired.id, '2020-01-01');
      const before = await tokenCount(me.user.id);
      expectStatus(await rotate(expired.id, { token: me.token }), 400);
      assert.equal(await tokenCount(me.user.id), before);
    });
    it('answers 400 for an expiry in the past, and leaves the token working', async () => {
      const me = await buildUser();
      const old = await tokenFor(me.user.id);
      expectStatus(await rotate(old.id, { token: me.token, json: { expires_at: '2020-01-01' } }), 400);
      expectStatus(await api('/user', { token: old.token }), 200);
    });
  });

  describe('without the right', () => {
    it('answers 401 to another user for their token or an unknown one, and 404 to an administrator for an unknown one', async () => {
      const owner = await buildUser();
      const other = await buildUser();
      const t = await tokenFor(owner.user.id);
      const res = await rotate(t.id, { token: other.token });
      expectStatus(res, 401);
      assert.deepEqual(res.body, UNAUTHORIZED);
      expectStatus(await rotate(987654321, { token: other.token }), 401);
      expectStatus(await rotate(987654321), 404);
      expectStatus(await api('/user', { token: t.token }), 200);
    });
    it('lets an administrator rotate anyone’s token', async () => {
      const owner = await buildUser();
      const t = await tokenFor(owner.user.id);
      const res = await rotate(t.id);
      expectStatus(res, 200);
      assert.equal(res.body.user_id, owner.user.id);
    });
    it('needs the api scope to rotate a token by its id', async () => {
      const me = await buildUser({ scopes: ['read_api', 'self_rotate'] });
      const t = await tokenFor(me.user.id);
      expectStatus(await rotate(t.id, { token: me.token }), 403);
      expectStatus(await api('/user', { token: t.token }), 200);
    });
  });

  describe('self', () => {
    it('rotates the calling token with the api or self_rotate scope', async () => {
      for (const scopes of [['api'], ['read_api', 'self_rotate']]) {
        const me = await buildUser({ scopes });
        const res = await rotate('self', { token: me.token });
        expectStatus(res, 200);
        assert.deepEqual([res.body.scopes, res.body.expires_at], [scopes, daysFromNow(7)]);
        expectStatus(await api('/personal_access_tokens/self', { token: me.token }), 401);
        expectStatus(await api('/personal_access_tokens/self', { token: res.body.token }), 200);
      }
    });
    it('refuses a token without api or self_rotate (403), and a console session (405)', async () => {
      const reader = await buildUser({ scopes: ['read_api'] });
      expectStatus(await rotate('self', { token: reader.token }), 403);
      expectStatus(await api('/user', { token: reader.token }), 200);
      const res = await rotate('self', await sessionOf(reader));
      expectStatus(res, 405);
    });
  });
});

describe('GET /api/console/personal_access_tokens/rotations', () => {
  it('tells your rotated tokens from your revoked ones; another user’s are not told, an administrator’s are', async () => {
    const { user, token } = await buildUser();
    const rotated = await tokenFor(user.id, { name: 'rotated' });
    const revoked = await tokenFor(user.id, { name: 'revoked' });
    const next = await api(`/personal_access_tokens/${rotated.id}/rotate`, { method: 'POST' });
    expectStatus(next, 200);
    expectStatus(await api(`/personal_access_tokens/${revoked.id}`, { method: 'DELETE' }), 204);

    const own = await api(`/api/console/personal_access_tokens/rotations?ids=${rotated.id},${revoked.id}`, { token });
    expectStatus(own, 200);
    assert.deepEqual(own.body.map((r: { id: number; rotated_to: number }) => [r.id, r.rotated_to]), [[rotated.id, next.body.id]]);
    const stranger = await buildUser();
    const theirs = await api(`/api/console/personal_access_tokens/rotations?ids=${rotated.id}`, { token: stranger.token });
    expectStatus(theirs, 200);
    assert.deepEqual(theirs.body, []);
    const admin = await api(`/api/console/personal_access_tokens/rotations?ids=${rotated.id},${revoked.id}`);
    assert.deepEqual(admin.body.map((r: { id: number }) => r.id), [rotated.id]);
    expectStatus(await api(`/api/console/personal_access_tokens/rotations?ids=${rotated.id}`, { token: null }), 401);
  });
});
