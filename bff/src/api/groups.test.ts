import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { groupDetail, groupListItem } from '../../../shared/src/groups.ts';
import { projectSimple, projectSummary } from '../../../shared/src/projects.ts';
import {
  addMember,
  buildGroup,
  buildProject,
  buildUser,
  expectShape,
  expectStatus,
  request as api,
  startTestServer,
  userWithRole,
  type TestServer,
} from '../../test/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const ids = (body: { id: number }[]) => body.map((g) => g.id);

/** A real TIFF: one grey pixel, uncompressed, in either byte order (II little-endian, MM big-endian). */
function tiff(order: 'II' | 'MM'): Buffer<ArrayBuffer> {
  const le = order === 'II';
  // [tag, type (3 SHORT, 4 LONG), value]: width, height, bits per sample, no compression, black is zero, strip offset, samples per pixel, rows per strip, strip bytes.
  const entries: [number, number, number][] = [[256, 3, 1], [257, 3, 1], [258, 3, 8], [259, 3, 1], [262, 3, 1], [273, 4, 122], [277, 3, 1], [278, 3, 1], [279, 4, 1]];
  const buf = Buffer.alloc(123);
  buf.write(order, 0, 'latin1');
  const u16 = (v: number, at: number) => (le ? buf.writeUInt16LE(v, at) : buf.writeUInt16BE(v, at));
  const u32 = (v: number, at: number) => (le ? buf.writeUInt32LE(v, at) : buf.writeUInt32BE(v, at));
  u16(42, 2);
  u32(8, 4);
  u16(entries.length, 8);
  entries.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    u16(tag, at);
    u16(type, at + 2);
    u32(1, at + 4);
    if (type === 3) u16(value, at + 8);
    else u32(value, at + 8);
  });
  buf[122] = 0x80;
  return buf;
}

