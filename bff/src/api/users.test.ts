import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { user } from '../../../shared/src/users.ts';
import { buildUser, expectShape, expectStatus, request as api, startTestServer, type ApiResponse, type TestServer } from '../../test/harness.ts';
import { expectPlatformSchema } from '../../test/platform-schemas.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

type BuiltUser = Awaited<ReturnType<typeof buildUser>>;

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** What anyone signed in sees of a user. */
const PUBLIC_KEYS = ['avatar_url', 'bio', 'bot', 'created_at', 'id', 'locked', 'name', 'public_email', 'state', 'username', 'web_url'];
/** What the user themself and administrators see as well. */
const PRIVATE_KEYS = ['can_create_group', 'can_create_project', 'email', 'external', 'is_admin', 'last_activity_on', 'last_sign_in_at', 'two_factor_enabled'];
const FULL_KEYS = [...PUBLIC_KEYS, ...PRIVATE_KEYS].sort();

/** A user body checked three ways: our schema, the exact field set, the platform's user/basic.json. */
function expectUser(body: Record<string, unknown>, keys: 'public' | 'full') {
  const u = expectShape(user, body);
  assert.deepEqual(Object.keys(body).sort(), keys === 'full' ? FULL_KEYS : [...PUBLIC_KEYS].sort());
  expectPlatformSchema('public_api/v4/user/basic.json', body);
  assert.match(u.created_at, ISO_DATETIME);
  assert.equal(u.web_url, `${server.url}/${u.username}`);
  return u;
}

function links(res: ApiResponse): Record<string, URL> {
  const out: Record<string, URL> = {};
  for (const part of (res.headers.get('link') ?? '').split(',')) {
    const m = /<([^>]+)>;\s*rel="(\w+)"/.exec(part);
    if (m) out[m[2]] = new URL(m[1]);
  }
  return out;
}

const uniqueName = (prefix: string) => `${prefix}${crypto.randomBytes(4).toString('hex')}`;
const ids = (body: { id: number }[]) => body.map((u) => u.id);

describe('GET /user', () => {
  let me: BuiltUser;
  before(async () => {
    me = await buildUser();
  });

  describe('as a signed-in user', () => {
    it('returns the caller with their private fields', async () => {
      const res = await api('/user', { token: me.token });
      expectStatus(res, 200);
      const u = expectUser(res.body, 'full');
      assert.equal(u.id, me.user.id);
      assert.equal(u.username, me.user.username);
      assert.equal(u.name, me.user.name);
      assert.equal(u.email, `${me.user.username}@example.com`);
      assert.equal(u.state, 'active');
      assert.equal(u.is_admin, false);
      assert.equal(u.external, false);
      assert.equal(u.bot, false);
    });
    it('says is_admin for an administrator', async () => {
      const res = await api('/user');
      expectStatus(res, 200);
      assert.equal(expectUser(res.body, 'full').is_admin, true);
      assert.equal(res.body.username, 'root');
    });
    it('accepts Authorization: Bearer as well as PRIVATE-TOKEN', async () => {
      const res = await api('/user', { token: null, headers: { Authorization: `Bearer ${me.token}` } });
      expectStatus(res, 200);
      assert.equal(res.body.id, me.user.id);
    });
    for (const scope of ['read_user', 'read_api', 'api']) {
      it(`works with a ${scope} token`, async () => {
        const u = await buildUser({ scopes: [scope] });
        const res = await api('/user', { token: u.token });
        expectStatus(res, 200);
        assert.equal(res.body.id, u.user.id);
      });
    }
  });

  describe('without authentication', () => {
    it('answers 401', async () => {
      const res = await api('/user', { token: null });
      expectStatus(res, 401);
      assert.deepEqual(res.body, { message: '401 Unauthorized' });
    });
    it('answers 401 to an unknown token', async () => {
      const res = await api('/user', { token: 'glpat-unknown' });
      expectStatus(res, 401);
      assert.deepEqual(res.body, { message: '401 Unauthorized' });
    });
  });

  describe('with a token without a user scope', () => {
    it('answers 403 insufficient_scope to a read_repository token', async () => {
      const u = await buildUser({ scopes: ['read_repository'] });
      const res = await api('/user', { token: u.token });
      expectStatus(res, 403);
      assert.equal(res.body.error, 'insufficient_scope');
    });
  });
});

