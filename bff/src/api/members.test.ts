import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { member } from '../../../shared/src/members.ts';
import {
  addMember,
  buildGroup,
  buildProject,
  buildUser,
  expectShape,
  expectStatus,
  request as api,
  startTestServer,
  type ApiResponse,
  type TestServer,
} from '../../test/harness.ts';
import { expectPlatformSchema } from '../../test/platform-schemas.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

type Scope = 'groups' | 'projects';
type BuiltUser = Awaited<ReturnType<typeof buildUser>>;

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MEMBER_KEYS = ['access_level', 'avatar_url', 'created_at', 'created_by', 'expires_at', 'id', 'locked', 'membership_state', 'name', 'state', 'username', 'web_url'];
const daysFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/**
 * What a member list or member is checked against: our shared schema, the exact field set
 * (nothing leaks), and the platform's own members.json.
 */
function expectMembers(body: unknown[]) {
  for (const m of body) {
    expectShape(member, m);
    assert.deepEqual(Object.keys(m as object).sort(), MEMBER_KEYS);
  }
  expectPlatformSchema('public_api/v4/members.json', body);
}

function expectMember(body: Record<string, unknown>, expected: { user: BuiltUser['user']; access_level: number; expires_at?: string | null; created_by?: BuiltUser['user'] | null }) {
  expectMembers([body]);
  const m = expectShape(member, body);
  assert.equal(m.id, expected.user.id);
  assert.equal(m.username, expected.user.username);
  assert.equal(m.name, expected.user.name);
  assert.equal(m.state, 'active');
  assert.equal(m.locked, false);
  assert.equal(m.avatar_url, null);
  assert.equal(m.web_url, `${server.url}/${expected.user.username}`);
  assert.equal(m.access_level, expected.access_level);
  assert.equal(m.expires_at, expected.expires_at ?? null);
  assert.match(m.created_at, ISO_DATETIME);
  assert.equal(m.membership_state, 'active');
  if (expected.created_by !== undefined) {
    assert.deepEqual(
      m.created_by && { id: m.created_by.id, username: m.created_by.username },
      expected.created_by && { id: expected.created_by.id, username: expected.created_by.username },
    );
  }
}

function links(res: ApiResponse): Record<string, URL> {
  const out: Record<string, URL> = {};
  for (const part of (res.headers.get('link') ?? '').split(',')) {
    const m = /<([^>]+)>;\s*rel="(\w+)"/.exec(part);
    if (m) out[m[2]] = new URL(m[1]);
  }
  return out;
}

const levelsById = (body: { id: number; access_level: number }[]) => Object.fromEntries(body.map((m) => [m.id, m.access_level]));

/**
 * A member source for a scope: a subgroup of a top-level group, or a project in such a
 * subgroup. Members of `top` (and, for a project, of `sub`) are inherited by it.
 */
async function buildSource(scope: Scope, visibility = 'private') {
  const top = await buildGroup({ visibility });
  const sub = await buildGroup({ parent_id: top.id, visibility });
  if (scope === 'groups') return { id: sub.id, fullPath: sub.full_path, top, sub };
  const project = await buildProject(sub.id, { visibility });
  return { id: project.id, fullPath: project.path_with_namespace, top, sub };
}