describe('GET /groups', () => {
  let pub: { id: number }, internal: { id: number }, priv: { id: number }, sub: { id: number };
  let member: Awaited<ReturnType<typeof buildUser>>;
  before(async () => {
    pub = await buildGroup({ visibility: 'public', name: 'Zeta public' });
    internal = await buildGroup({ visibility: 'internal', name: 'Alpha internal' });
    priv = await buildGroup({ visibility: 'private', name: 'Mu private' });
    sub = await buildGroup({ visibility: 'private', parent_id: priv.id });
    member = await userWithRole(priv.id, 30);
  });

  describe('without authentication', () => {
    it('lists only public groups', async () => {
      const res = await api('/groups?per_page=100', { token: null });
      expectStatus(res, 200);
      for (const g of res.body) expectShape(groupListItem, g);
      assert.ok(ids(res.body).includes(pub.id));
      assert.ok(!ids(res.body).includes(internal.id));
      assert.ok(!ids(res.body).includes(priv.id));
      assert.ok(res.body.every((g: { visibility: string }) => g.visibility === 'public'));
    });
    it('answers 401 to an unknown token even though anonymous access is allowed', async () => {
      const res = await api('/groups', { token: 'not-a-token' });
      expectStatus(res, 401);
      assert.deepEqual(res.body, { message: '401 Unauthorized' });
    });
  });

  describe('as a member', () => {
    it('lists only groups where the caller is a member by default, subgroups included', async () => {
      const res = await api('/groups?per_page=100', { token: member.token });
      expectStatus(res, 200);
      assert.deepEqual(ids(res.body).sort(), [priv.id, sub.id].sort());
    });
    it('adds public and internal groups with all_available=true', async () => {
      const res = await api('/groups?all_available=true&per_page=100', { token: member.token });
      const got = ids(res.body);
      for (const id of [pub.id, internal.id, priv.id, sub.id]) assert.ok(got.includes(id), `missing ${id}`);
    });
    it('filters with min_access_level and owned', async () => {
      expectStatus(await api('/groups?min_access_level=40', { token: member.token }), 200);
      assert.deepEqual((await api('/groups?min_access_level=40', { token: member.token })).body, []);
      assert.deepEqual(ids((await api('/groups?min_access_level=30', { token: member.token })).body).sort(), [priv.id, sub.id].sort());
      assert.deepEqual((await api('/groups?owned=true', { token: member.token })).body, []);
    });
    it('counts an Owner membership for owned only while it is in force, as /namespaces?owned_only does', async () => {
      const group = await buildGroup({ visibility: 'public' });
      const owner = await userWithRole(group.id, 50);
      const owned = async () => ids((await api('/groups?owned=true', { token: owner.token })).body);
      const ownedNamespaces = async () => ids((await api('/namespaces?owned_only=true', { token: owner.token })).body);
      assert.deepEqual(await owned(), [group.id]);
      assert.deepEqual(await ownedNamespaces(), [group.id]);
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      await server.running.db.updateTable('members').set({ expires_at: yesterday }).where('source_type', '=', 'group').where('source_id', '=', group.id).where('user_id', '=', owner.user.id).execute();
      assert.deepEqual(await owned(), []);
      assert.deepEqual(await ownedNamespaces(), []);
    });
    it('never shows administrator-only statistics', async () => {
      const res = await api('/groups?statistics=true', { token: member.token });
      assert.ok(res.body.every((g: Record<string, unknown>) => !('statistics' in g)));
    });
  });

  describe('as an administrator', () => {
    it('lists every group, filtered by search, visibility, top_level_only and skip_groups', async () => {
      const all = await api('/groups?per_page=100');
      for (const id of [pub.id, internal.id, priv.id, sub.id]) assert.ok(ids(all.body).includes(id));
      const search = await api('/groups?search=ALPHA');
      assert.deepEqual(ids(search.body), [internal.id]);
      const vis = await api('/groups?visibility=internal&per_page=100');
      assert.ok(vis.body.every((g: { visibility: string }) => g.visibility === 'internal'));
      const top = await api('/groups?top_level_only=true&per_page=100');
      assert.ok(!ids(top.body).includes(sub.id));
      const skip = await api(`/groups?per_page=100&skip_groups[]=${pub.id}&skip_groups[]=${internal.id}`);
      assert.ok(!ids(skip.body).includes(pub.id) && !ids(skip.body).includes(internal.id));
    });
    it('orders by name by default and by id or path on request', async () => {
      const byName = (await api('/groups?per_page=100')).body.map((g: { name: string }) => g.name);
      assert.deepEqual(byName, [...byName].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      const byIdDesc = ids((await api('/groups?order_by=id&sort=desc&per_page=100')).body);
      assert.deepEqual(byIdDesc, [...byIdDesc].sort((a, b) => b - a));
      const byPath = (await api('/groups?order_by=path&per_page=100')).body.map((g: { path: string }) => g.path);
      assert.deepEqual(byPath, [...byPath].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    });
    it('filters by archived, active, marked_for_deletion_on and repository_storage, each call with its own values', async () => {
      const db = server.running.db;
      await db.updateTable('groups').set({ archived: 1 }).where('id', '=', pub.id).execute();
      await db.updateTable('groups').set({ marked_for_deletion_on: '2026-01-02' }).where('id', '=', internal.id).execute();
      await db.updateTable('groups').set({ repository_storage: 'other' }).where('id', '=', priv.id).execute();
      try {
        assert.deepEqual(ids((await api('/groups?archived=true&per_page=100')).body), [pub.id]);
        assert.ok(!ids((await api('/groups?archived=false&per_page=100')).body).includes(pub.id));
        const inactive = ids((await api('/groups?active=false&per_page=100')).body);
        assert.deepEqual(inactive.sort(), [pub.id, internal.id].sort());
        const active = ids((await api('/groups?active=true&per_page=100')).body);
        assert.ok(!active.includes(pub.id) && !active.includes(internal.id) && active.includes(priv.id));
        assert.deepEqual(ids((await api('/groups?marked_for_deletion_on=2026-01-02')).body), [internal.id]);
        assert.deepEqual((await api('/groups?marked_for_deletion_on=2026-01-03')).body, []);
        assert.deepEqual(ids((await api('/groups?repository_storage=other')).body), [priv.id]);
        assert.ok(ids((await api('/groups?repository_storage=default&per_page=100')).body).includes(pub.id));
        // The same filter with other values: one compiled query, each call's own answer.
        assert.deepEqual(ids((await api(`/groups?skip_groups[]=${pub.id}&search=ALPHA`)).body), [internal.id]);
        assert.deepEqual((await api(`/groups?skip_groups[]=${internal.id}&search=ALPHA`)).body, []);
      } finally {
        await db.updateTable('groups').set({ archived: 0, marked_for_deletion_on: null, repository_storage: 'default' }).where('id', 'in', [pub.id, internal.id, priv.id]).execute();
      }
    });
    it('adds statistics, with root storage statistics on top-level groups', async () => {
      const res = await api(`/groups?statistics=true&per_page=100`);
      const top = res.body.find((g: { id: number }) => g.id === priv.id);
      const child = res.body.find((g: { id: number }) => g.id === sub.id);
      expectShape(groupListItem, top);
      assert.equal(typeof top.statistics.storage_size, 'number');
      assert.equal(top.root_storage_statistics.container_registry_size_is_estimated, false);
      assert.ok(child.statistics && !('root_storage_statistics' in child));
    });
    it('adds custom attributes and filters by them', async () => {
      const now = new Date().toISOString();
      await server.running.db
        .insertInto('custom_attributes')
        .values({ model_type: 'group', model_id: pub.id, key: 'team', value: 'red', created_at: now, updated_at: now })
        .execute();
      const res = await api('/groups?with_custom_attributes=true&custom_attributes[team]=red');
      assert.deepEqual(ids(res.body), [pub.id]);
      assert.deepEqual(res.body[0].custom_attributes, [{ key: 'team', value: 'red' }]);
    });
  });

  describe('pagination', () => {
    it('sets the offset headers and absolute Link URLs', async () => {
      const total = (await api('/groups?per_page=100')).body.length;
      const res = await api('/groups?per_page=2&page=2');
      expectStatus(res, 200);
      assert.equal(res.body.length, 2);
      assert.equal(res.headers.get('x-total'), String(total));
      assert.equal(res.headers.get('x-total-pages'), String(Math.ceil(total / 2)));
      assert.equal(res.headers.get('x-per-page'), '2');
      assert.equal(res.headers.get('x-page'), '2');
      assert.equal(res.headers.get('x-prev-page'), '1');
      assert.equal(res.headers.get('x-next-page'), total > 4 ? '3' : '');
      const link = res.headers.get('link')!;
      for (const rel of ['prev', 'first', 'last']) assert.match(link, new RegExp(`<${server.url}/api/v4/groups\\?[^>]*>; rel="${rel}"`));
    });
    it('caps per_page at 100', async () => {
      const res = await api('/groups?per_page=500');
      expectStatus(res, 200);
      assert.equal(res.headers.get('x-per-page'), '100');
    });
    it('walks every group with keyset pagination, in the same order as offset pagination', async () => {
      const expected = ids((await api('/groups?per_page=100&order_by=name')).body);
      const seen: number[] = [];
      let url: string | undefined = '/groups?pagination=keyset&order_by=name&per_page=2';
      while (url) {
        const res: Awaited<ReturnType<typeof api<{ id: number }[]>>> = await api(url);
        expectStatus(res, 200);
        assert.equal(res.headers.get('x-total'), null);
        seen.push(...ids(res.body));
        url = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
      }
      assert.deepEqual(seen, expected);
    });
  });

  describe('with invalid parameters', () => {
    for (const [query, field] of [
      ['per_page=0', 'per_page'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['order_by=size', 'order_by'],
      ['visibility=secret', 'visibility'],
      ['min_access_level=33', 'min_access_level'],
      ['all_available=maybe', 'all_available'],
      ['pagination=keyset&cursor=garbage', 'cursor'],
    ]) {
      it(`answers 400 naming ${field} for ${query}`, async () => {
        const res = await api(`/groups?${query}`);
        expectStatus(res, 400);
        assert.ok(res.body.message[field], JSON.stringify(res.body));
      });
    }
  });
});

describe('GET /groups/:id', () => {
  let pub: { id: number; full_path: string }, priv: { id: number; full_path: string };
  before(async () => {
    pub = await buildGroup({ visibility: 'public' });
    priv = await buildGroup({ visibility: 'private' });
    await buildProject(pub.id, { visibility: 'public' });
    await buildProject(pub.id, { visibility: 'private' });
  });

  it('reads a public group without authentication, without owner-only fields', async () => {
    const res = await api(`/groups/${pub.id}`, { token: null });
    expectStatus(res, 200);
    const g = expectShape(groupDetail, res.body);
    assert.equal(g.runners_token, undefined);
    assert.equal(g.enabled_git_access_protocol, undefined);
    assert.equal(g.projects!.length, 1, 'anonymous callers see only the public project');
    assert.equal(g.prevent_sharing_groups_outside_hierarchy, false);
  });
  it('accepts the URL-encoded full path', async () => {
    const sub = await buildGroup({ parent_id: pub.id, visibility: 'public' });
    const res = await api(`/groups/${encodeURIComponent(sub.full_path)}`, { token: null });
    expectStatus(res, 200);
    assert.equal(res.body.id, sub.id);
    assert.equal(res.body.parent_id, pub.id);
    assert.ok(!('prevent_sharing_groups_outside_hierarchy' in res.body), 'only top-level groups carry it');
  });
  it('shows runners_token and enabled_git_access_protocol to an Owner and an administrator only', async () => {
    const owner = await userWithRole(priv.id, 50);
    const dev = await userWithRole(priv.id, 30);
    assert.match((await api(`/groups/${priv.id}`, { token: owner.token })).body.runners_token, /^GR1348941/);
    assert.equal((await api(`/groups/${priv.id}`)).body.enabled_git_access_protocol, 'all');
    const asDev = await api(`/groups/${priv.id}`, { token: dev.token });
    expectStatus(asDev, 200);
    assert.equal(asDev.body.runners_token, undefined);
  });
  it('omits projects with with_projects=false and caps them at 100', async () => {
    const res = await api(`/groups/${pub.id}?with_projects=false`);
    assert.ok(!('projects' in res.body) && !('shared_projects' in res.body));
    const big = await buildGroup();
    for (let i = 0; i < 101; i++) await buildProject(big.id);
    const full = await api(`/groups/${big.id}`);
    assert.equal(full.body.projects.length, 100);
  });
  it('answers 404 for a private group the caller cannot see, as for a missing one', async () => {
    const stranger = await buildUser();
    for (const [path, token] of [
      [`/groups/${priv.id}`, null],
      [`/groups/${priv.id}`, stranger.token],
      ['/groups/999999', undefined],
      ['/groups/99999999999999', undefined],
      ['/groups/no%2Fsuch%2Fgroup', undefined],
    ] as const) {
      const res = await api(path, { token });
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: '404 Group Not Found' });
    }
  });
  it('adds custom attributes for administrators only', async () => {
    const dev = await userWithRole(pub.id, 30);
    const asAdmin = await api(`/groups/${pub.id}?with_custom_attributes=true`);
    assert.deepEqual(asAdmin.body.custom_attributes, []);
    const asDev = await api(`/groups/${pub.id}?with_custom_attributes=true`, { token: dev.token });
    assert.ok(!('custom_attributes' in asDev.body));
  });
});

describe('PUT /groups/:id', () => {
  let group: { id: number; full_path: string; path: string };
  let owner: Awaited<ReturnType<typeof buildUser>>;
  before(async () => {
    group = await buildGroup({ visibility: 'internal' });
    owner = await userWithRole(group.id, 50);
  });
  const read = async () => (await api(`/groups/${group.id}`)).body;

  describe('as an Owner', () => {
    it('updates every kind of field and returns the group detail', async () => {
      const res = await api(`/groups/${group.id}`, {
        method: 'PUT',
        token: owner.token,
        json: {
          name: 'Renamed',
          description: 'New description',
          visibility: 'private',
          request_access_enabled: false,
          share_with_group_lock: true,
          two_factor_grace_period: 12,
          require_two_factor_authentication: true,
          project_creation_level: 'maintainer',
          subgroup_creation_level: 'owner',
          emails_enabled: false,
          mentions_disabled: true,
          lfs_enabled: false,
          default_branch: 'trunk',
          default_branch_protection_defaults: { allowed_to_push: [{ access_level: 30 }], allow_force_push: true },
          enabled_git_access_protocol: 'ssh',
          shared_runners_setting: 'disabled_and_overridable',
          wiki_access_level: 'private',
          ai_availability: 'never_on',
          ip_restriction_ranges: '192.168.0.0/24,10.0.0.1',
          allowed_email_domains_list: 'example.com,corp.example.org',
          unique_project_download_limit: 10_000,
          unique_project_download_limit_interval_in_seconds: 864_000,
          unique_project_download_limit_allowlist: [owner.user.username],
          unique_project_download_limit_alertlist: [owner.user.id],
          max_artifacts_size: 50,
          math_rendering_limits_enabled: false,
        },
      });
      expectStatus(res, 200);
      const g = expectShape(groupDetail, res.body);
      assert.equal(g.name, 'Renamed');
      assert.equal(g.full_name, 'Renamed');
      assert.equal(g.visibility, 'private');
      assert.equal(g.two_factor_grace_period, 12);
      assert.equal(g.emails_enabled, false);
      assert.equal(g.emails_disabled, true);
      assert.deepEqual(g.default_branch_protection_defaults.allowed_to_push, [{ access_level: 30 }]);
      assert.deepEqual(g.default_branch_protection_defaults.allowed_to_merge, [{ access_level: 40 }]);
      assert.equal(g.default_branch_protection_defaults.allow_force_push, true);
      assert.equal(g.enabled_git_access_protocol, 'ssh');
      assert.equal(g.unique_project_download_limit, 10_000);
      assert.deepEqual(g.unique_project_download_limit_alertlist, [owner.user.id]);
      const again = await read();
      assert.equal(again.description, 'New description');
      assert.equal(again.ip_restriction_ranges, '192.168.0.0/24,10.0.0.1');
      assert.equal(again.shared_runners_setting, 'disabled_and_overridable');
    });
    it('accepts form fields as well as JSON', async () => {
      const res = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, form: { description: 'from a form', lfs_enabled: 'true' } });
      expectStatus(res, 200);
      assert.equal(res.body.description, 'from a form');
      assert.equal(res.body.lfs_enabled, true);
    });
    it('renames the path of subgroups and projects with the group', async () => {
      const sub = await buildGroup({ parent_id: group.id });
      const project = await buildProject(sub.id);
      const newPath = `${group.path}-moved`;
      const res = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, json: { path: newPath } });
      expectStatus(res, 200);
      assert.equal(res.body.full_path, newPath);
      assert.equal((await api(`/groups/${sub.id}`)).body.full_path, `${newPath}/${sub.path}`);
      assert.equal((await api(`/projects/${project.id}`)).body.path_with_namespace, `${newPath}/${sub.path}/${project.path_with_namespace.split('/').pop()}`);
      assert.equal((await api(`/groups/${encodeURIComponent(`${newPath}/${sub.path}`)}`)).status, 200);
      group = { ...group, path: newPath, full_path: newPath };
    });
    it('uploads, serves and removes an avatar', async () => {
      const form = new FormData();
      form.append('avatar', new Blob([PNG], { type: 'image/png' }), 'logo.png');
      const res = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, multipart: form });
      expectStatus(res, 200);
      assert.match(res.body.avatar_url, new RegExp(`^${server.url}/api/v4/groups/${group.id}/avatar`));
      const file = await fetch(`${server.url}/api/v4/groups/${group.id}/avatar`, { headers: { 'PRIVATE-TOKEN': owner.token } });
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await file.arrayBuffer()), PNG);
      const removed = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, json: { avatar: '' } });
      expectStatus(removed, 200);
      assert.equal(removed.body.avatar_url, null);
      expectStatus(await api(`/groups/${group.id}/avatar`, { token: owner.token }), 404);
    });
    it('takes a TIFF, as the platform’s list of formats says (both byte orders), and serves it as image/tiff', async () => {
      for (const order of ['II', 'MM'] as const) {
        const form = new FormData();
        form.append('avatar', new Blob([tiff(order)], { type: 'image/tiff' }), 'scan.tiff');
        const res = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, multipart: form });
        expectStatus(res, 200);
        const file = await fetch(`${server.url}/api/v4/groups/${group.id}/avatar`, { headers: { 'PRIVATE-TOKEN': owner.token } });
        assert.equal(file.status, 200);
        assert.equal(file.headers.get('content-type'), 'image/tiff');
        assert.match(file.headers.get('content-disposition') ?? '', /filename="scan\.tiff"/);
        assert.deepEqual(Buffer.from(await file.arrayBuffer()), tiff(order));
      }
      expectStatus(await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, json: { avatar: '' } }), 200);
    });
    it('refuses a file that is not an image, and one over 200 KiB, changing nothing', async () => {
      const form = new FormData();
      form.append('avatar', new Blob(['<script>alert(1)</script>'], { type: 'image/png' }), 'evil.png');
      const res = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, multipart: form });
      expectStatus(res, 400);
      assert.deepEqual(res.body.message.avatar, ['file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp']);
      const big = new FormData();
      big.append('avatar', new Blob([PNG, Buffer.alloc(210 * 1024)], { type: 'image/png' }), 'big.png');
      const tooBig = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, multipart: big });
      expectStatus(tooBig, 400);
      assert.equal((await read()).avatar_url, null);
    });
  });

  describe('with invalid parameters', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['an unknown visibility', { visibility: 'secret' }, 'visibility'],
      ['a download limit over 10,000', { unique_project_download_limit: 10_001 }, 'unique_project_download_limit'],
      ['an interval over 864,000', { unique_project_download_limit_interval_in_seconds: 864_001 }, 'unique_project_download_limit_interval_in_seconds'],
      ['101 allowlist entries', { unique_project_download_limit_allowlist: Array.from({ length: 101 }, (_, i) => `u${i}`) }, 'unique_project_download_limit_allowlist'],
      ['an unknown user in the alertlist', { unique_project_download_limit_alertlist: [987654] }, 'unique_project_download_limit_alertlist'],
      ['an unknown user in the allowlist', { unique_project_download_limit_allowlist: ['nobody-here'] }, 'unique_project_download_limit_allowlist'],
      ['a bad IP range', { ip_restriction_ranges: '10.0.0.0/99' }, 'ip_restriction_ranges'],
      ['a bad email domain', { allowed_email_domains_list: 'not a domain' }, 'allowed_email_domains_list'],
      ['an unknown project creation level', { project_creation_level: 'everyone' }, 'project_creation_level'],
      ['a text grace period', { two_factor_grace_period: 'abc' }, 'two_factor_grace_period'],
      ['an empty name', { name: '' }, 'name'],
      ['a path with a slash', { path: 'a/b' }, 'path'],
      ['a name over 255 characters', { name: 'x'.repeat(256) }, 'name'],
      ['an administrator-only field', { shared_runners_minutes_limit: 10 }, 'shared_runners_minutes_limit'],
      ['a file template project outside the group', { file_template_project_id: 987654 }, 'file_template_project_id'],
    ];
    for (const [what, body, field] of cases) {
      it(`answers 400 naming ${field} for ${what}, and changes nothing`, async () => {
        const before = await read();
        const res = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, json: { description: 'must not be saved', ...body } });
        expectStatus(res, 400);
        assert.ok(res.body.message[field], JSON.stringify(res.body));
        assert.deepEqual(await read(), before);
      });
    }
    it('names nested fields in nested objects', async () => {
      const res = await api(`/groups/${group.id}`, {
        method: 'PUT',
        token: owner.token,
        json: { default_branch_protection_defaults: { allowed_to_push: [{ access_level: 35 }] } },
      });
      expectStatus(res, 400);
      assert.ok(res.body.message.default_branch_protection_defaults.allowed_to_push['0'].access_level);
    });
    it('answers 400 for a path taken by a sibling group', async () => {
      const a = await buildGroup();
      const b = await buildGroup();
      const res = await api(`/groups/${b.id}`, { method: 'PUT', json: { path: a.path.toUpperCase() } });
      expectStatus(res, 400);
      assert.deepEqual(res.body.message.path, ['has already been taken']);
    });
    it('answers 400 for a body that is not JSON', async () => {
      const res = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, headers: { 'Content-Type': 'application/json' }, form: undefined, json: undefined, multipart: undefined });
      // An empty JSON body is an update without changes.
      expectStatus(res, 200);
      const bad = await fetch(`${server.url}/api/v4/groups/${group.id}`, { method: 'PUT', headers: { 'PRIVATE-TOKEN': owner.token, 'Content-Type': 'application/json' }, body: '{"name":' });
      assert.equal(bad.status, 400);
      assert.match((await bad.json()).message, /not valid JSON/);
    });
  });

  describe('visibility rules of the tree', () => {
    it('refuses a subgroup more visible than its parent, and a parent less visible than its children', async () => {
      const parent = await buildGroup({ visibility: 'internal' });
      const child = await buildGroup({ parent_id: parent.id, visibility: 'internal' });
      const up = await api(`/groups/${child.id}`, { method: 'PUT', json: { visibility: 'public' } });
      expectStatus(up, 400);
      assert.ok(up.body.message.visibility);
      const down = await api(`/groups/${parent.id}`, { method: 'PUT', json: { visibility: 'private' } });
      expectStatus(down, 400);
      assert.equal((await api(`/groups/${parent.id}`)).body.visibility, 'internal');
    });
    it('refuses top-level-only settings on a subgroup', async () => {
      const child = await buildGroup({ parent_id: group.id });
      const res = await api(`/groups/${child.id}`, { method: 'PUT', json: { unique_project_download_limit: 5 } });
      expectStatus(res, 400);
      assert.ok(res.body.message.unique_project_download_limit);
    });
  });

  describe('without the role', () => {
    it('answers 403 to a Maintainer and changes nothing', async () => {
      const maintainer = await userWithRole(group.id, 40);
      const before = await read();
      const res = await api(`/groups/${group.id}`, { method: 'PUT', token: maintainer.token, json: { description: 'nope' } });
      expectStatus(res, 403);
      assert.deepEqual(res.body, { message: '403 Forbidden' });
      assert.deepEqual(await read(), before);
    });
    it('answers 404 to a stranger, 401 without a token, 403 to a read_api token', async () => {
      const stranger = await buildUser();
      expectStatus(await api(`/groups/${group.id}`, { method: 'PUT', token: stranger.token, json: { description: 'x' } }), 404);
      const anon = await api(`/groups/${group.id}`, { method: 'PUT', token: null, json: { description: 'x' } });
      expectStatus(anon, 401);
      assert.deepEqual(anon.body, { message: '401 Unauthorized' });
      const readOnly = await userWithRole(group.id, 50, ['read_api']);
      const res = await api(`/groups/${group.id}`, { method: 'PUT', token: readOnly.token, json: { description: 'x' } });
      expectStatus(res, 403);
      assert.equal(res.body.error, 'insufficient_scope');
    });
  });

  describe('for an unknown group', () => {
    it('answers 404 Group Not Found', async () => {
      const res = await api('/groups/424242', { method: 'PUT', json: { description: 'x' } });
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: '404 Group Not Found' });
    });
  });
});