describe('GET /users', () => {
  let alice: BuiltUser, bob: BuiltUser, carol: BuiltUser;
  const tag = uniqueName('zq');
  before(async () => {
    // Three users sharing a rare fragment, so searches have a known answer.
    for (const who of ['alice', 'bob', 'carol']) {
      const username = `${who}_${tag}`;
      const res = await api('/users', {
        method: 'POST',
        json: { username, name: `${who[0].toUpperCase()}${who.slice(1)} ${tag}`, email: `${username}@corp.test`, password: 'password-123', ...(who === 'carol' ? { public_email: `${username}@public.test` } : {}) },
      });
      expectStatus(res, 201);
    }
    const byName = async (who: string) => {
      const list = await api(`/users?username=${who}_${tag}`);
      return { user: list.body[0], token: '', password: '', tokenId: 0 } as BuiltUser;
    };
    [alice, bob, carol] = [await byName('alice'), await byName('bob'), await byName('carol')];
    // A token for bob, to call as a regular user.
    const tok = await api(`/users/${bob.user.id}/personal_access_tokens`, { method: 'POST', json: { name: 'bob', scopes: ['api'] } });
    expectStatus(tok, 201);
    bob.token = tok.body.token;
  });

  describe('as a signed-in user', () => {
    it('lists users with their public fields only, and the caller’s own record in full', async () => {
      const res = await api(`/users?search=${tag}`, { token: bob.token });
      expectStatus(res, 200);
      assert.deepEqual(ids(res.body).sort(), [alice.user.id, bob.user.id, carol.user.id].sort());
      for (const u of res.body) expectUser(u, u.id === bob.user.id ? 'full' : 'public');
    });
    it('orders by id, newest first, by default; order_by and sort change it', async () => {
      const byDefault = ids((await api(`/users?search=${tag}`, { token: bob.token })).body);
      assert.deepEqual(byDefault, [carol.user.id, bob.user.id, alice.user.id]);
      const byUsername = (await api(`/users?search=${tag}&order_by=username&sort=desc`, { token: bob.token })).body.map((u: { username: string }) => u.username);
      assert.deepEqual(byUsername, [`carol_${tag}`, `bob_${tag}`, `alice_${tag}`]);
    });
    it('searches username and name, ignoring case', async () => {
      const res = await api(`/users?search=ALICE_${tag.toUpperCase()}`, { token: bob.token });
      assert.deepEqual(ids(res.body), [alice.user.id]);
      const byName = await api(`/users?search=${encodeURIComponent(`Carol ${tag}`)}`, { token: bob.token });
      assert.deepEqual(ids(byName.body), [carol.user.id]);
    });
    it('matches a public email exactly, never a private one', async () => {
      const pub = await api(`/users?search=carol_${tag}@public.test`, { token: bob.token });
      assert.deepEqual(ids(pub.body), [carol.user.id]);
      const priv = await api(`/users?search=alice_${tag}@corp.test`, { token: bob.token });
      assert.deepEqual(priv.body, []);
    });
    it('finds exactly one user by username, ignoring case', async () => {
      const res = await api(`/users?username=BOB_${tag.toUpperCase()}`, { token: bob.token });
      expectStatus(res, 200);
      assert.deepEqual(ids(res.body), [bob.user.id]);
      assert.deepEqual((await api(`/users?username=${tag}`, { token: bob.token })).body, [], 'username is not a fragment search');
    });
    it('escapes LIKE wildcards in search', async () => {
      const res = await api(`/users?search=${encodeURIComponent('%_%')}`, { token: bob.token });
      expectStatus(res, 200);
      assert.ok(res.body.every((u: { username: string; name: string }) => `${u.username}${u.name}`.includes('%_%')));
    });
    it('never adds custom attributes for a non-administrator', async () => {
      const res = await api(`/users?search=${tag}&with_custom_attributes=true`, { token: bob.token });
      assert.ok(res.body.every((u: object) => !('custom_attributes' in u)));
    });
    it('accepts a read_user token', async () => {
      const u = await buildUser({ scopes: ['read_user'] });
      const res = await api(`/users?username=alice_${tag}`, { token: u.token });
      expectStatus(res, 200);
      assert.deepEqual(ids(res.body), [alice.user.id]);
    });
  });

  describe('as an administrator', () => {
    it('sees every user in full and finds one by private email', async () => {
      const res = await api(`/users?search=alice_${tag}@corp.test`);
      expectStatus(res, 200);
      assert.deepEqual(ids(res.body), [alice.user.id]);
      expectUser(res.body[0], 'full');
      assert.equal(res.body[0].email, `alice_${tag}@corp.test`);
    });
    it('filters administrators with admins=true', async () => {
      const res = await api('/users?admins=true&per_page=100');
      expectStatus(res, 200);
      assert.ok(res.body.length >= 1);
      assert.ok(res.body.every((u: { is_admin: boolean }) => u.is_admin));
    });
  });

  describe('pagination', () => {
    it('sets X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page and Link', async () => {
      const first = await api(`/users?search=${tag}&per_page=2`, { token: bob.token });
      expectStatus(first, 200);
      assert.deepEqual(ids(first.body), [carol.user.id, bob.user.id]);
      assert.equal(first.headers.get('x-total'), '3');
      assert.equal(first.headers.get('x-total-pages'), '2');
      assert.equal(first.headers.get('x-per-page'), '2');
      assert.equal(first.headers.get('x-page'), '1');
      assert.equal(first.headers.get('x-next-page'), '2');
      assert.equal(first.headers.get('x-prev-page'), '');
      const l = links(first);
      assert.deepEqual(Object.keys(l).sort(), ['first', 'last', 'next']);
      assert.equal(l.next.pathname, '/api/v4/users');
      assert.equal(l.next.searchParams.get('search'), tag, 'links keep the filters');
      assert.equal(l.next.searchParams.get('page'), '2');
      assert.equal(l.last.searchParams.get('page'), '2');
      assert.equal(l.first.searchParams.get('page'), '1');

      const second = await api(`${l.next.pathname}${l.next.search}`, { token: bob.token });
      expectStatus(second, 200);
      assert.deepEqual(ids(second.body), [alice.user.id]);
      assert.equal(second.headers.get('x-page'), '2');
      assert.equal(second.headers.get('x-next-page'), '');
      assert.equal(second.headers.get('x-prev-page'), '1');
      const l2 = links(second);
      assert.deepEqual(Object.keys(l2).sort(), ['first', 'last', 'prev']);
      assert.equal(l2.prev.searchParams.get('page'), '1');
    });
    it('never puts the token of a query-string credential into Link', async () => {
      const res = await api(`/users?search=${tag}&per_page=1&private_token=${bob.token}`, { token: null });
      expectStatus(res, 200);
      assert.ok(!(res.headers.get('link') ?? '').includes(bob.token));
      assert.ok(res.headers.get('link')!.includes('rel="next"'));
    });
    it('defaults to 20 per page and caps per_page at 100', async () => {
      assert.equal((await api('/users', { token: bob.token })).headers.get('x-per-page'), '20');
      const res = await api('/users?per_page=500', { token: bob.token });
      expectStatus(res, 200);
      assert.equal(res.headers.get('x-per-page'), '100');
    });
  });

  describe('with invalid parameters', () => {
    for (const [query, field] of [
      ['per_page=0', 'per_page'],
      ['page=0', 'page'],
      ['per_page=abc', 'per_page'],
      ['page=1.5', 'page'],
      ['order_by=password_digest', 'order_by'],
      ['sort=sideways', 'sort'],
      ['active=maybe', 'active'],
      [`search=${'a'.repeat(256)}`, 'search'],
    ]) {
      it(`answers 400 naming ${field} for ${query.slice(0, 24)}`, async () => {
        const res = await api(`/users?${query}`, { token: bob.token });
        expectStatus(res, 400);
        assert.ok(Array.isArray(res.body.message?.[field]), JSON.stringify(res.body));
      });
    }
  });

  describe('without authentication', () => {
    it('answers 401', async () => {
      const res = await api('/users', { token: null });
      expectStatus(res, 401);
      assert.deepEqual(res.body, { message: '401 Unauthorized' });
    });
  });
});

