import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { groupAccessToken, groupAccessTokenWithToken } from '../../../shared/src/group-access-tokens.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function setup() {
  const group = await buildGroup();
  const owner = await userWithRole(group.id, 50);
  return { group, owner };
}
type Built = Awaited<ReturnType<typeof setup>>;
async function createToken(groupId: number, token: string, body: Record<string, unknown> = {}) {
  const res = await api(`/groups/${groupId}/access_tokens`, { method: 'POST', token, json: { name: 'ci', scopes: ['api'], ...body } });
  expectStatus(res, 201);
  return expectShape(groupAccessTokenWithToken, res.body);
}

describe('POST /groups/:id/access_tokens', () => {
  describe('as an Owner', () => {
    it('creates a token with defaults (Maintainer, the maximum lifetime) and returns the plaintext once', async () => {
      const { group, owner } = await setup();
      const t = await createToken(group.id, owner.token, { description: 'deploys' });
      assert.equal(t.access_level, 40);
      assert.equal(t.expires_at, day(365));
      assert.equal(t.active, true);
      assert.equal(t.revoked, false);
      assert.equal(t.resource_id, group.id);
      assert.match(t.token, /^gtpat-/);
      const again = await api(`/groups/${group.id}/access_tokens/${t.id}`, { token: owner.token });
      expectStatus(again, 200);
      expectShape(groupAccessToken, again.body);
      assert.ok(!('token' in again.body), 'the plaintext is never shown again');
    });
    it('creates a token that works as a credential, in its group tree only and within its scopes', async () => {
      const { group, owner } = await setup();
      const sub = await buildGroup({ parent_id: group.id });
      const project = await buildProject(sub.id);
      const other = await buildGroup();
      const t = await createToken(group.id, owner.token, { access_level: 30, scopes: ['read_api'] });
      expectStatus(await api(`/groups/${group.id}`, { token: t.token }), 200);
      expectStatus(await api(`/groups/${sub.id}`, { token: t.token }), 200);
      expectStatus(await api(`/projects/${project.id}`, { token: t.token }), 200);
      expectStatus(await api(`/groups/${other.id}`, { token: t.token }), 404);
      const write = await api(`/groups/${group.id}`, { method: 'PUT', token: t.token, json: { description: 'x' } });
      expectStatus(write, 403);
      const listed = await api(`/groups/${group.id}/access_tokens/${t.id}`, { token: owner.token });
      assert.ok(listed.body.last_used_at, 'last_used_at is kept');
    });
    it('accepts every listed role', async () => {
      const { group, owner } = await setup();
      for (const level of [10, 15, 20, 30, 40, 50]) assert.equal((await createToken(group.id, owner.token, { access_level: level })).access_level, level);
    });
  });

  describe('with invalid parameters', () => {
    const cases: [string, Record<string, unknown>, string | RegExp][] = [
      ['no name', { name: undefined }, 'name is missing'],
      ['no scopes', { scopes: undefined }, 'scopes is missing'],
      ['an unknown scope', { scopes: ['root'] }, 'scopes'],
      ['a description over 255 characters', { description: 'd'.repeat(256) }, 'description'],
      ['an unlisted access level', { access_level: 35 }, 'access_level'],
      ['an expiry past the maximum lifetime', { expires_at: day(366) }, 'expires_at'],
      ['an expiry in the past', { expires_at: day(-1) }, 'expires_at'],
      ['a malformed expiry', { expires_at: 'tomorrow' }, 'expires_at'],
    ];
    // Nothing is created, so one group and Owner serve every case.
    let group: Built['group'], owner: Built['owner'];
    before(async () => ({ group, owner } = await setup()));
    for (const [what, body, expected] of cases) {
      it(`answers 400 for ${what} and creates nothing`, async () => {
        const res = await api(`/groups/${group.id}/access_tokens`, { method: 'POST', token: owner.token, json: { name: 'ci', scopes: ['api'], ...body } });
        expectStatus(res, 400);
        if (typeof expected === 'string' && expected.includes(' ')) assert.deepEqual(res.body, { message: expected });
        else assert.ok(res.body.message[expected as string], JSON.stringify(res.body));
        assert.deepEqual((await api(`/groups/${group.id}/access_tokens`, { token: owner.token })).body, []);
      });
    }
  });

  describe('without the role', () => {
    it('answers 403 to a Maintainer, 401 without a token, 404 for an unknown group', async () => {
      const { group } = await setup();
      const maintainer = await userWithRole(group.id, 40);
      expectStatus(await api(`/groups/${group.id}/access_tokens`, { method: 'POST', token: maintainer.token, json: { name: 'x', scopes: ['api'] } }), 403);
      expectStatus(await api(`/groups/${group.id}/access_tokens`, { method: 'POST', token: null, json: { name: 'x', scopes: ['api'] } }), 401);
      const unknown = await api('/groups/987654/access_tokens', { method: 'POST', json: { name: 'x', scopes: ['api'] } });
      expectStatus(unknown, 404);
      assert.deepEqual(unknown.body, { message: '404 Group Not Found' });
    });
  });
});