describe('GET /groups/:id/avatar', () => {
  it('serves a public group’s avatar without authentication and hides a private one', async () => {
    const pub = await buildGroup({ visibility: 'public' });
    const priv = await buildGroup({ visibility: 'private' });
    for (const g of [pub, priv]) {
      const form = new FormData();
      form.append('avatar', new Blob([PNG], { type: 'image/png' }), 'a.png');
      expectStatus(await api(`/groups/${g.id}`, { method: 'PUT', multipart: form }), 200);
    }
    const ok = await fetch(`${server.url}/api/v4/groups/${pub.id}/avatar`);
    assert.equal(ok.status, 200);
    assert.equal((await api(`/groups/${priv.id}/avatar`, { token: null })).status, 404);
  });
  it('answers 404 when the group has no avatar', async () => {
    const g = await buildGroup();
    expectStatus(await api(`/groups/${g.id}/avatar`), 404);
  });
});

describe('POST /groups', () => {
  it('creates a top-level group owned by its creator', async () => {
    const u = await buildUser();
    const res = await api('/groups', { method: 'POST', token: u.token, json: { name: 'Mine', path: `mine-${u.user.id}` } });
    expectStatus(res, 201);
    const g = expectShape(groupDetail, res.body);
    assert.equal(g.visibility, 'private');
    assert.ok(g.runners_token, 'the creator is an Owner');
    const members = await api(`/groups/${g.id}/members`, { token: u.token });
    assert.deepEqual(members.body.map((m: { id: number; access_level: number }) => [m.id, m.access_level]), [[u.user.id, 50]]);
  });
  it('creates a subgroup for a Maintainer of the parent and refuses a Developer', async () => {
    const parent = await buildGroup();
    const maintainer = await userWithRole(parent.id, 40);
    const dev = await userWithRole(parent.id, 30);
    const ok = await api('/groups', { method: 'POST', token: maintainer.token, json: { name: 'Sub', path: 'sub', parent_id: parent.id } });
    expectStatus(ok, 201);
    assert.equal(ok.body.full_path, `${parent.full_path}/sub`);
    assert.equal(ok.body.full_name, `${parent.name} / Sub`);
    const no = await api('/groups', { method: 'POST', token: dev.token, json: { name: 'Sub2', path: 'sub2', parent_id: parent.id } });
    expectStatus(no, 403);
  });
  it('answers 400 for a missing name, a taken path and an unknown parent', async () => {
    const missing = await api('/groups', { method: 'POST', json: { path: 'x-missing' } });
    expectStatus(missing, 400);
    assert.deepEqual(missing.body, { message: 'name is missing' });
    const g = await buildGroup();
    const taken = await api('/groups', { method: 'POST', json: { name: 'X', path: g.path } });
    expectStatus(taken, 400);
    assert.deepEqual(taken.body.message.path, ['has already been taken']);
    const orphan = await api('/groups', { method: 'POST', json: { name: 'X', path: 'orphan-x', parent_id: 987654 } });
    expectStatus(orphan, 400);
  });
  it('answers 401 without authentication', async () => {
    expectStatus(await api('/groups', { method: 'POST', token: null, json: { name: 'a', path: 'a' } }), 401);
  });
});