describe('GET /users/:user_id', () => {
  let me: BuiltUser, other: BuiltUser;
  before(async () => {
    me = await buildUser();
    other = await buildUser();
  });

  it('shows another user’s public fields only', async () => {
    const res = await api(`/users/${other.user.id}`, { token: me.token });
    expectStatus(res, 200);
    const u = expectUser(res.body, 'public');
    assert.equal(u.id, other.user.id);
    assert.equal(u.username, other.user.username);
    assert.equal(u.name, other.user.name);
    assert.equal(u.public_email, null);
  });
  it('shows the caller’s own record in full', async () => {
    const res = await api(`/users/${me.user.id}`, { token: me.token });
    expectStatus(res, 200);
    assert.equal(expectUser(res.body, 'full').email, `${me.user.username}@example.com`);
  });
  it('shows any user in full to an administrator', async () => {
    const res = await api(`/users/${other.user.id}`);
    expectStatus(res, 200);
    assert.equal(expectUser(res.body, 'full').email, `${other.user.username}@example.com`);
  });
  it('accepts a read_user token', async () => {
    const u = await buildUser({ scopes: ['read_user'] });
    const res = await api(`/users/${other.user.id}`, { token: u.token });
    expectStatus(res, 200);
    assert.equal(res.body.id, other.user.id);
  });

  describe('for an unknown user', () => {
    // 0x1 and 1.0 would name root (ID 1) if the ID were read leniently.
    for (const id of ['999999', '99999999999', 'abc', '0', '-1', '1e3', '0x1', '1.0', '%201']) {
      it(`answers 404 User Not Found for ${id}`, async () => {
        const res = await api(`/users/${id}`, { token: me.token });
        expectStatus(res, 404);
        assert.deepEqual(res.body, { message: '404 User Not Found' });
      });
    }
  });

  describe('without authentication', () => {
    it('answers 401', async () => {
      const res = await api(`/users/${other.user.id}`, { token: null });
      expectStatus(res, 401);
      assert.deepEqual(res.body, { message: '401 Unauthorized' });
    });
  });
});