describe('GET /groups/:id/access_tokens', () => {
  it('filters by state, revoked, search and dates, and sorts', async () => {
    const { group, owner } = await setup();
    const a = await createToken(group.id, owner.token, { name: 'alpha', expires_at: day(10) });
    const b = await createToken(group.id, owner.token, { name: 'beta', expires_at: day(20) });
    const c = await createToken(group.id, owner.token, { name: 'gamma deploy', expires_at: day(30) });
    expectStatus(await api(`/groups/${group.id}/access_tokens/${b.id}`, { method: 'DELETE', token: owner.token }), 204);
    const list = async (q: string) => {
      const res = await api(`/groups/${group.id}/access_tokens?${q}`, { token: owner.token });
      expectStatus(res, 200);
      for (const t of res.body) expectShape(groupAccessToken, t);
      return res.body.map((t: { id: number }) => t.id);
    };
    assert.deepEqual(await list('state=active&sort=name_asc'), [a.id, c.id]);
    assert.deepEqual(await list('state=inactive'), [b.id]);
    assert.deepEqual(await list('revoked=true'), [b.id]);
    assert.deepEqual(await list('search=DEPLOY'), [c.id]);
    assert.deepEqual(await list(`expires_before=${day(15)}`), [a.id]);
    assert.deepEqual(await list(`expires_after=${day(15)}&sort=expires_desc`), [c.id, b.id]);
    assert.deepEqual(await list('sort=name_desc'), [c.id, b.id, a.id]);
    assert.deepEqual(await list('created_after=2000-01-01T00:00:00Z&sort=created_asc'), [a.id, b.id, c.id]);
    assert.deepEqual(await list('created_before=2000-01-01T00:00:00Z'), []);
  });
  describe('refusing', () => {
    // These calls change nothing: one group and Owner serve them all.
    let group: Built['group'], owner: Built['owner'];
    before(async () => ({ group, owner } = await setup()));
    it('answers 400 for an unknown sort or state', async () => {
      for (const q of ['sort=size_asc', 'state=sleeping', 'revoked=perhaps', 'created_after=yesterday']) {
        expectStatus(await api(`/groups/${group.id}/access_tokens?${q}`, { token: owner.token }), 400);
      }
    });
    it('answers 403 to a Developer', async () => {
      const dev = await userWithRole(group.id, 30);
      expectStatus(await api(`/groups/${group.id}/access_tokens`, { token: dev.token }), 403);
    });
    it('answers 404 for an unknown token', async () => {
      expectStatus(await api(`/groups/${group.id}/access_tokens/99999`, { token: owner.token }), 404);
      expectStatus(await api(`/groups/${group.id}/access_tokens/abc`, { token: owner.token }), 404);
    });
  });
});