describe('DELETE /groups/:id', () => {
  it('removes a group with its subgroups and projects for an Owner', async () => {
    const g = await buildGroup();
    const owner = await userWithRole(g.id, 50);
    const sub = await buildGroup({ parent_id: g.id });
    const project = await buildProject(sub.id);
    const res = await api(`/groups/${g.id}`, { method: 'DELETE', token: owner.token });
    expectStatus(res, 202);
    expectShape(z.object({ message: z.literal('202 Accepted') }), res.body);
    for (const path of [`/groups/${g.id}`, `/groups/${sub.id}`, `/projects/${project.id}`]) expectStatus(await api(path), 404);
  });
  it('answers 403 to a Maintainer and keeps the group', async () => {
    const g = await buildGroup();
    const maintainer = await userWithRole(g.id, 40);
    expectStatus(await api(`/groups/${g.id}`, { method: 'DELETE', token: maintainer.token }), 403);
    expectStatus(await api(`/groups/${g.id}`), 200);
  });
  it('answers 404 for an unknown group', async () => {
    expectStatus(await api('/groups/7777777', { method: 'DELETE' }), 404);
  });
});

describe('unknown routes', () => {
  it('answer 404 JSON, never an HTML page', async () => {
    for (const path of ['/nothing/here', '/groups/1/nothing']) {
      const res = await api(path);
      expectStatus(res, 404);
      assert.deepEqual(res.body, { error: '404 Not Found' });
    }
  });
});