describe('POST /users', () => {
  const attrs = (over: Record<string, unknown> = {}) => {
    const username = uniqueName('new_');
    return { username, name: `New ${username}`, email: `${username}@example.org`, password: 'correct-horse-1', ...over };
  };
  const exists = async (username: string) => (await api(`/users?username=${encodeURIComponent(username)}`)).body.length > 0;
  const userCount = async () => Number((await api('/users')).headers.get('x-total'));

  describe('as an administrator', () => {
    it('creates a user and returns it in full', async () => {
      const body = attrs({ bio: 'Writes tests', public_email: 'shown@example.org', can_create_group: false });
      const res = await api('/users', { method: 'POST', json: body });
      expectStatus(res, 201);
      const u = expectUser(res.body, 'full');
      assert.equal(u.username, body.username);
      assert.equal(u.name, body.name);
      assert.equal(u.email, body.email);
      assert.equal(u.bio, 'Writes tests');
      assert.equal(u.public_email, 'shown@example.org');
      assert.equal(u.state, 'active');
      assert.equal(u.is_admin, false);
      assert.equal(u.external, false);
      assert.equal(u.can_create_group, false);
      assert.ok(!('password' in res.body) && !('password_digest' in res.body));
      const read = await api(`/users/${u.id}`);
      expectStatus(read, 200);
      assert.deepEqual(read.body, res.body);
    });
    it('creates an administrator and an external user', async () => {
      const admin = await api('/users', { method: 'POST', json: attrs({ admin: true }) });
      expectStatus(admin, 201);
      assert.equal(admin.body.is_admin, true);
      const external = await api('/users', { method: 'POST', json: attrs({ external: 'true' }) });
      expectStatus(external, 201);
      assert.equal(external.body.external, true);
    });
    it('accepts form fields', async () => {
      const body = attrs();
      const res = await api('/users', { method: 'POST', form: { ...body, admin: 'false' } });
      expectStatus(res, 201);
      assert.equal(res.body.username, body.username);
    });
    it('generates a password with reset_password or force_random_password', async () => {
      const { password: _p, ...body } = attrs();
      expectStatus(await api('/users', { method: 'POST', json: { ...body, reset_password: true } }), 201);
      const { password: _q, ...other } = attrs();
      expectStatus(await api('/users', { method: 'POST', json: { ...other, force_random_password: true } }), 201);
    });
  });

  describe('with a taken username or email', () => {
    it('answers 409 Username has already been taken, ignoring case, and creates nothing', async () => {
      const first = attrs();
      expectStatus(await api('/users', { method: 'POST', json: first }), 201);
      const before = await userCount();
      const res = await api('/users', { method: 'POST', json: attrs({ username: first.username.toUpperCase() }) });
      expectStatus(res, 409);
      assert.deepEqual(res.body, { message: 'Username has already been taken' });
      assert.equal(await userCount(), before);
    });
    it('answers 409 Email has already been taken, ignoring case, and creates nothing', async () => {
      const first = attrs();
      expectStatus(await api('/users', { method: 'POST', json: first }), 201);
      const second = attrs({ email: first.email.toUpperCase() });
      const res = await api('/users', { method: 'POST', json: second });
      expectStatus(res, 409);
      assert.deepEqual(res.body, { message: 'Email has already been taken' });
      assert.equal(await exists(second.username), false);
    });
  });

  describe('with invalid parameters', () => {
    for (const field of ['email', 'username', 'name']) {
      it(`answers 400 ${field} is missing, and creates nothing`, async () => {
        const body: Record<string, unknown> = attrs();
        delete body[field];
        const before = await userCount();
        const res = await api('/users', { method: 'POST', json: body });
        expectStatus(res, 400);
        assert.deepEqual(res.body, { message: `${field} is missing` });
        assert.equal(await userCount(), before);
      });
    }
    it('answers 400 naming password when no password is sent and none is to be generated', async () => {
      const { password: _p, ...body } = attrs();
      const res = await api('/users', { method: 'POST', json: body });
      expectStatus(res, 400);
      assert.ok(Array.isArray(res.body.message.password));
      assert.equal(await exists(body.username), false);
    });
    for (const [label, over, field] of [
      ['an invalid email', { email: 'not-an-email' }, 'email'],
      ['an email as a number', { email: 42 }, 'email'],
      ['a username with spaces', { username: 'two words' }, 'username'],
      ['a username starting with "-"', { username: '-dash' }, 'username'],
      ['a one-letter username', { username: 'x' }, 'username'],
      ['an oversize username', { username: 'u'.repeat(256) }, 'username'],
      ['an oversize name', { name: 'n'.repeat(256) }, 'name'],
      ['a blank name', { name: '   ' }, 'name'],
      ['a short password', { password: 'short' }, 'password'],
      ['an oversize password', { password: 'p'.repeat(129) }, 'password'],
      ['an oversize bio', { bio: 'b'.repeat(256) }, 'bio'],
      ['admin "maybe"', { admin: 'maybe' }, 'admin'],
      ['an invalid public_email', { public_email: 'nope' }, 'public_email'],
    ] as const) {
      it(`answers 400 naming ${field} for ${label}, and creates nothing`, async () => {
        const body = attrs(over);
        const before = await userCount();
        const res = await api('/users', { method: 'POST', json: body });
        expectStatus(res, 400);
        assert.ok(Array.isArray(res.body.message?.[field]), JSON.stringify(res.body));
        assert.equal(await userCount(), before);
      });
    }
  });

  describe('without the role', () => {
    it('answers 403 to a user who is not an administrator, and creates nothing', async () => {
      const u = await buildUser();
      const body = attrs();
      const res = await api('/users', { method: 'POST', token: u.token, json: body });
      expectStatus(res, 403);
      assert.deepEqual(res.body, { message: '403 Forbidden' });
      assert.equal(await exists(body.username), false);
    });
    it('answers 403 insufficient_scope to an administrator’s read_api token', async () => {
      const admin = await buildUser({ admin: true, scopes: ['read_api'] });
      const body = attrs();
      const res = await api('/users', { method: 'POST', token: admin.token, json: body });
      expectStatus(res, 403);
      assert.equal(res.body.error, 'insufficient_scope');
      assert.equal(await exists(body.username), false);
    });
    it('answers 401 without authentication', async () => {
      const body = attrs();
      const res = await api('/users', { method: 'POST', token: null, json: body });
      expectStatus(res, 401);
      assert.deepEqual(res.body, { message: '401 Unauthorized' });
      assert.equal(await exists(body.username), false);
    });
  });
});
