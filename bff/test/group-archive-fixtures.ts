import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { request as api, type ApiResponse } from './harness.ts';

/**
 * Group export archives for the tests, in the platform's published layout (its test fixtures
 * spec/fixtures/lib/gitlab/import_export/group_exports/complex: VERSION, tree/groups/_all.ndjson,
 * tree/groups/<id>.json, tree/groups/<id>/<relation>.ndjson), built in memory: they are small.
 */

export interface Entry {
  name: string;
  body?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink' | 'link';
  linkname?: string;
}

/** A gzipped tar of the entries, as given (names unchecked: hostile ones too). */
export async function tarGz(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const gz = pack.pipe(zlib.createGzip());
  gz.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve, reject) => {
    gz.on('end', resolve);
    gz.on('error', reject);
  });
  for (const e of entries) {
    await new Promise<void>((resolve, reject) => {
      const body = e.body ?? '';
      if (e.type && e.type !== 'file') pack.entry({ name: e.name, type: e.type, linkname: e.linkname }, (err) => (err ? reject(err) : resolve()));
      else pack.entry({ name: e.name }, typeof body === 'string' ? Buffer.from(body) : body, (err) => (err ? reject(err) : resolve()));
    });
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** The files of a gzipped tar, by name (the test reads archives the server wrote). */
export async function untarGz(buf: Buffer): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const parts: Buffer[] = [];
    stream.on('data', (c: Buffer) => parts.push(c));
    stream.on('end', () => {
      files.set(header.name.replace(/^\.\//, ''), Buffer.concat(parts).toString('utf8'));
      next();
    });
  });
  await new Promise<void>((resolve, reject) => {
    extract.on('finish', resolve);
    extract.on('error', reject);
    extract.end(zlib.gunzipSync(buf));
  });
  return files;
}