void addMember;

describe('input that must never reach the database', () => {
  it('answers 400 to NUL characters anywhere and to integers beyond the column range', async () => {
    const g = await buildGroup();
    const cases = [
      api(`/groups/${encodeURIComponent('a\u0000b')}`),
      api(`/groups?search=${encodeURIComponent('x\u0000')}`),
      api(`/groups/${g.id}`, { method: 'PUT', json: { description: 'a\u0000b' } }),
      api(`/groups/${g.id}`, { method: 'PUT', json: { max_artifacts_size: 1e20 } }),
      api(`/groups?skip_groups[]=99999999999`),
      api('/api/console/session', { method: 'POST', token: null, json: { username: 'root\u0000', password: 'x' } }),
    ];
    for (const res of await Promise.all(cases)) {
      expectStatus(res, 400);
      assert.ok(res.body.message);
    }
    assert.equal((await api(`/groups/${g.id}`)).body.description, '');
  });
});

describe('GET /groups/:id/subgroups', () => {
  it('lists the visible children of a group with the list filters', async () => {
    const parent = await buildGroup({ visibility: 'public' });
    const a = await buildGroup({ parent_id: parent.id, visibility: 'public', name: 'B child' });
    const b = await buildGroup({ parent_id: parent.id, visibility: 'private', name: 'A child' });
    await buildGroup({ parent_id: a.id, visibility: 'public' });
    const asAdmin = await api(`/groups/${parent.id}/subgroups`);
    expectStatus(asAdmin, 200);
    for (const g of asAdmin.body) expectShape(groupListItem, g);
    assert.deepEqual(ids(asAdmin.body), [b.id, a.id]);
    assert.equal(asAdmin.headers.get('x-total'), '2');
    assert.deepEqual(ids((await api(`/groups/${parent.id}/subgroups`, { token: null })).body), [a.id]);
    assert.deepEqual(ids((await api(`/groups/${parent.id}/subgroups?search=b%20child`)).body), [a.id]);
  });
  it('answers 404 for a group the caller cannot see', async () => {
    const priv = await buildGroup();
    expectStatus(await api(`/groups/${priv.id}/subgroups`, { token: null }), 404);
  });
});