for (const scope of ['groups', 'projects'] as const) {
  const Noun = scope === 'groups' ? 'Group' : 'Project';
  const notFoundBody = { message: `404 ${Noun} Not Found` };

  /** A new user holding `level` directly on the source. */
  const roleOn = async (id: number, level: number, scopes?: string[]) => {
    const u = await buildUser({ scopes });
    await addMember(scope, id, u.user.id, level);
    return u;
  };
  const readMember = (id: number, userId: number) => api(`/${scope}/${id}/members/${userId}`);

  describe(`GET /${scope}/:id/members`, () => {
    let src: Awaited<ReturnType<typeof buildSource>>;
    let owner: BuiltUser, dev: BuiltUser, guest: BuiltUser, inherited: BuiltUser, stranger: BuiltUser;
    const expiry = daysFromNow(30);
    before(async () => {
      src = await buildSource(scope);
      owner = await roleOn(src.id, 50);
      dev = await buildUser();
      const added = await api(`/${scope}/${src.id}/members`, { method: 'POST', token: owner.token, json: { user_id: dev.user.id, access_level: 30, expires_at: expiry } });
      expectStatus(added, 201);
      guest = await roleOn(src.id, 10);
      inherited = await buildUser();
      await addMember('groups', src.top.id, inherited.user.id, 20);
      stranger = await buildUser();
    });

    describe('as a member', () => {
      it('lists the direct members with their roles, in the platform’s shape', async () => {
        const res = await api(`/${scope}/${src.id}/members`, { token: guest.token });
        expectStatus(res, 200);
        expectMembers(res.body);
        const levels = levelsById(res.body);
        assert.equal(levels[owner.user.id], 50);
        assert.equal(levels[dev.user.id], 30);
        assert.equal(levels[guest.user.id], 10);
        assert.equal(levels[inherited.user.id], undefined, 'inherited members are listed only by /members/all');
        const d = res.body.find((m: { id: number }) => m.id === dev.user.id);
        expectMember(d, { user: dev.user, access_level: 30, expires_at: expiry, created_by: owner.user });
      });
      it('accepts the URL-encoded full path as :id', async () => {
        const res = await api(`/${scope}/${encodeURIComponent(src.fullPath)}/members`, { token: guest.token });
        expectStatus(res, 200);
        assert.equal(levelsById(res.body)[dev.user.id], 30);
      });
      it('filters by name or username with query, and by user_ids', async () => {
        const byName = await api(`/${scope}/${src.id}/members?query=${encodeURIComponent(dev.user.username.toUpperCase())}`, { token: guest.token });
        expectStatus(byName, 200);
        assert.deepEqual(byName.body.map((m: { id: number }) => m.id), [dev.user.id]);
        const byIds = await api(`/${scope}/${src.id}/members?user_ids=${guest.user.id},${owner.user.id}`, { token: guest.token });
        assert.deepEqual(byIds.body.map((m: { id: number }) => m.id).sort(), [owner.user.id, guest.user.id].sort());
        const none = await api(`/${scope}/${src.id}/members?query=no-such-member-anywhere`, { token: guest.token });
        assert.deepEqual(none.body, []);
        assert.equal(none.headers.get('x-total'), '0');
      });
      it('does not list a membership whose expiry date has passed', async () => {
        const lapsed = await roleOn(src.id, 20);
        await server.running.db
          .updateTable('members')
          .set({ expires_at: daysFromNow(-1) })
          .where('source_type', '=', scope === 'groups' ? 'group' : 'project')
          .where('source_id', '=', src.id)
          .where('user_id', '=', lapsed.user.id)
          .execute();
        const res = await api(`/${scope}/${src.id}/members?per_page=100`, { token: guest.token });
        assert.ok(!res.body.some((m: { id: number }) => m.id === lapsed.user.id));
        expectStatus(await readMember(src.id, lapsed.user.id), 404);
      });
    });

    describe('pagination', () => {
      it('sets X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page and Link', async () => {
        const total = Number((await api(`/${scope}/${src.id}/members`)).headers.get('x-total'));
        assert.ok(total >= 3);
        const first = await api(`/${scope}/${src.id}/members?per_page=1`);
        expectStatus(first, 200);
        assert.equal(first.body.length, 1);
        assert.equal(first.headers.get('x-total'), String(total));
        assert.equal(first.headers.get('x-total-pages'), String(total));
        assert.equal(first.headers.get('x-per-page'), '1');
        assert.equal(first.headers.get('x-page'), '1');
        assert.equal(first.headers.get('x-next-page'), '2');
        assert.equal(first.headers.get('x-prev-page'), '');
        const l1 = links(first);
        assert.deepEqual(Object.keys(l1).sort(), ['first', 'last', 'next']);
        assert.equal(l1.next.searchParams.get('page'), '2');
        assert.equal(l1.last.searchParams.get('page'), String(total));
        assert.equal(l1.next.pathname, `/api/v4/${scope}/${src.id}/members`);

        const second = await api(`${l1.next.pathname}${l1.next.search}`);
        expectStatus(second, 200);
        assert.equal(second.headers.get('x-page'), '2');
        assert.equal(second.headers.get('x-prev-page'), '1');
        assert.equal(links(second).prev.searchParams.get('page'), '1');
        assert.notEqual(second.body[0].id, first.body[0].id);

        const last = await api(`/${scope}/${src.id}/members?per_page=1&page=${total}`);
        assert.equal(last.headers.get('x-next-page'), '');
        assert.ok(!links(last).next);
        const all = await api(`/${scope}/${src.id}/members?per_page=100`);
        const walked = [];
        for (let p = 1; p <= total; p++) walked.push((await api(`/${scope}/${src.id}/members?per_page=1&page=${p}`)).body[0].id);
        assert.deepEqual(walked, all.body.map((m: { id: number }) => m.id), 'pages neither skip nor repeat members');
      });
      it('caps per_page at 100', async () => {
        const res = await api(`/${scope}/${src.id}/members?per_page=500`);
        expectStatus(res, 200);
        assert.equal(res.headers.get('x-per-page'), '100');
      });
      it('answers an empty page beyond the last one', async () => {
        const res = await api(`/${scope}/${src.id}/members?page=50`);
        expectStatus(res, 200);
        assert.deepEqual(res.body, []);
      });
    });

    describe('with invalid parameters', () => {
      for (const [query, field] of [
        ['per_page=0', 'per_page'],
        ['page=0', 'page'],
        ['per_page=abc', 'per_page'],
        ['page=-1', 'page'],
        [`query=${'x'.repeat(300)}`, 'query'],
      ]) {
        it(`answers 400 naming ${field} for ${query.slice(0, 20)}`, async () => {
          const res = await api(`/${scope}/${src.id}/members?${query}`);
          expectStatus(res, 400);
          assert.ok(Array.isArray(res.body.message?.[field]), JSON.stringify(res.body));
        });
      }
    });

    describe('without authentication', () => {
      it(`answers 404 for a private ${Noun.toLowerCase()}`, async () => {
        const res = await api(`/${scope}/${src.id}/members`, { token: null });
        expectStatus(res, 404);
        assert.deepEqual(res.body, notFoundBody);
      });
      it(`lists the members of a public ${Noun.toLowerCase()}`, async () => {
        const pub = await buildSource(scope, 'public');
        const m = await roleOn(pub.id, 30);
        const res = await api(`/${scope}/${pub.id}/members`, { token: null });
        expectStatus(res, 200);
        expectMembers(res.body);
        assert.equal(levelsById(res.body)[m.user.id], 30);
      });
      it('answers 401 to an unknown token', async () => {
        const res = await api(`/${scope}/${src.id}/members`, { token: 'no-such-token' });
        expectStatus(res, 401);
        assert.deepEqual(res.body, { message: '401 Unauthorized' });
      });
    });

    describe('without the role', () => {
      it(`answers 404 to a user who cannot see the private ${Noun.toLowerCase()}`, async () => {
        const res = await api(`/${scope}/${src.id}/members`, { token: stranger.token });
        expectStatus(res, 404);
        assert.deepEqual(res.body, notFoundBody);
      });
    });

    describe(`for an unknown ${Noun.toLowerCase()}`, () => {
      for (const id of ['999999', '99999999999', `no-such-namespace%2F${scope}`, 'abc']) {
        it(`answers 404 for :id ${id}`, async () => {
          const res = await api(`/${scope}/${id}/members`);
          expectStatus(res, 404);
          assert.deepEqual(res.body, notFoundBody);
        });
      }
    });
  });

  describe(`GET /${scope}/:id/members/all`, () => {
    let src: Awaited<ReturnType<typeof buildSource>>;
    let direct: BuiltUser, fromTop: BuiltUser, fromSub: BuiltUser, both: BuiltUser, stranger: BuiltUser;
    before(async () => {
      src = await buildSource(scope);
      direct = await roleOn(src.id, 30);
      fromTop = await buildUser();
      await addMember('groups', src.top.id, fromTop.user.id, 20);
      fromSub = await buildUser();
      await addMember('groups', src.sub.id, fromSub.user.id, 40);
      // A Guest of the top group who is a Maintainer here: listed once, with the higher role.
      both = await buildUser();
      await addMember('groups', src.top.id, both.user.id, 10);
      await addMember(scope, src.id, both.user.id, 40);
      stranger = await buildUser();
    });

    it('lists direct and inherited members, each once with their highest role', async () => {
      const res = await api(`/${scope}/${src.id}/members/all?per_page=100`, { token: direct.token });
      expectStatus(res, 200);
      expectMembers(res.body);
      const levels = levelsById(res.body);
      assert.equal(levels[direct.user.id], 30);
      assert.equal(levels[fromTop.user.id], 20);
      assert.equal(levels[both.user.id], 40);
      if (scope === 'projects') assert.equal(levels[fromSub.user.id], 40, 'members of the project’s namespace are inherited');
      assert.equal(res.body.filter((m: { id: number }) => m.id === both.user.id).length, 1);
      assert.equal(res.headers.get('x-total'), String(res.body.length));
    });
    it('lists only the inherited membership for a member of an ancestor group', async () => {
      const direct = await api(`/${scope}/${src.id}/members?per_page=100`);
      assert.equal(levelsById(direct.body)[fromTop.user.id], undefined);
    });
    it('answers 404 to a user who cannot see it, and without authentication', async () => {
      for (const token of [stranger.token, null]) {
        const res = await api(`/${scope}/${src.id}/members/all`, { token });
        expectStatus(res, 404);
        assert.deepEqual(res.body, notFoundBody);
      }
    });
    it('answers 400 for per_page=0', async () => {
      const res = await api(`/${scope}/${src.id}/members/all?per_page=0`);
      expectStatus(res, 400);
      assert.ok(res.body.message.per_page);
    });
  });

  describe(`GET /${scope}/:id/members/:user_id`, () => {
    let src: Awaited<ReturnType<typeof buildSource>>;
    let dev: BuiltUser, inherited: BuiltUser, stranger: BuiltUser;
    before(async () => {
      src = await buildSource(scope);
      dev = await roleOn(src.id, 30);
      inherited = await buildUser();
      await addMember('groups', src.top.id, inherited.user.id, 40);
      stranger = await buildUser();
    });

    it('returns a direct member in the platform’s shape', async () => {
      const res = await api(`/${scope}/${src.id}/members/${dev.user.id}`, { token: dev.token });
      expectStatus(res, 200);
      expectMember(res.body, { user: dev.user, access_level: 30, expires_at: null });
    });
    it('answers 404 Member Not Found for a member of an ancestor group only', async () => {
      const res = await api(`/${scope}/${src.id}/members/${inherited.user.id}`);
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: '404 Member Not Found' });
    });
    for (const userId of ['999999', '99999999999', 'abc', '-1']) {
      it(`answers 404 Member Not Found for user_id ${userId}`, async () => {
        const res = await api(`/${scope}/${src.id}/members/${userId}`);
        expectStatus(res, 404);
        assert.deepEqual(res.body, { message: '404 Member Not Found' });
      });
    }
    it('answers 404 for a user who is not a member', async () => {
      const res = await api(`/${scope}/${src.id}/members/${stranger.user.id}`);
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: '404 Member Not Found' });
    });
    it(`answers 404 ${Noun} Not Found to a caller who cannot see it, and for an unknown ${Noun.toLowerCase()}`, async () => {
      for (const [path, token] of [
        [`/${scope}/${src.id}/members/${dev.user.id}`, stranger.token],
        [`/${scope}/${src.id}/members/${dev.user.id}`, null],
        [`/${scope}/99999999999/members/${dev.user.id}`, undefined],
      ] as const) {
        const res = await api(path, { token });
        expectStatus(res, 404);
        assert.deepEqual(res.body, notFoundBody);
      }
    });
  });

  describe(`GET /${scope}/:id/members/all/:user_id`, () => {
    let src: Awaited<ReturnType<typeof buildSource>>;
    let dev: BuiltUser, inherited: BuiltUser;
    before(async () => {
      src = await buildSource(scope);
      dev = await roleOn(src.id, 30);
      inherited = await buildUser();
      await addMember('groups', src.top.id, inherited.user.id, 40);
    });

    it('returns an inherited member with the inherited role', async () => {
      const res = await api(`/${scope}/${src.id}/members/all/${inherited.user.id}`, { token: dev.token });
      expectStatus(res, 200);
      expectMember(res.body, { user: inherited.user, access_level: 40 });
    });
    it('returns a direct member too', async () => {
      const res = await api(`/${scope}/${src.id}/members/all/${dev.user.id}`);
      expectStatus(res, 200);
      expectMember(res.body, { user: dev.user, access_level: 30 });
    });
    it('answers 404 Member Not Found for a user with no membership, or an unknown user', async () => {
      const other = await buildUser();
      for (const id of [other.user.id, 99999999999]) {
        const res = await api(`/${scope}/${src.id}/members/all/${id}`);
        expectStatus(res, 404);
        assert.deepEqual(res.body, { message: '404 Member Not Found' });
      }
    });
    it(`answers 404 ${Noun} Not Found for an unknown ${Noun.toLowerCase()}`, async () => {
      const res = await api(`/${scope}/999999/members/all/${dev.user.id}`);
      expectStatus(res, 404);
      assert.deepEqual(res.body, notFoundBody);
    });
  });

  describe(`POST /${scope}/:id/members`, () => {
    let src: Awaited<ReturnType<typeof buildSource>>;
    let owner: BuiltUser, maintainer: BuiltUser, dev: BuiltUser, stranger: BuiltUser;
    before(async () => {
      src = await buildSource(scope);
      owner = await roleOn(src.id, 50);
      maintainer = await roleOn(src.id, 40);
      dev = await roleOn(src.id, 30);
      stranger = await buildUser();
    });
    const post = (json: unknown, token?: string | null) => api(`/${scope}/${src.id}/members`, { method: 'POST', json, token });
    const expectNotMember = async (userId: number) => {
      const res = await readMember(src.id, userId);
      expectStatus(res, 404);
    };

    describe('as an Owner', () => {
      it('adds a member with a role and an expiry date, and returns it', async () => {
        const u = await buildUser();
        const expiry = daysFromNow(10);
        const res = await post({ user_id: u.user.id, access_level: 30, expires_at: expiry }, owner.token);
        expectStatus(res, 201);
        expectMember(res.body, { user: u.user, access_level: 30, expires_at: expiry, created_by: owner.user });
        const read = await readMember(src.id, u.user.id);
        expectStatus(read, 200);
        assert.deepEqual(read.body, res.body);
      });
      it('grants the Owner role', async () => {
        const u = await buildUser();
        const res = await post({ user_id: u.user.id, access_level: 50 }, owner.token);
        expectStatus(res, 201);
        assert.equal(res.body.access_level, 50);
      });
      it('accepts form fields as well as JSON', async () => {
        const u = await buildUser();
        const res = await api(`/${scope}/${src.id}/members`, { method: 'POST', token: owner.token, form: { user_id: String(u.user.id), access_level: '20' } });
        expectStatus(res, 201);
        expectMember(res.body, { user: u.user, access_level: 20 });
      });
      it('gives the new member access', async () => {
        const u = await buildUser();
        expectStatus(await api(`/${scope}/${src.id}/members`, { token: u.token }), 404);
        expectStatus(await post({ user_id: u.user.id, access_level: 10 }, owner.token), 201);
        expectStatus(await api(`/${scope}/${src.id}/members`, { token: u.token }), 200);
      });
      it('answers 409 Member already exists and keeps the existing membership', async () => {
        const res = await post({ user_id: dev.user.id, access_level: 40 }, owner.token);
        expectStatus(res, 409);
        assert.deepEqual(res.body, { message: 'Member already exists' });
        assert.equal((await readMember(src.id, dev.user.id)).body.access_level, 30);
      });
      it('answers 404 User Not Found for an unknown user', async () => {
        const res = await post({ user_id: 999999, access_level: 30 }, owner.token);
        expectStatus(res, 404);
        assert.deepEqual(res.body, { message: '404 User Not Found' });
      });
    });

    describe('as a Maintainer', () => {
      it('adds a Developer and a Maintainer', async () => {
        for (const level of [30, 40]) {
          const u = await buildUser();
          const res = await post({ user_id: u.user.id, access_level: level }, maintainer.token);
          expectStatus(res, 201);
          expectMember(res.body, { user: u.user, access_level: level, created_by: maintainer.user });
        }
      });
      it('cannot grant the Owner role (403), and nothing is added', async () => {
        const u = await buildUser();
        const res = await post({ user_id: u.user.id, access_level: 50 }, maintainer.token);
        expectStatus(res, 403);
        assert.match(res.body.message, /^403 Forbidden/);
        await expectNotMember(u.user.id);
      });
    });

    describe('as an administrator', () => {
      it('adds an Owner without any membership of their own', async () => {
        const u = await buildUser();
        const admin = await buildUser({ admin: true });
        const res = await post({ user_id: u.user.id, access_level: 50 }, admin.token);
        expectStatus(res, 201);
        expectMember(res.body, { user: u.user, access_level: 50, created_by: admin.user });
      });
    });

    describe('without the role', () => {
      it('answers 403 to a Developer, and nothing is added', async () => {
        const u = await buildUser();
        const res = await post({ user_id: u.user.id, access_level: 10 }, dev.token);
        expectStatus(res, 403);
        assert.deepEqual(res.body, { message: '403 Forbidden' });
        await expectNotMember(u.user.id);
      });
      it(`answers 404 ${Noun} Not Found to a user who cannot see it`, async () => {
        const res = await post({ user_id: stranger.user.id, access_level: 50 }, stranger.token);
        expectStatus(res, 404);
        assert.deepEqual(res.body, notFoundBody);
        await expectNotMember(stranger.user.id);
      });
      it('answers 401 without authentication', async () => {
        const res = await post({ user_id: stranger.user.id, access_level: 10 }, null);
        expectStatus(res, 401);
        assert.deepEqual(res.body, { message: '401 Unauthorized' });
        await expectNotMember(stranger.user.id);
      });
      it('answers 403 to an Owner’s read_api token', async () => {
        const reader = await roleOn(src.id, 50, ['read_api']);
        const res = await post({ user_id: stranger.user.id, access_level: 10 }, reader.token);
        expectStatus(res, 403);
        assert.match(res.body.message, /insufficient_scope/);
        await expectNotMember(stranger.user.id);
      });
    });

    describe('with invalid parameters', () => {
      it('answers 400 user_id is missing', async () => {
        const res = await post({ access_level: 30 }, owner.token);
        expectStatus(res, 400);
        assert.deepEqual(res.body, { message: 'user_id is missing' });
      });
      it('answers 400 access_level is missing, and nothing is added', async () => {
        const res = await post({ user_id: stranger.user.id }, owner.token);
        expectStatus(res, 400);
        assert.deepEqual(res.body, { message: 'access_level is missing' });
        await expectNotMember(stranger.user.id);
      });
      for (const [label, body, field] of [
        ['access_level "abc"', { access_level: 'abc' }, 'access_level'],
        ['access_level 99', { access_level: 99 }, 'access_level'],
        ['access_level 0', { access_level: 0 }, 'access_level'],
        ['access_level 25', { access_level: 25 }, 'access_level'],
        ['access_level true', { access_level: true }, 'access_level'],
        ['access_level 30.5', { access_level: 30.5 }, 'access_level'],
        ['user_id "abc"', { user_id: 'abc' }, 'user_id'],
        ['user_id 0', { user_id: 0 }, 'user_id'],
        ['user_id -3', { user_id: -3 }, 'user_id'],
        ['user_id 99999999999', { user_id: 99999999999 }, 'user_id'],
        ['user_id as an object', { user_id: { id: 1 } }, 'user_id'],
        ['expires_at "tomorrow"', { expires_at: 'tomorrow' }, 'expires_at'],
        ['an oversize expires_at', { expires_at: '2030-01-01'.repeat(1000) }, 'expires_at'],
        ['expires_at in the past', { expires_at: '2001-01-01' }, 'expires_at'],
        ['expires_at today', { expires_at: daysFromNow(0) }, 'expires_at'],
      ] as const) {
        it(`answers 400 naming ${field} for ${label}, and nothing is added`, async () => {
          const u = await buildUser();
          const res = await post({ user_id: u.user.id, access_level: 30, ...(body as Record<string, unknown>) }, owner.token);
          expectStatus(res, 400);
          assert.ok(Array.isArray(res.body.message?.[field]) && res.body.message[field].length > 0, JSON.stringify(res.body));
          await expectNotMember(u.user.id);
        });
      }
      it('answers 400 to a body that is not JSON, and nothing is added', async () => {
        const res = await fetch(`${server.url}/api/v4/${scope}/${src.id}/members`, {
          method: 'POST',
          headers: { 'PRIVATE-TOKEN': owner.token, 'Content-Type': 'application/json' },
          body: `{"user_id": ${stranger.user.id}, "access_level": 30`,
        });
        assert.equal(res.status, 400);
        assert.equal(typeof ((await res.json()) as { message: unknown }).message, 'string');
        await expectNotMember(stranger.user.id);
      });
      it('refuses a role below one inherited from an ancestor group (400)', async () => {
        const u = await buildUser();
        await addMember('groups', src.top.id, u.user.id, 30);
        const res = await post({ user_id: u.user.id, access_level: 20 }, owner.token);
        expectStatus(res, 400);
        assert.deepEqual(res.body, { message: { access_level: [`should be greater than or equal to 30 inherited membership from group ${src.top.full_path}`] } });
        await expectNotMember(u.user.id);
        expectStatus(await post({ user_id: u.user.id, access_level: 40 }, owner.token), 201);
      });
    });

    describe(`for an unknown ${Noun.toLowerCase()}`, () => {
      it(`answers 404 ${Noun} Not Found`, async () => {
        for (const id of ['999999', '99999999999', 'no%2Fsuch']) {
          const res = await api(`/${scope}/${id}/members`, { method: 'POST', json: { user_id: stranger.user.id, access_level: 30 } });
          expectStatus(res, 404);
          assert.deepEqual(res.body, notFoundBody);
        }
      });
    });
  });

  describe(`PUT /${scope}/:id/members/:user_id`, () => {
    let src: Awaited<ReturnType<typeof buildSource>>;
    let owner: BuiltUser, maintainer: BuiltUser, dev: BuiltUser, stranger: BuiltUser;
    before(async () => {
      src = await buildSource(scope);
      owner = await roleOn(src.id, 50);
      maintainer = await roleOn(src.id, 40);
      dev = await roleOn(src.id, 30);
      stranger = await buildUser();
    });
    const put = (userId: number | string, json: unknown, token?: string | null) =>
      api(`/${scope}/${src.id}/members/${userId}`, { method: 'PUT', json, token });
    const levelOf = async (userId: number) => (await readMember(src.id, userId)).body;

    describe('as an Owner', () => {
      it('changes the role and the expiry date, and returns the member', async () => {
        const u = await roleOn(src.id, 20);
        const expiry = daysFromNow(60);
        const res = await put(u.user.id, { access_level: 40, expires_at: expiry }, owner.token);
        expectStatus(res, 200);
        expectMember(res.body, { user: u.user, access_level: 40, expires_at: expiry });
        assert.deepEqual(await levelOf(u.user.id), res.body);
      });
      it('keeps the expiry date when none is sent, and clears it with null', async () => {
        const u = await buildUser();
        const expiry = daysFromNow(5);
        expectStatus(await api(`/${scope}/${src.id}/members`, { method: 'POST', json: { user_id: u.user.id, access_level: 10, expires_at: expiry } }), 201);
        const kept = await put(u.user.id, { access_level: 20 }, owner.token);
        expectStatus(kept, 200);
        assert.equal(kept.body.expires_at, expiry);
        const cleared = await put(u.user.id, { access_level: 20, expires_at: null }, owner.token);
        expectStatus(cleared, 200);
        assert.equal(cleared.body.expires_at, null);
      });
      it('promotes a member to Owner', async () => {
        const u = await roleOn(src.id, 30);
        const res = await put(u.user.id, { access_level: 50 }, owner.token);
        expectStatus(res, 200);
        assert.equal(res.body.access_level, 50);
      });
    });

    describe('as a Maintainer', () => {
      it('changes a Developer’s role', async () => {
        const u = await roleOn(src.id, 30);
        const res = await put(u.user.id, { access_level: 20 }, maintainer.token);
        expectStatus(res, 200);
        assert.equal(res.body.access_level, 20);
      });
      it('cannot promote anyone to Owner (403), and nothing changes', async () => {
        const u = await roleOn(src.id, 30);
        const res = await put(u.user.id, { access_level: 50 }, maintainer.token);
        expectStatus(res, 403);
        assert.match(res.body.message, /^403 Forbidden/);
        assert.equal((await levelOf(u.user.id)).access_level, 30);
      });
      it('cannot change an Owner (403), and nothing changes', async () => {
        const res = await put(owner.user.id, { access_level: 40 }, maintainer.token);
        expectStatus(res, 403);
        assert.equal((await levelOf(owner.user.id)).access_level, 50);
      });
    });

    describe('without the role', () => {
      it('answers 403 to a Developer, even about themselves, and nothing changes', async () => {
        for (const target of [dev.user.id, maintainer.user.id]) {
          const before = await levelOf(target);
          const res = await put(target, { access_level: 50 }, dev.token);
          expectStatus(res, 403);
          assert.deepEqual(res.body, { message: '403 Forbidden' });
          assert.deepEqual(await levelOf(target), before);
        }
      });
      it(`answers 404 ${Noun} Not Found to a user who cannot see it, 401 without authentication`, async () => {
        const hidden = await put(dev.user.id, { access_level: 10 }, stranger.token);
        expectStatus(hidden, 404);
        assert.deepEqual(hidden.body, notFoundBody);
        const anon = await put(dev.user.id, { access_level: 10 }, null);
        expectStatus(anon, 401);
        assert.equal((await levelOf(dev.user.id)).access_level, 30);
      });
    });

    describe('with invalid parameters', () => {
      it('answers 400 access_level is missing', async () => {
        const res = await put(dev.user.id, { expires_at: daysFromNow(3) }, owner.token);
        expectStatus(res, 400);
        assert.deepEqual(res.body, { message: 'access_level is missing' });
        assert.equal((await levelOf(dev.user.id)).expires_at, null);
      });
      for (const [label, body, field] of [
        ['access_level "abc"', { access_level: 'abc' }, 'access_level'],
        ['access_level 99', { access_level: 99 }, 'access_level'],
        ['access_level -10', { access_level: -10 }, 'access_level'],
        ['expires_at "2030-13-99x"', { access_level: 40, expires_at: '2030-13-99x' }, 'expires_at'],
        ['expires_at in the past', { access_level: 40, expires_at: '2000-01-01' }, 'expires_at'],
      ] as const) {
        it(`answers 400 naming ${field} for ${label}, and nothing changes`, async () => {
          const res = await put(dev.user.id, body, owner.token);
          expectStatus(res, 400);
          assert.ok(Array.isArray(res.body.message?.[field]), JSON.stringify(res.body));
          const after = await levelOf(dev.user.id);
          assert.equal(after.access_level, 30);
          assert.equal(after.expires_at, null);
        });
      }
    });

    describe('below an inherited role', () => {
      it('refuses a role below one inherited from an ancestor group (400), and nothing changes', async () => {
        const u = await buildUser();
        await addMember('groups', src.top.id, u.user.id, 30);
        await addMember(scope, src.id, u.user.id, 40);
        const res = await put(u.user.id, { access_level: 20 }, owner.token);
        expectStatus(res, 400);
        assert.deepEqual(res.body, { message: { access_level: [`should be greater than or equal to 30 inherited membership from group ${src.top.full_path}`] } });
        assert.equal((await levelOf(u.user.id)).access_level, 40);
        expectStatus(await put(u.user.id, { access_level: 30 }, owner.token), 200);
      });
    });

    describe('for an unknown member', () => {
      it('answers 404 Member Not Found for a non-member, an inherited member and unknown IDs', async () => {
        const inherited = await buildUser();
        await addMember('groups', src.top.id, inherited.user.id, 20);
        for (const userId of [stranger.user.id, inherited.user.id, 999999, '99999999999', 'abc']) {
          const res = await put(userId, { access_level: 30 }, owner.token);
          expectStatus(res, 404);
          assert.deepEqual(res.body, { message: '404 Member Not Found' });
        }
        expectStatus(await readMember(src.id, stranger.user.id), 404);
        assert.equal((await api(`/${scope}/${src.id}/members/all/${inherited.user.id}`)).body.access_level, 20);
      });
    });

    describe(`for an unknown ${Noun.toLowerCase()}`, () => {
      it(`answers 404 ${Noun} Not Found`, async () => {
        const res = await api(`/${scope}/99999999999/members/${dev.user.id}`, { method: 'PUT', json: { access_level: 30 } });
        expectStatus(res, 404);
        assert.deepEqual(res.body, notFoundBody);
      });
    });
  });

  describe(`DELETE /${scope}/:id/members/:user_id`, () => {
    let src: Awaited<ReturnType<typeof buildSource>>;
    let owner: BuiltUser, maintainer: BuiltUser, dev: BuiltUser, stranger: BuiltUser;
    before(async () => {
      src = await buildSource(scope);
      owner = await roleOn(src.id, 50);
      maintainer = await roleOn(src.id, 40);
      dev = await roleOn(src.id, 30);
      stranger = await buildUser();
    });
    const del = (userId: number | string, token?: string | null) => api(`/${scope}/${src.id}/members/${userId}`, { method: 'DELETE', token });

    describe('as an Owner', () => {
      it('removes a member: 204 with no body, gone from the list, access lost', async () => {
        const u = await roleOn(src.id, 20);
        expectStatus(await api(`/${scope}/${src.id}`, { token: u.token }), 200);
        const res = await del(u.user.id, owner.token);
        expectStatus(res, 204);
        assert.equal(res.text, '');
        const read = await readMember(src.id, u.user.id);
        expectStatus(read, 404);
        assert.deepEqual(read.body, { message: '404 Member Not Found' });
        const list = await api(`/${scope}/${src.id}/members?per_page=100`);
        assert.ok(!list.body.some((m: { id: number }) => m.id === u.user.id));
        expectStatus(await api(`/${scope}/${src.id}`, { token: u.token }), 404);
      });
      it('removes another Owner', async () => {
        const other = await roleOn(src.id, 50);
        expectStatus(await del(other.user.id, owner.token), 204);
        expectStatus(await readMember(src.id, other.user.id), 404);
      });
      it('answers 404 Member Not Found when removing twice', async () => {
        const u = await roleOn(src.id, 10);
        expectStatus(await del(u.user.id, owner.token), 204);
        const again = await del(u.user.id, owner.token);
        expectStatus(again, 404);
        assert.deepEqual(again.body, { message: '404 Member Not Found' });
      });
    });

    describe('as a Maintainer', () => {
      it('removes a Developer', async () => {
        const u = await roleOn(src.id, 30);
        expectStatus(await del(u.user.id, maintainer.token), 204);
        expectStatus(await readMember(src.id, u.user.id), 404);
      });
      it('cannot remove an Owner (403), who stays', async () => {
        const res = await del(owner.user.id, maintainer.token);
        expectStatus(res, 403);
        assert.match(res.body.message, /^403 Forbidden/);
        assert.equal((await readMember(src.id, owner.user.id)).body.access_level, 50);
      });
    });

    describe('as a member leaving', () => {
      it('lets a Developer remove their own membership', async () => {
        const u = await roleOn(src.id, 30);
        expectStatus(await del(u.user.id, u.token), 204);
        expectStatus(await readMember(src.id, u.user.id), 404);
      });
    });

    describe('without the role', () => {
      it('answers 403 to a Developer removing someone else, who stays', async () => {
        const res = await del(maintainer.user.id, dev.token);
        expectStatus(res, 403);
        assert.deepEqual(res.body, { message: '403 Forbidden' });
        assert.equal((await readMember(src.id, maintainer.user.id)).body.access_level, 40);
      });
      it(`answers 404 ${Noun} Not Found to a user who cannot see it, 401 without authentication`, async () => {
        const hidden = await del(dev.user.id, stranger.token);
        expectStatus(hidden, 404);
        assert.deepEqual(hidden.body, notFoundBody);
        const anon = await del(dev.user.id, null);
        expectStatus(anon, 401);
        assert.deepEqual(anon.body, { message: '401 Unauthorized' });
        expectStatus(await readMember(src.id, dev.user.id), 200);
      });
    });

    describe('with invalid parameters', () => {
      it('answers 404 Member Not Found for a non-member, an inherited member and unknown IDs', async () => {
        const inherited = await buildUser();
        await addMember('groups', src.top.id, inherited.user.id, 20);
        for (const userId of [stranger.user.id, inherited.user.id, 999999, '99999999999', 'abc', '1.5']) {
          const res = await del(userId, owner.token);
          expectStatus(res, 404);
          assert.deepEqual(res.body, { message: '404 Member Not Found' });
        }
        expectStatus(await api(`/${scope}/${src.id}/members/all/${inherited.user.id}`), 200);
      });
    });

    describe(`for an unknown ${Noun.toLowerCase()}`, () => {
      it(`answers 404 ${Noun} Not Found`, async () => {
        const res = await api(`/${scope}/99999999999/members/${dev.user.id}`, { method: 'DELETE' });
        expectStatus(res, 404);
        assert.deepEqual(res.body, notFoundBody);
      });
    });
  });
}