describe('POST /groups/:id/access_tokens/:token_id/rotate', () => {
  it('revokes the old token at once and returns a new one of the same family', async () => {
    const { group, owner } = await setup();
    const t = await createToken(group.id, owner.token, { name: 'rotating', access_level: 30, scopes: ['api', 'read_repository'] });
    const res = await api(`/groups/${group.id}/access_tokens/${t.id}/rotate`, { method: 'POST', token: owner.token, json: { expires_at: day(40) } });
    expectStatus(res, 200);
    const next = expectShape(groupAccessTokenWithToken, res.body);
    assert.notEqual(next.id, t.id);
    assert.notEqual(next.token, t.token);
    assert.equal(next.name, 'rotating');
    assert.equal(next.access_level, 30);
    assert.deepEqual(next.scopes, ['api', 'read_repository']);
    assert.equal(next.expires_at, day(40));
    assert.equal(next.user_id, t.user_id);
    expectStatus(await api('/groups', { token: t.token }), 401);
    expectStatus(await api(`/groups/${group.id}`, { token: next.token }), 200);
    assert.equal((await api(`/groups/${group.id}/access_tokens/${t.id}`, { token: owner.token })).body.revoked, true);
  });
  it('defaults the new expiry to one week', async () => {
    const { group, owner } = await setup();
    const t = await createToken(group.id, owner.token);
    const res = await api(`/groups/${group.id}/access_tokens/${t.id}/rotate`, { method: 'POST', token: owner.token });
    expectStatus(res, 200);
    assert.equal(res.body.expires_at, day(7));
  });
  it('rotates the calling group access token with self', async () => {
    const { group, owner } = await setup();
    const t = await createToken(group.id, owner.token);
    const res = await api(`/groups/${group.id}/access_tokens/self/rotate`, { method: 'POST', token: t.token });
    expectStatus(res, 200);
    expectStatus(await api(`/groups/${group.id}`, { token: t.token }), 401);
    expectStatus(await api(`/groups/${group.id}`, { token: res.body.token }), 200);
  });
  it('treats rotating an already revoked token as reuse: the whole family is revoked and the call fails with 401', async () => {
    const { group, owner } = await setup();
    const t = await createToken(group.id, owner.token);
    const next = (await api(`/groups/${group.id}/access_tokens/${t.id}/rotate`, { method: 'POST', token: owner.token })).body;
    const third = (await api(`/groups/${group.id}/access_tokens/${next.id}/rotate`, { method: 'POST', token: owner.token })).body;
    expectStatus(await api(`/groups/${group.id}`, { token: third.token }), 200);
    const reuse = await api(`/groups/${group.id}/access_tokens/${t.id}/rotate`, { method: 'POST', token: owner.token });
    expectStatus(reuse, 401);
    expectStatus(await api(`/groups/${group.id}`, { token: third.token }), 401);
    const active = await api(`/groups/${group.id}/access_tokens?state=active`, { token: owner.token });
    assert.deepEqual(active.body, []);
  });
  it('leaves other families alone on reuse', async () => {
    const { group, owner } = await setup();
    const a = await createToken(group.id, owner.token);
    const b = await createToken(group.id, owner.token);
    await api(`/groups/${group.id}/access_tokens/${a.id}/rotate`, { method: 'POST', token: owner.token });
    expectStatus(await api(`/groups/${group.id}/access_tokens/${a.id}/rotate`, { method: 'POST', token: owner.token }), 401);
    expectStatus(await api(`/groups/${group.id}`, { token: b.token }), 200);
  });
  describe('error codes', () => {
    it('401: a group access token rotating another one', async () => {
      const { group, owner } = await setup();
      const a = await createToken(group.id, owner.token);
      const b = await createToken(group.id, owner.token);
      expectStatus(await api(`/groups/${group.id}/access_tokens/${b.id}/rotate`, { method: 'POST', token: a.token }), 401);
      expectStatus(await api(`/groups/${group.id}`, { token: b.token }), 200);
    });
    it('401: a caller without the Owner role, and a missing or revoked credential', async () => {
      const { group, owner } = await setup();
      const t = await createToken(group.id, owner.token);
      const maintainer = await userWithRole(group.id, 40);
      expectStatus(await api(`/groups/${group.id}/access_tokens/${t.id}/rotate`, { method: 'POST', token: maintainer.token }), 401);
      expectStatus(await api(`/groups/${group.id}/access_tokens/99999/rotate`, { method: 'POST', token: owner.token }), 401);
      expectStatus(await api(`/groups/${group.id}/access_tokens/${t.id}/rotate`, { method: 'POST', token: null }), 401);
      expectStatus(await api(`/groups/${group.id}`, { token: t.token }), 200);
    });
    it('403 instead of 401 for a console session without the role, so the console does not think it was signed out', async () => {
      const { group, owner } = await setup();
      const t = await createToken(group.id, owner.token);
      const maintainer = await userWithRole(group.id, 40);
      const signIn = await api('/api/console/session', { method: 'POST', token: null, json: { username: maintainer.user.username, password: maintainer.password } });
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
      const res = await api(`/groups/${group.id}/access_tokens/${t.id}/rotate`, { method: 'POST', token: null, headers: { cookie, 'X-CSRF-Token': signIn.body.csrf_token } });
      expectStatus(res, 403);
      expectStatus(await api(`/groups/${group.id}`, { token: t.token }), 200);
    });
    it('401: an expired token', async () => {
      const { group, owner } = await setup();
      const t = await createToken(group.id, owner.token);
      await server.running.db.updateTable('personal_access_tokens').set({ expires_at: day(-1) }).where('id', '=', t.id).execute();
      expectStatus(await api(`/groups/${group.id}/access_tokens/${t.id}/rotate`, { method: 'POST', token: owner.token }), 401);
    });
    it('403: a token not allowed to rotate itself', async () => {
      const { group, owner } = await setup();
      const t = await createToken(group.id, owner.token, { scopes: ['read_api'] });
      expectStatus(await api(`/groups/${group.id}/access_tokens/self/rotate`, { method: 'POST', token: t.token }), 403);
      const selfRotate = await createToken(group.id, owner.token, { scopes: ['read_api', 'self_rotate'] });
      expectStatus(await api(`/groups/${group.id}/access_tokens/self/rotate`, { method: 'POST', token: selfRotate.token }), 200);
    });
    it('404: an administrator asking for a token that does not exist', async () => {
      const { group } = await setup();
      const res = await api(`/groups/${group.id}/access_tokens/99999/rotate`, { method: 'POST' });
      expectStatus(res, 404);
    });
    it('405: self with a credential that is not a group access token', async () => {
      const { group, owner } = await setup();
      const res = await api(`/groups/${group.id}/access_tokens/self/rotate`, { method: 'POST', token: owner.token });
      expectStatus(res, 405);
      assert.match(res.body.message, /^405/);
    });
    it('400: a malformed expiry, rotating nothing', async () => {
      const { group, owner } = await setup();
      const t = await createToken(group.id, owner.token);
      expectStatus(await api(`/groups/${group.id}/access_tokens/${t.id}/rotate`, { method: 'POST', token: owner.token, json: { expires_at: 'soon' } }), 400);
      expectStatus(await api(`/groups/${group.id}/access_tokens/${t.id}/rotate`, { method: 'POST', token: owner.token, json: { expires_at: day(400) } }), 400);
      expectStatus(await api(`/groups/${group.id}`, { token: t.token }), 200);
    });
  });
});