describe('GET /groups/:id/descendant_groups', () => {
  it('lists the visible groups at every depth under the group, with the list filters', async () => {
    const root = await buildGroup({ visibility: 'public' });
    const child = await buildGroup({ parent_id: root.id, visibility: 'public', name: 'B descendant' });
    const grandchild = await buildGroup({ parent_id: child.id, visibility: 'public', name: 'A descendant' });
    const hidden = await buildGroup({ parent_id: child.id, visibility: 'private', name: 'C descendant' });
    const elsewhere = await buildGroup({ visibility: 'public' });
    await buildGroup({ parent_id: elsewhere.id, visibility: 'public' });
    const asAdmin = await api(`/groups/${root.id}/descendant_groups`);
    expectStatus(asAdmin, 200);
    for (const g of asAdmin.body) expectShape(groupListItem, g);
    assert.deepEqual(ids(asAdmin.body), [grandchild.id, child.id, hidden.id]);
    assert.equal(asAdmin.headers.get('x-total'), '3');
    assert.deepEqual(ids((await api(`/groups/${root.id}/descendant_groups`, { token: null })).body), [grandchild.id, child.id]);
    assert.deepEqual(ids((await api(`/groups/${encodeURIComponent(root.full_path)}/descendant_groups?search=a%20desc`)).body), [grandchild.id]);
    assert.deepEqual(ids((await api(`/groups/${root.id}/descendant_groups?order_by=id&sort=desc`)).body), [hidden.id, grandchild.id, child.id]);
    assert.deepEqual(ids((await api(`/groups/${child.id}/descendant_groups?visibility=private`)).body), [hidden.id]);
  });
  it('answers 404 for a group the caller cannot see', async () => {
    const priv = await buildGroup();
    const res = await api(`/groups/${priv.id}/descendant_groups`, { token: null });
    expectStatus(res, 404);
    assert.deepEqual(res.body, { message: '404 Group Not Found' });
  });
});