describe('the last Owner of a group', () => {
  let group: { id: number };
  let owner: BuiltUser;
  before(async () => {
    const admin = await buildUser({ admin: true });
    owner = await buildUser();
    // Created by an administrator who then leaves: `owner` is the only Owner.
    group = await buildGroup({ token: admin.token });
    await addMember('groups', group.id, owner.user.id, 50);
    expectStatus(await api(`/groups/${group.id}/members/${admin.user.id}`, { method: 'DELETE', token: owner.token }), 204);
  });
  const owners = async () =>
    (await api(`/groups/${group.id}/members?per_page=100`)).body.filter((m: { access_level: number }) => m.access_level === 50).map((m: { id: number }) => m.id);

  it('cannot be removed (403), even by an administrator', async () => {
    assert.deepEqual(await owners(), [owner.user.id]);
    for (const token of [owner.token, server.rootToken]) {
      const res = await api(`/groups/${group.id}/members/${owner.user.id}`, { method: 'DELETE', token });
      expectStatus(res, 403);
      assert.match(res.body.message, /^403 Forbidden/);
    }
    assert.deepEqual(await owners(), [owner.user.id]);
  });
  it('cannot be demoted (400)', async () => {
    const res = await api(`/groups/${group.id}/members/${owner.user.id}`, { method: 'PUT', token: owner.token, json: { access_level: 40 } });
    expectStatus(res, 400);
    assert.ok(Array.isArray(res.body.message.access_level), JSON.stringify(res.body));
    assert.deepEqual(await owners(), [owner.user.id]);
  });
  it('does not count an Owner whose membership has expired', async () => {
    const lapsed = await buildUser();
    await addMember('groups', group.id, lapsed.user.id, 50);
    await server.running.db
      .updateTable('members')
      .set({ expires_at: daysFromNow(-2) })
      .where('source_type', '=', 'group')
      .where('source_id', '=', group.id)
      .where('user_id', '=', lapsed.user.id)
      .execute();
    const res = await api(`/groups/${group.id}/members/${owner.user.id}`, { method: 'DELETE', token: owner.token });
    expectStatus(res, 403);
    assert.deepEqual(await owners(), [owner.user.id]);
  });
  it('can be demoted and removed once another Owner exists', async () => {
    const second = await buildUser();
    expectStatus(await api(`/groups/${group.id}/members`, { method: 'POST', token: owner.token, json: { user_id: second.user.id, access_level: 50 } }), 201);
    const demoted = await api(`/groups/${group.id}/members/${owner.user.id}`, { method: 'PUT', token: second.token, json: { access_level: 40 } });
    expectStatus(demoted, 200);
    assert.equal(demoted.body.access_level, 40);
    expectStatus(await api(`/groups/${group.id}/members/${owner.user.id}`, { method: 'DELETE', token: second.token }), 204);
    assert.deepEqual(await owners(), [second.user.id]);
  });
});

describe('the last Owner of a project', () => {
  it('may be removed: a project is managed by its group’s Owners', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    const u = await buildUser();
    await addMember('projects', project.id, u.user.id, 50);
    expectStatus(await api(`/projects/${project.id}/members/${u.user.id}`, { method: 'DELETE' }), 204);
    assert.deepEqual((await api(`/projects/${project.id}/members`)).body, []);
  });
});
