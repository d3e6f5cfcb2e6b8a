import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { buildGroup, buildUser, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { importArchive, importedGroup, platformArchiveEntries, tarGz, untarGz, waitFor, type Entry } from '../../test/group-archive-fixtures.ts';

let seq = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++seq}`;

/** Small limits, so that a bomb and an overlong line stay small in the test. */
const MAX_BYTES = 400_000;
const MAX_LINE = 50_000;

let server: TestServer;
let known: Awaited<ReturnType<typeof buildUser>>;
let owner: Awaited<ReturnType<typeof buildUser>>;
let reporter: Awaited<ReturnType<typeof buildUser>>;
let parent: { id: number; full_path: string };
/** The platform's archive, imported once by the first test and read by the others. */
let imported: { id: number; full_path: string };

before(async () => {
  server = await startTestServer({ GATEHOUSE_IMPORT_MAX_BYTES: String(MAX_BYTES), GATEHOUSE_IMPORT_MAX_LINE_BYTES: String(MAX_LINE) });
  known = await buildUser();
  parent = await buildGroup({ visibility: 'internal' });
  owner = await userWithRole(parent.id, 50);
  reporter = await userWithRole(parent.id, 20);
});
after(() => server.close());

const knownEmail = () => `${known.user.username}@example.com`;
const get = async (p: string) => {
  const res = await api(p);
  expectStatus(res, 200);
  return res.body;
};

/** What a group tree holds, without ids: subgroups, labels, milestones, epics (with their parents). */
async function contentOf(groupId: number) {
  const top = await get(`/groups/${groupId}`);
  const groups = [top, ...(await get(`/groups/${groupId}/descendant_groups?per_page=100`))];
  const rel = (fullPath: string) => fullPath.slice(top.full_path.length) || '.';
  const out: Record<string, unknown> = {};
  for (const g of groups) {
    const epics = await get(`/groups/${g.id}/epics?per_page=100&include_descendant_groups=false`);
    const byId = new Map<number, string>();
    for (const e of await get(`/groups/${groupId}/epics?per_page=100`)) byId.set(e.id, e.title);
    out[rel(g.full_path)] = {
      visibility: g.visibility,
      labels: (await get(`/groups/${g.id}/labels?per_page=100&include_ancestor_groups=false`)).map((l: { name: string; color: string }) => [l.name, l.color]).sort(),
      milestones: (await get(`/groups/${g.id}/milestones?per_page=100&include_ancestors=false`)).map((m: { iid: number; title: string; state: string }) => [m.iid, m.title, m.state]).sort(),
      epics: epics
        .filter((e: { group_id: number }) => e.group_id === g.id)
        .map((e: { iid: number; title: string; state: string; parent_id: number | null }) => [e.iid, e.title, e.state, e.parent_id === null ? null : (byId.get(e.parent_id) ?? 'elsewhere')])
        .sort(),
    };
  }
  return out;
}

/** Exports the group and downloads the archive once written. */
async function exportOf(groupId: number, token?: string): Promise<Buffer> {
  const started = await api(`/groups/${groupId}/export`, { method: 'POST', token });
  expectStatus(started, 202);
  assert.deepEqual(started.body, { message: '202 Accepted' });
  const download = () => fetch(`${server.url}/api/v4/groups/${groupId}/export/download`, { headers: { 'PRIVATE-TOKEN': token ?? server.rootToken } });
  // The export's row says scheduled until the job has written it (the download 404s meanwhile).
  return waitFor(async () => {
    const res = await download();
    if (res.status !== 200) return undefined;
    assert.equal(res.headers.get('content-type'), 'application/gzip');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="[\d-_]+_.+_export\.tar\.gz"$/);
    return Buffer.from(await res.arrayBuffer());
  }, `the export of group ${groupId}`);
}

describe('POST /groups/import', () => {
  it('as a user who may create groups: imports an archive in the platform’s layout, private, with its subgroups, labels, milestones, epics and members', async () => {
    const path = unique('imported');
    const res = await importArchive(await tarGz(platformArchiveEntries(knownEmail())), { name: 'Imported', path });
    expectStatus(res, 202);
    assert.deepEqual(res.body, { message: '202 Accepted' });
    const group = await importedGroup(path);
    assert.deepEqual([group.import_status, group.import_error, group.visibility, group.description], ['finished', null, 'private', 'platform-top description']);
    imported = group;
    assert.deepEqual(await contentOf(group.id), {
      '.': {
        visibility: 'private',
        labels: [
          ['Bruffefunc', '#1d2da4'],
          ['Cafunc', '#73ed5b'],
        ],
        milestones: [
          [3, 'v2.0', 'closed'],
          [5, 'v4.0', 'active'],
        ],
        epics: [
          [1, 'Provident neque', 'opened', null],
          [2, 'Omnis accusantium', 'opened', 'Provident neque'],
          [3, 'Quis dolore', 'closed', null],
        ],
      },
      '/child-one': { visibility: 'private', labels: [['Child label', '#112233']], milestones: [], epics: [[1, 'Child epic under a parent group epic', 'opened', 'Provident neque']] },
      '/child-one/grandchild': { visibility: 'private', labels: [], milestones: [[1, 'Deep', 'active']], epics: [] },
    });
    // The member known here by email is a member with the archive's role; the unknown ones are not (placeholders hold their part).
    const members = await get(`/groups/${group.id}/members`);
    assert.deepEqual(members.map((m: { username: string; access_level: number }) => [m.username, m.access_level]).sort(), [['root', 50], [known.user.username, 40]].sort());
  });

  it('into a parent group: the imported tree takes the parent’s visibility', async () => {
    const path = unique('under');
    expectStatus(await importArchive(await tarGz(platformArchiveEntries(knownEmail())), { name: 'Under', path, parent_id: parent.id }, owner.token), 202);
    const group = await importedGroup(`${parent.full_path}/${path}`);
    assert.equal(group.import_status, 'finished');
    const tree = [group, ...(await get(`/groups/${group.id}/descendant_groups`))];
    assert.deepEqual(
      tree.map((g: { visibility: string }) => g.visibility),
      ['internal', 'internal', 'private'],
    );
  });

  it('an archive whose content cannot be imported: 202, then failed with the reason, and the group left empty', async () => {
    const path = unique('broken');
    const entries = platformArchiveEntries(knownEmail()).map((e) => (e.name === './tree/groups/4353.json' ? { ...e, body: JSON.stringify({ id: 4353, name: 'orphan', path: 'orphan', parent_id: 999 }) } : e));
    expectStatus(await importArchive(await tarGz(entries), { name: 'Broken', path }), 202);
    const group = await importedGroup(path);
    assert.equal(group.import_status, 'failed');
    assert.match(group.import_error ?? '', /Parent group not found for group 4353/);
    assert.deepEqual(await get(`/groups/${group.id}/descendant_groups`), []);
    assert.deepEqual(await get(`/groups/${group.id}/labels`), []);
    assert.deepEqual(await get(`/groups/${group.id}/epics`), []);
    // No archive kept in the file store either (nor any other import's: each is removed once done, the earlier ones just after).
    const kept = () => server.running.db.selectFrom('stored_files').select('key').where('key', 'like', 'group-imports/%').execute();
    await waitFor(async () => ((await kept()).length ? undefined : true), 'the imports’ archives removed from the file store');
  });

  describe('hostile archives: 400 saying why, and no group', () => {
    const base = (): Entry[] => [
      { name: 'VERSION', body: '0.2.4' },
      { name: 'tree/groups/_all.ndjson', body: '1\n' },
      { name: 'tree/groups/1.json', body: JSON.stringify({ id: 1, name: 'x', path: 'x' }) },
    ];
    const cases: [string, () => Promise<Buffer>, RegExp][] = [
      ['not gzip', async () => Buffer.from('just some text, no archive'), /not a gzip archive/],
      ['gzip but not tar', async () => zlib.gzipSync(Buffer.from('x'.repeat(2000))), /not a tar archive/],
      ['an entry outside its folder', async () => tarGz([...base(), { name: 'tree/../../etc/passwd', body: 'x' }]), /outside its folder/],
      ['an absolute entry', async () => tarGz([...base(), { name: '/tmp/evil', body: 'x' }]), /absolute path/],
      ['a symlink', async () => tarGz([...base(), { name: 'tree/groups/1/labels.ndjson', type: 'symlink', linkname: '/etc/passwd' }]), /a link/],
      ['a hard link', async () => tarGz([...base(), { name: 'tree/groups/1/labels.ndjson', type: 'link', linkname: 'VERSION' }]), /a link/],
      ['a file past the decompressed limit', async () => tarGz([...base(), { name: 'tree/groups/1/labels.ndjson', body: Buffer.alloc(MAX_BYTES + 1, 0x0a) }]), /larger than 400000 bytes once decompressed/],
      [
        'files past the decompressed total (a bomb)',
        async () => tarGz([...base(), ...['labels', 'milestones', 'epics'].map((r) => ({ name: `tree/groups/1/${r}.ndjson`, body: Buffer.alloc(MAX_BYTES / 2, 0x0a) }))]),
        /larger than 400000 bytes once decompressed/,
      ],
      ['an ndjson line past its limit', async () => tarGz([...base(), { name: 'tree/groups/1/labels.ndjson', body: `{"title":"${'a'.repeat(MAX_LINE)}"}\n` }]), /line longer than 50000 bytes/],
      ['an unknown relation file', async () => tarGz([...base(), { name: 'tree/groups/1/secrets.ndjson', body: '{}\n' }]), /unknown file: tree\/groups\/1\/secrets.ndjson/],
      ['no VERSION', async () => tarGz(base().slice(1)), /no VERSION/],
    ];
    for (const [what, build, reason] of cases) {
      it(what, async () => {
        const path = unique('hostile');
        const res = await importArchive(await build(), { name: 'Hostile', path });
        expectStatus(res, 400);
        assert.match(res.body.message, reason);
        expectStatus(await api(`/groups/${path}`), 404);
      });
    }
  });

  it('without the role or a credential: 403 in a parent where the caller may not create subgroups, 401 anonymous; invalid fields 400', async () => {
    const archive = await tarGz(platformArchiveEntries(knownEmail()));
    expectStatus(await importArchive(archive, { name: 'No', path: unique('no'), parent_id: parent.id }, reporter.token), 403);
    expectStatus(await importArchive(archive, { name: 'No', path: unique('no') }, null), 401);
    expectStatus(await importArchive(archive, { name: 'No', path: '-bad path' }), 400);
    expectStatus(await api('/groups/import', { method: 'POST', json: { name: 'No', path: unique('no') } }), 400);
  });
});

describe('POST /groups/:id/export and GET /groups/:id/export/download', () => {
  it('as an Owner: the archive in the platform’s layout, which imports back into the same content (round trip)', async () => {
    assert.ok(imported, 'the import test ran first');
    const archive = await exportOf(imported.id);
    const files = await untarGz(archive);
    assert.equal(files.get('VERSION'), '0.2.4');
    const ids = files.get('tree/groups/_all.ndjson')!.trim().split('\n').map(Number);
    assert.equal(ids[0], imported.id);
    assert.equal(ids.length, 3);
    const top = JSON.parse(files.get(`tree/groups/${imported.id}.json`)!);
    assert.deepEqual([top.id, top.parent_id, top.visibility_level], [imported.id, null, 0]);
    const epics = files.get(`tree/groups/${imported.id}/epics.ndjson`)!.trim().split('\n').map((l) => JSON.parse(l));
    const child = epics.find((e) => e.title === 'Omnis accusantium');
    assert.deepEqual([child.state, child.parent.title, typeof child.parent_id], ['opened', 'Provident neque', 'number']);
    const boards = files.get(`tree/groups/${imported.id}/boards.ndjson`)!.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(
      boards.map((b) => [b.name, b.lists.map((l: { list_type: string; label?: { title: string } }) => [l.list_type, l.label?.title ?? null])]),
      [['first board', [['label', 'Cafunc'], ['closed', null]]]],
    );

    const path = unique('round-trip');
    expectStatus(await importArchive(archive, { name: 'Round trip', path }), 202);
    const again = await importedGroup(path);
    assert.equal(again.import_status, 'finished');
    assert.deepEqual(await contentOf(again.id), await contentOf(imported.id));
    // Boards and badges have no API yet: the next export shows them kept.
    const second = await untarGz(await exportOf(again.id));
    const strip = (text: string | undefined) => (text ?? '').trim().split('\n').filter(Boolean).map((l) => {
      const { name, link_url, image_url, lists } = JSON.parse(l);
      return { name, link_url, image_url, lists: lists?.map((x: { list_type: string; position: number; label?: { title: string } }) => [x.list_type, x.position, x.label?.title]) };
    });
    for (const rel of ['boards', 'badges']) assert.deepEqual(strip(second.get(`tree/groups/${again.id}/${rel}.ndjson`)), strip(files.get(`tree/groups/${imported.id}/${rel}.ndjson`)), rel);
  });

  it('a group never exported: 404; a Reporter: 403; anonymous: 401', async () => {
    const fresh = await buildGroup({ parent_id: parent.id });
    expectStatus(await api(`/groups/${fresh.id}/export/download`), 404);
    expectStatus(await api(`/groups/${fresh.id}/export`, { method: 'POST', token: reporter.token }), 403);
    expectStatus(await api(`/groups/${fresh.id}/export/download`, { token: reporter.token }), 403);
    expectStatus(await api(`/groups/${fresh.id}/export`, { method: 'POST', token: null }), 401);
    expectStatus(await api(`/groups/${fresh.id}/export/download`, { token: null }), 401);
    expectStatus(await api('/groups/2000000000/export', { method: 'POST' }), 404);
    // An Owner of the parent exports it.
    const files = await untarGz(await exportOf(fresh.id, owner.token));
    assert.equal(files.get('tree/groups/_all.ndjson'), `${fresh.id}\n`);
  });
});