describe('GET /groups/:id/projects', () => {
  let root: { id: number; full_path: string }, child: { id: number };
  let a: { id: number }, b: { id: number }, inChild: { id: number }, priv: { id: number };
  before(async () => {
    root = await buildGroup({ visibility: 'public' });
    child = await buildGroup({ parent_id: root.id, visibility: 'public' });
    a = await buildProject(root.id, { visibility: 'public' });
    b = await buildProject(root.id, { visibility: 'public' });
    priv = await buildProject(root.id, { visibility: 'private' });
    inChild = await buildProject(child.id, { visibility: 'public' });
  });
  it('lists the group’s own projects, newest first, with the project shape', async () => {
    const res = await api(`/groups/${root.id}/projects`);
    expectStatus(res, 200);
    for (const p of res.body) expectShape(projectSummary, p);
    assert.deepEqual(ids(res.body), [priv.id, b.id, a.id]);
    assert.equal(res.headers.get('x-total'), '3');
  });
  it('includes the subgroups’ projects with include_subgroups, and only what the caller may see', async () => {
    assert.deepEqual(ids((await api(`/groups/${root.id}/projects?include_subgroups=true&order_by=id&sort=asc`)).body), [a.id, b.id, priv.id, inChild.id]);
    assert.deepEqual(ids((await api(`/groups/${root.id}/projects?include_subgroups=true&order_by=id&sort=asc`, { token: null })).body), [a.id, b.id, inChild.id]);
    assert.deepEqual(ids((await api(`/groups/${child.id}/projects?include_ancestor_groups=true&order_by=id&sort=asc`, { token: null })).body), [a.id, b.id, inChild.id]);
  });
  it('filters by search, visibility and archived, and answers simple items with simple=true', async () => {
    const one = await api(`/projects/${a.id}`);
    assert.deepEqual(ids((await api(`/groups/${root.id}/projects?search=${encodeURIComponent(one.body.name)}`)).body), [a.id]);
    assert.deepEqual(ids((await api(`/groups/${root.id}/projects?visibility=private`)).body), [priv.id]);
    assert.deepEqual(ids((await api(`/groups/${root.id}/projects?archived=true`)).body), []);
    const simple = await api(`/groups/${encodeURIComponent(root.full_path)}/projects?simple=true&per_page=1`);
    expectStatus(simple, 200);
    expectShape(projectSimple, simple.body[0]);
    assert.equal('merge_method' in simple.body[0], false);
    assert.equal(simple.headers.get('x-next-page'), '2');
  });
  it('answers 400 for an unknown order and 404 for a group the caller cannot see', async () => {
    expectStatus(await api(`/groups/${root.id}/projects?order_by=color`), 400);
    const hidden = await buildGroup();
    expectStatus(await api(`/groups/${hidden.id}/projects`, { token: null }), 404);
  });
});