const ndjson = (records: object[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');
const at = '2019-11-20T17:02:09.754Z';

/** People of the source instance: one known here by email (`knownEmail`), two unknown. */
export function platformArchiveEntries(knownEmail: string): Entry[] {
  const member = (id: number, level: number, userId: number, publicEmail: string | null, username: string) => ({
    id,
    access_level: level,
    source_id: 4351,
    source_type: 'Namespace',
    user_id: userId,
    notification_level: 3,
    created_at: at,
    updated_at: at,
    created_by_id: null,
    invite_email: null,
    invite_token: null,
    invite_accepted_at: null,
    requested_at: null,
    expires_at: null,
    ldap: false,
    override: false,
    user: { id: userId, public_email: publicEmail, username },
  });
  const label = (id: number, title: string, color: string, groupId: number) => ({ id, title, color, project_id: null, created_at: at, updated_at: at, template: false, description: null, group_id: groupId, type: 'GroupLabel', priorities: [], textColor: '#FFFFFF' });
  const epic = (id: number, iid: number, groupId: number, title: string, extra: object = {}) => ({
    id,
    milestone_id: null,
    group_id: groupId,
    author_id: 1,
    assignee_id: null,
    iid,
    updated_by_id: null,
    last_edited_by_id: null,
    lock_version: 0,
    start_date: null,
    end_date: null,
    created_at: at,
    updated_at: at,
    title,
    description: `About ${title}`,
    start_date_fixed: null,
    due_date_fixed: null,
    start_date_is_fixed: null,
    due_date_is_fixed: null,
    closed_by_id: null,
    closed_at: null,
    parent_id: null,
    relative_position: null,
    state_id: 'opened',
    notes: [],
    ...extra,
  });
  const groupJson = (id: number, name: string, parentId: number | null, visibility: number) => ({
    name,
    path: name,
    owner_id: 123,
    created_at: '2019-11-20 17:01:53 UTC',
    updated_at: '2019-11-20 17:05:44 UTC',
    description: `${name} description`,
    avatar: { url: null },
    membership_lock: false,
    share_with_group_lock: false,
    visibility_level: visibility,
    request_access_enabled: true,
    lfs_enabled: null,
    parent_id: parentId,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: 2,
    auto_devops_enabled: null,
    subgroup_creation_level: 1,
    emails_enabled: false,
    id,
  });
  return [
    { name: './', type: 'directory' },
    { name: './VERSION', body: '0.2.4' },
    { name: './GITLAB_VERSION', body: '17.8.0' },
    { name: './GITLAB_REVISION', body: 'abc123' },
    { name: './tree/', type: 'directory' },
    { name: './tree/groups/', type: 'directory' },
    { name: './tree/groups/_all.ndjson', body: '4351\n4352\n4353\n' },
    { name: './tree/groups/4351.json', body: JSON.stringify(groupJson(4351, 'platform-top', null, 20)) },
    { name: './tree/groups/4352.json', body: JSON.stringify(groupJson(4352, 'child-one', 4351, 20)) },
    { name: './tree/groups/4353.json', body: JSON.stringify(groupJson(4353, 'grandchild', 4352, 0)) },
    { name: './tree/groups/4351/labels.ndjson', body: ndjson([label(23452, 'Bruffefunc', '#1d2da4', 4351), label(23446, 'Cafunc', '#73ed5b', 4351)]) },
    {
      name: './tree/groups/4351/milestones.ndjson',
      body: ndjson([
        { id: 7662, title: 'v4.0', project_id: null, description: 'Consequatur quaerat.', due_date: '2020-01-31', created_at: at, updated_at: at, state: 'active', iid: 5, start_date: null, group_id: 4351 },
        { id: 7660, title: 'v2.0', project_id: null, description: 'Dolor non rem.', due_date: null, created_at: at, updated_at: at, state: 'closed', iid: 3, start_date: null, group_id: 4351 },
      ]),
    },
    {
      name: './tree/groups/4351/epics.ndjson',
      body: ndjson([
        epic(13622, 1, 4351, 'Provident neque'),
        epic(13623, 2, 4351, 'Omnis accusantium', { parent_id: 13622, parent: epic(13622, 1, 4351, 'Provident neque'), author_id: 42 }),
        epic(13624, 3, 4351, 'Quis dolore', { state: 'closed', state_id: undefined, closed_at: at, closed_by_id: 1 }),
      ]),
    },
    {
      name: './tree/groups/4351/boards.ndjson',
      body: ndjson([
        {
          id: 173,
          project_id: null,
          created_at: at,
          updated_at: at,
          name: 'first board',
          milestone_id: null,
          group_id: 4351,
          weight: null,
          lists: [
            { id: 189, board_id: 173, label_id: 23446, list_type: 'label', position: 0, created_at: at, updated_at: at, user_id: null, milestone_id: null, max_issue_count: 0, max_issue_weight: 0, label: label(23446, 'Cafunc', '#73ed5b', 4351) },
            { id: 188, board_id: 173, label_id: null, list_type: 'closed', position: null, created_at: at, updated_at: at, user_id: null, milestone_id: null, max_issue_count: 0, max_issue_weight: 0 },
          ],
          labels: [],
        },
      ]),
    },
    { name: './tree/groups/4351/badges.ndjson', body: ndjson([{ id: 10, link_url: 'https://localhost:3443/%{default_branch}', image_url: 'https://badge_image.png', project_id: null, group_id: 4351, created_at: at, updated_at: at, type: 'GroupBadge' }]) },
    { name: './tree/groups/4351/members.ndjson', body: ndjson([member(13766, 30, 42, 'moriah@collinsmurphy.com', 'reported_user_15'), member(13765, 40, 271, knownEmail, 'charlesetta'), member(12920, 50, 1, 'admin@platform.example', 'root')]) },
    { name: './tree/groups/4351/user_contributions.ndjson', body: ndjson([{ id: 1, username: 'root', name: 'Administrator', public_email: 'admin@platform.example' }, { id: 42, username: 'reported_user_15', name: 'Moriah Collins', public_email: 'moriah@collinsmurphy.com' }]) },
    { name: './tree/groups/4351/namespace_settings.ndjson', body: ndjson([{ prevent_sharing_groups_outside_hierarchy: false }]) },
    { name: './tree/groups/4352/labels.ndjson', body: ndjson([label(23460, 'Child label', '#112233', 4352)]) },
    { name: './tree/groups/4352/epics.ndjson', body: ndjson([epic(13630, 1, 4352, 'Child epic under a parent group epic', { parent_id: 13622, parent: epic(13622, 1, 4351, 'Provident neque') })]) },
    { name: './tree/groups/4352/members.ndjson', body: '' },
    { name: './tree/groups/4353/milestones.ndjson', body: ndjson([{ id: 7700, title: 'Deep', project_id: null, description: null, due_date: null, created_at: at, updated_at: at, state: 'active', iid: 1, start_date: null, group_id: 4353 }]) },
  ];
}

/** POST /groups/import with the archive as a file. */
export function importArchive(archive: Buffer, fields: { name: string; path: string; parent_id?: number }, token?: string | null): Promise<ApiResponse> {
  const form = new FormData();
  form.append('name', fields.name);
  form.append('path', fields.path);
  if (fields.parent_id !== undefined) form.append('parent_id', String(fields.parent_id));
  form.append('file', new Blob([new Uint8Array(archive)]), 'export.tar.gz');
  return api('/groups/import', { method: 'POST', multipart: form, token });
}

/** Polls `check` (every 50 ms, up to 20 s) until it returns a value. */
export async function waitFor<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  const until = Date.now() + 20_000;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The group at `fullPath` once its import has finished or failed. */
export function importedGroup(fullPath: string): Promise<{ id: number; full_path: string; visibility: string; description: string; import_status: string; import_error: string | null }> {
  return waitFor(async () => {
    const res = await api(`/groups/${encodeURIComponent(fullPath)}`);
    return res.status === 200 && (res.body.import_status === 'finished' || res.body.import_status === 'failed') ? res.body : undefined;
  }, `the import of ${fullPath}`);
}