describe('DELETE /groups/:id/access_tokens/:token_id', () => {
  it('revokes the token (204) so that it no longer authenticates', async () => {
    const { group, owner } = await setup();
    const t = await createToken(group.id, owner.token);
    const res = await api(`/groups/${group.id}/access_tokens/${t.id}`, { method: 'DELETE', token: owner.token });
    expectStatus(res, 204);
    assert.equal(res.text, '');
    expectStatus(await api(`/groups/${group.id}`, { token: t.token }), 401);
    const again = await api(`/groups/${group.id}/access_tokens/${t.id}`, { method: 'DELETE', token: owner.token });
    expectStatus(again, 400);
  });
  it('answers 404 for an unknown token and 403 to a Maintainer', async () => {
    const { group, owner } = await setup();
    const t = await createToken(group.id, owner.token);
    const maintainer = await userWithRole(group.id, 40);
    expectStatus(await api(`/groups/${group.id}/access_tokens/424242`, { method: 'DELETE', token: owner.token }), 404);
    expectStatus(await api(`/groups/${group.id}/access_tokens/${t.id}`, { method: 'DELETE', token: maintainer.token }), 403);
    expectStatus(await api(`/groups/${group.id}`, { token: t.token }), 200);
  });
  it('does not reach tokens of another group', async () => {
    const a = await setup();
    const b = await setup();
    const t = await createToken(a.group.id, a.owner.token);
    expectStatus(await api(`/groups/${b.group.id}/access_tokens/${t.id}`, { method: 'DELETE', token: b.owner.token }), 404);
  });
});

describe('GET /api/console/groups/:id/access_tokens/rotations', () => {
  it('tells the rotated tokens of the group from the revoked ones, with their successor, and nothing of another group', async () => {
    const { group, owner } = await setup();
    const rotated = await createToken(group.id, owner.token, { name: 'rotated' });
    const revoked = await createToken(group.id, owner.token, { name: 'revoked' });
    const next = await api(`/groups/${group.id}/access_tokens/${rotated.id}/rotate`, { method: 'POST', token: owner.token });
    expectStatus(next, 200);
    expectStatus(await api(`/groups/${group.id}/access_tokens/${revoked.id}`, { method: 'DELETE', token: owner.token }), 204);
    const other = await setup();
    const elsewhere = await createToken(other.group.id, other.owner.token);
    expectStatus(await api(`/groups/${other.group.id}/access_tokens/${elsewhere.id}/rotate`, { method: 'POST', token: other.owner.token }), 200);

    const res = await api(`/api/console/groups/${group.id}/access_tokens/rotations?ids=${rotated.id},${revoked.id},${elsewhere.id}`, { token: owner.token });
    expectStatus(res, 200);
    assert.equal(res.body.length, 1);
    assert.deepEqual({ id: res.body[0].id, rotated_to: res.body[0].rotated_to }, { id: rotated.id, rotated_to: next.body.id });
    assert.match(res.body[0].rotated_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
  it('is for Owners only, and refuses a malformed or overlong id list with the platform’s 400', async () => {
    const { group } = await setup();
    const developer = await userWithRole(group.id, 30);
    expectStatus(await api(`/api/console/groups/${group.id}/access_tokens/rotations?ids=1`, { token: developer.token }), 403);
    const bad = await api(`/api/console/groups/${group.id}/access_tokens/rotations?ids=1,x`);
    expectStatus(bad, 400);
    assert.ok(bad.body.error || bad.body.message, JSON.stringify(bad.body));
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    expectStatus(await api(`/api/console/groups/${group.id}/access_tokens/rotations?ids=${many}`), 400);
  });
});
