// Runs on SQLite only: the client's wire (headers, status codes, error bodies, pagination) is the same on both engines, and the API tests run each query on PostgreSQL
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AccessLevel, Gitlab, GitbeakerRequestError } from '@gitbeaker/rest';
import { startTestServer, type TestServer } from './harness.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { pushCommit } from './pipeline-fixtures.ts';

/**
 * Client conformance, gitbeaker: the platform's TypeScript SDK (@gitbeaker/rest) drives a real
 * server through every area, written as a user of the SDK would write it. Calls the SDK has no
 * method for (triggering a hook test) go through its own requester.
 */
let server: TestServer;
let receiver: Receiver;
let api: Gitlab;

const as = (token: string) => new Gitlab({ host: server.url, token });
const unique = (prefix: string) => `${prefix}-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The SDK's error for a failed call: its status and the message it read from the body. */
async function rejects(call: Promise<unknown>, status: number, message?: string | RegExp): Promise<void> {
  try {
    await call;
  } catch (e) {
    assert.ok(e instanceof GitbeakerRequestError, `expected a GitbeakerRequestError, got ${String(e)}`);
    assert.equal(e.cause?.response.status, status, `status of the failed call: ${e.cause?.description}`);
    if (message !== undefined) assert.match(e.cause?.description ?? '', typeof message === 'string' ? new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : message);
    return;
  }
  assert.fail(`expected the call to fail with ${status}, but it succeeded`);
}

async function newGroup(attrs: { parentId?: number; path?: string; name?: string } = {}) {
  const path = attrs.path ?? unique('gb-group');
  return api.Groups.create(attrs.name ?? `Group ${path}`, path, { parentId: attrs.parentId, visibility: 'private' });
}

async function newUser(scopes: string[] = ['api']) {
  const username = unique('gb_user').replace(/-/g, '_');
  const user = await api.Users.create({ username, name: `User ${username}`, email: `${username}@example.com`, password: `pw-${crypto.randomBytes(8).toString('hex')}` });
  const pat = await api.PersonalAccessTokens.create(user.id, 'conformance', scopes, { expiresAt: inDays(30) });
  return { user, token: pat.token as string, tokenId: pat.id };
}

before(async () => {
  server = await startTestServer({ GATEHOUSE_HOOK_TIMEOUT_SECONDS: '2' });
  receiver = await startReceiver();
  api = as(server.rootToken);
});
after(async () => {
  await receiver.close();
  await server.close();
});

describe('gitbeaker: users and credentials', () => {
  it('reads the current user, with a private token or as a Bearer token', async () => {
    const me = await api.Users.showCurrentUser();
    assert.equal(me.username, 'root');
    assert.equal(me.is_admin, true);
    const bearer = new Gitlab({ host: server.url, oauthToken: server.rootToken });
    assert.equal((await bearer.Users.showCurrentUser()).id, me.id);
    await rejects(as('not-a-token').Users.showCurrentUser(), 401, '401 Unauthorized');
  });

  it('lets an anonymous client read public groups only', async () => {
    const pub = await api.Groups.create('Public', unique('gb-public'), { visibility: 'public' });
    const priv = await newGroup();
    const anonymous = new Gitlab({ host: server.url } as ConstructorParameters<typeof Gitlab>[0]);
    assert.deepEqual((await anonymous.Groups.all({ search: pub.path })).map((g) => g.id), [pub.id]);
    assert.deepEqual(await anonymous.Groups.all({ search: priv.path }), []);
    assert.equal((await anonymous.Groups.show(pub.full_path)).id, pub.id);
    await rejects(anonymous.Groups.show(priv.id), 404);
    await rejects(anonymous.Groups.create('x', unique('gb-anon')), 401);
  });

  it('creates, gets and lists users (search, username, active, custom attributes)', async () => {
    const { user } = await newUser();
    assert.equal((await api.Users.show(user.id)).username, user.username);
    assert.deepEqual((await api.Users.all({ username: user.username })).map((u) => u.id), [user.id]);
    assert.deepEqual((await api.Users.all({ search: user.username })).map((u) => u.id), [user.id]);
    assert.ok((await api.Users.all({ search: user.username, active: true })).some((u) => u.id === user.id));
    await rejects(api.Users.create({ username: user.username, name: 'Twin', email: `${unique('twin')}@example.com`, password: 'long-enough-pw' }), 409, 'Username has already been taken');
  });

  it('edits, blocks and unblocks a user (administrators)', async () => {
    const { user, token } = await newUser();
    const edited = await api.Users.edit(user.id, { name: 'Edited by gitbeaker', bio: 'bio' });
    assert.equal(edited.name, 'Edited by gitbeaker');
    assert.equal((await api.Users.show(user.id)).bio, 'bio');
    await api.Users.block(user.id);
    assert.equal((await api.Users.show(user.id)).state, 'blocked');
    assert.deepEqual((await api.Users.all({ blocked: true, username: user.username })).map((u) => u.id), [user.id]);
    await rejects(as(token).Users.showCurrentUser(), 401);
    await api.Users.unblock(user.id);
    assert.equal((await as(token).Users.showCurrentUser()).id, user.id);
  });

  it('personal access tokens: create, show self, list, scope limits, revoke', async () => {
    const { user } = await newUser();
    const writer = await api.PersonalAccessTokens.create(user.id, 'writer', ['api'], { expiresAt: inDays(10) });
    const reader = await api.Users.createPersonalAccessToken(user.id, 'reader', ['read_api'], { expiresAt: inDays(10) });
    assert.deepEqual([writer.scopes, writer.expires_at, writer.active], [['api'], inDays(10), true]);
    const asWriter = as(writer.token as string);
    assert.equal((await asWriter.Users.showCurrentUser()).id, user.id);
    assert.equal((await asWriter.PersonalAccessTokens.show()).name, 'writer');
    assert.equal((await api.PersonalAccessTokens.show({ tokenId: reader.id })).name, 'reader');
    await rejects(as(reader.token as string).Groups.create('x', unique('ro')), 403, /insufficient_scope/);
    const listed = await api.PersonalAccessTokens.all({ userId: user.id });
    assert.deepEqual(listed.map((t) => t.name).sort(), ['conformance', 'reader', 'writer']);
    await api.PersonalAccessTokens.remove({ tokenId: writer.id });
    await rejects(asWriter.Users.showCurrentUser(), 401);
    await as(reader.token as string).PersonalAccessTokens.remove();
    await rejects(as(reader.token as string).Users.showCurrentUser(), 401);
  });
});

describe('gitbeaker: groups and projects', () => {
  it('creates a group and gets it by id and by full path; a camelizing client sees the same', async () => {
    const path = unique('gb-created');
    const group = await api.Groups.create('Created by gitbeaker', path, { description: 'made in a test', visibility: 'private' });
    assert.deepEqual([group.path, group.full_path, group.parent_id], [path, path, null]);
    for (const found of [await api.Groups.show(group.id), await api.Groups.show(path)]) {
      assert.deepEqual([found.id, found.name, found.description, found.visibility], [group.id, 'Created by gitbeaker', 'made in a test', 'private']);
    }
    const camel = new Gitlab({ host: server.url, token: server.rootToken, camelize: true });
    const shown = await camel.Groups.show(group.id);
    assert.equal(shown.fullPath, path);
  });

  it('edits a group, and finds it under its new path only', async () => {
    const group = await newGroup();
    const path = unique('gb-moved');
    const edited = await api.Groups.edit(group.id, { name: 'Renamed', description: 'edited', requestAccessEnabled: false, path });
    assert.deepEqual([edited.name, edited.description, edited.request_access_enabled, edited.full_path], ['Renamed', 'edited', false, path]);
    assert.equal((await api.Groups.show(path)).id, group.id);
    await rejects(api.Groups.show(group.path), 404, '404 Group Not Found');
  });

  it('lists groups with search and filters (top level, owned, order, skip, statistics)', async () => {
    const tag = unique('gb-search');
    const a = await newGroup({ path: `${tag}-a` });
    const b = await newGroup({ path: `${tag}-b` });
    const child = await newGroup({ parentId: a.id, path: `${tag}-child` });
    await newGroup();
    assert.deepEqual((await api.Groups.all({ search: tag })).map((g) => g.id).sort(), [a.id, b.id, child.id].sort());
    assert.deepEqual((await api.Groups.search(tag)).map((g) => g.id).sort(), [a.id, b.id, child.id].sort());
    assert.deepEqual((await api.Groups.all({ search: tag, topLevelOnly: true })).map((g) => g.id).sort(), [a.id, b.id].sort());
    assert.equal((await api.Groups.all({ search: tag, owned: true, allAvailable: false })).length, 3);
    assert.deepEqual((await api.Groups.all({ search: tag, orderBy: 'id', sort: 'desc' })).map((g) => g.id), [child.id, b.id, a.id]);
    assert.deepEqual((await api.Groups.all({ search: tag, skipGroups: [b.id] })).map((g) => g.id).sort(), [a.id, child.id].sort());
    const stats = await api.Groups.all({ search: tag, statistics: true });
    assert.ok(stats.every((g) => typeof g.statistics === 'object'));
  });

  it('finds a subgroup when searching for its parent (the platform searches full paths)', async () => {
    const parent = await newGroup();
    const child = await newGroup({ parentId: parent.id, path: 'plain', name: 'Plain' });
    assert.deepEqual((await api.Groups.all({ search: parent.path })).map((g) => g.id).sort(), [parent.id, child.id].sort());
  });

  it('creates subgroups, lists them and gets one by its full path; deletes groups', async () => {
    const parent = await newGroup();
    const alpha = await newGroup({ parentId: parent.id, path: 'alpha' });
    await newGroup({ parentId: parent.id, path: 'beta' });
    const gamma = await newGroup({ parentId: alpha.id, path: 'gamma' });
    assert.deepEqual([alpha.full_path, alpha.parent_id], [`${parent.full_path}/alpha`, parent.id]);
    assert.deepEqual((await api.Groups.allSubgroups(parent.id)).map((g) => g.full_path).sort(), [`${parent.full_path}/alpha`, `${parent.full_path}/beta`]);
    assert.equal((await api.Groups.show(`${parent.full_path}/alpha/gamma`)).id, gamma.id);
    await rejects(api.Groups.create('Again', parent.path), 400, 'has already been taken');
    await api.Groups.remove(alpha.id);
    await rejects(api.Groups.show(gamma.id), 404);
    await api.Groups.remove(parent.id);
    await rejects(api.Groups.show(parent.full_path), 404);
    await rejects(api.Groups.remove(parent.id), 404);
  });

  it('creates a project, gets it by id and path, lists it by search, deletes it', async () => {
    const group = await newGroup();
    const name = unique('gb-project');
    const project = await api.Projects.create({ name, namespaceId: group.id, description: 'a project', visibility: 'private' });
    assert.deepEqual([project.path_with_namespace, project.namespace.id], [`${group.full_path}/${name}`, group.id]);
    assert.equal((await api.Projects.show(project.id)).name, name);
    assert.equal((await api.Projects.show(`${group.full_path}/${name}`)).id, project.id);
    assert.deepEqual((await api.Projects.all({ search: name })).map((p) => p.id), [project.id]);
    await rejects(api.Projects.create({ name, namespaceId: group.id }), 400, 'has already been taken');
    await api.Projects.remove(project.id);
    await rejects(api.Projects.show(project.id), 404, '404 Project Not Found');
  });
});

describe('gitbeaker: repository branches', () => {
  it('lists, shows, creates and removes branches of a repository pushed with git', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-repo'), namespaceId: group.id });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-gb-'));
    const url = new URL(project.http_url_to_repo as string);
    url.username = 'root';
    url.password = server.rootToken;
    const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', HOME: dir, GIT_AUTHOR_NAME: 'G', GIT_AUTHOR_EMAIL: 'g@example.com', GIT_COMMITTER_NAME: 'G', GIT_COMMITTER_EMAIL: 'g@example.com' };
    // Asynchronously: the server answering git runs in this process.
    const git = promisify(execFile);
    await git('git', ['clone', '--quiet', url.toString(), `${dir}/r`], { env });
    await git('git', ['commit', '-q', '--allow-empty', '-m', 'feat: first'], { cwd: `${dir}/r`, env });
    await git('git', ['push', '-q', 'origin', 'main'], { cwd: `${dir}/r`, env });
    fs.rmSync(dir, { recursive: true, force: true });

    const main = await api.Branches.show(project.id, 'main');
    assert.equal(main.default, true);
    const created = await api.Branches.create(project.id, 'feature/gb', 'main');
    assert.equal(created.commit.id, main.commit.id);
    assert.deepEqual((await api.Branches.all(project.id)).map((b) => b.name), ['feature/gb', 'main']);
    await api.Branches.remove(project.id, 'feature/gb');
    await rejects(api.Branches.show(project.id, 'feature/gb'), 404, '404 Branch Not Found');
  });
});

describe('gitbeaker: commits, tags, files, tree and compare', () => {
  it('commits file changes with actions, then reads them back without a checkout', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-commits'), namespaceId: group.id });
    const first = await api.Commits.create(project.id, 'main', 'chore: start', [
      { action: 'create', filePath: 'README.md', content: '# gb\n' },
      { action: 'create', filePath: 'src/index.ts', content: Buffer.from('export {};\n').toString('base64'), encoding: 'base64' },
    ]);
    const feature = await api.Commits.create(project.id, 'feature', 'feat: more', [{ action: 'update', filePath: 'README.md', content: '# gb\n\nmore\n' }], { startBranch: 'main' });
    assert.deepEqual(feature.parent_ids, [first.id]);
    assert.deepEqual((await api.Commits.all(project.id, { refName: 'feature' })).map((c) => c.title), ['feat: more', 'chore: start']);
    assert.deepEqual((await api.Commits.all(project.id, { path: 'src/index.ts' })).map((c) => c.id), [first.id]);
    assert.equal((await api.Commits.show(project.id, 'feature')).id, feature.id);
    await rejects(api.Commits.show(project.id, 'nope'), 404, '404 Commit Not Found');
    await rejects(api.Commits.create(project.id, 'main', 'm', [{ action: 'delete', filePath: 'nope' }]), 400, "A file with this name doesn't exist");

    const file = await api.RepositoryFiles.show(project.id, 'src/index.ts', 'main');
    assert.equal(Buffer.from(file.content as string, 'base64').toString(), 'export {};\n');
    assert.equal(file.last_commit_id, first.id);
    const raw = await api.RepositoryFiles.showRaw(project.id, 'README.md', 'feature');
    assert.equal(typeof raw === 'string' ? raw : await (raw as Blob).text(), '# gb\n\nmore\n');
    const tree = await api.Repositories.allRepositoryTrees(project.id, { recursive: true });
    assert.deepEqual(tree.map((e) => e.path).sort(), ['README.md', 'src', 'src/index.ts']);
    const cmp = await api.Repositories.compare(project.id, 'main', 'feature');
    assert.deepEqual(cmp.commits?.map((c) => c.id), [feature.id]);
    assert.deepEqual(cmp.diffs?.map((d) => d.new_path), ['README.md']);

    const tag = await api.Tags.create(project.id, 'v1.0.0', 'main', { message: 'First release' });
    assert.equal(tag.message, 'First release');
    await api.Tags.create(project.id, 'v0.9.0', first.id);
    assert.deepEqual((await api.Tags.all(project.id, { orderBy: 'version', sort: 'asc' })).map((t) => t.name), ['v0.9.0', 'v1.0.0']);
    assert.equal((await api.Tags.show(project.id, 'v1.0.0')).commit.id, first.id);
    await api.Tags.remove(project.id, 'v0.9.0');
    await rejects(api.Tags.show(project.id, 'v0.9.0'), 404, '404 Tag Not Found');
    assert.equal((await api.Projects.show(project.id)).empty_repo, false);
  });
});

describe('gitbeaker: repository files written, blamed; a commit’s diff, refs and comments', () => {
  it('creates, edits, blames and removes files, then reads a commit’s diff, references and comments', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-files'), namespaceId: group.id });
    const created = await api.RepositoryFiles.create(project.id, 'docs/guide.md', 'main', 'one\ntwo\n', 'docs: start');
    assert.deepEqual(created, { file_path: 'docs/guide.md', branch: 'main' });
    const [first] = await api.Commits.all(project.id, { refName: 'main' });
    await api.Tags.create(project.id, 'v1', 'main');
    const edited = await api.RepositoryFiles.edit(project.id, 'docs/guide.md', 'main', Buffer.from('one\nTWO\n').toString('base64'), 'docs: shout', {
      encoding: 'base64',
      lastCommitId: first.id,
      authorName: 'Gb',
      authorEmail: 'gb@example.com',
    });
    assert.deepEqual(edited, { file_path: 'docs/guide.md', branch: 'main' });
    const [second] = await api.Commits.all(project.id, { refName: 'main' });
    assert.equal(second.author_name, 'Gb');
    await rejects(api.RepositoryFiles.edit(project.id, 'docs/guide.md', 'main', 'x', 'm', { lastCommitId: first.id }), 400, 'You are attempting to update a file that has changed since you started editing it.');
    await rejects(api.RepositoryFiles.create(project.id, 'docs/guide.md', 'main', 'x', 'm'), 400, 'A file with this name already exists');

    const blame = await api.RepositoryFiles.allFileBlames(project.id, 'docs/guide.md', 'main');
    assert.deepEqual(blame.map((b) => [b.commit.id, b.lines]), [[first.id, ['one']], [second.id, ['TWO']]]);
    const ranged = await api.RepositoryFiles.allFileBlames(project.id, 'docs/guide.md', 'main', { range: { start: 2, end: 2 } });
    assert.deepEqual(ranged.map((b) => b.lines), [['TWO']]);

    const diff = await api.Commits.showDiff(project.id, second.id);
    assert.deepEqual(diff.map((d) => [d.new_path, d.diff]), [['docs/guide.md', '@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n']]);
    assert.deepEqual((await api.Commits.allReferences(project.id, first.id)).map((r) => [r.type, r.name]), [['branch', 'main'], ['tag', 'v1']]);
    assert.deepEqual(await api.Commits.allReferences(project.id, second.id, { type: 'tag' }), []);
    const comment = await api.Commits.createComment(project.id, second.id, 'Why shout?', { path: 'docs/guide.md', line: 2, lineType: 'new' });
    assert.deepEqual([comment.note, comment.path, comment.line, comment.line_type], ['Why shout?', 'docs/guide.md', 2, 'new']);
    await api.Commits.createComment(project.id, second.id, 'Ship it');
    assert.deepEqual((await api.Commits.allComments(project.id, second.id)).map((c) => [c.note, c.author.username]), [['Why shout?', 'root'], ['Ship it', 'root']]);

    await api.RepositoryFiles.remove(project.id, 'docs/guide.md', 'main', 'docs: drop');
    await rejects(api.RepositoryFiles.show(project.id, 'docs/guide.md', 'main'), 404, '404 File Not Found');
    await rejects(api.RepositoryFiles.remove(project.id, 'docs/guide.md', 'main', 'm'), 400, "A file with this name doesn't exist");
  });
});

describe('gitbeaker: group avatars', () => {
  it('uploads one through PUT /groups/:id (multipart), downloads and removes it', async () => {
    const group = await newGroup();
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    // gitbeaker 43's uploadAvatar and edit({ avatar }) call routes the platform does not have
    // (PUT /groups/:id/avatar, POST /groups/:id): the platform's way is a multipart PUT /groups/:id.
    const form = new FormData();
    form.append('avatar', new Blob([png], { type: 'image/png' }), 'logo.png');
    const uploaded = await api.requester.put<{ avatar_url: string | null }>(`groups/${group.id}`, { body: form });
    assert.ok(uploaded.body.avatar_url);
    const blob = await api.Groups.downloadAvatar(group.id);
    assert.deepEqual(Buffer.from(await blob.arrayBuffer()), png);
    await api.Groups.removeAvatar(group.id);
    assert.equal((await api.Groups.show(group.id)).avatar_url, null);
    await rejects(api.Groups.downloadAvatar(group.id), 404);
  });
});

describe('gitbeaker: members', () => {
  it('group members: add, show, edit, list (direct, inherited, query), remove', async () => {
    const group = await newGroup();
    const sub = await newGroup({ parentId: group.id });
    const { user, token } = await newUser();
    await rejects(as(token).Groups.show(group.id), 404);
    const added = await api.GroupMembers.add(group.id, AccessLevel.DEVELOPER, { userId: user.id });
    assert.deepEqual([added.username, added.access_level], [user.username, 30]);
    assert.equal((await as(token).Groups.show(group.id)).id, group.id);
    const edited = await api.GroupMembers.edit(group.id, user.id, AccessLevel.MAINTAINER, { expiresAt: inDays(60) });
    assert.deepEqual([edited.access_level, edited.expires_at], [40, inDays(60)]);
    assert.equal((await api.GroupMembers.show(group.id, user.id)).access_level, 40);
    assert.deepEqual((await api.GroupMembers.all(group.id)).map((m) => m.username).sort(), ['root', user.username].sort());
    assert.deepEqual((await api.GroupMembers.all(group.id, { query: user.username })).map((m) => m.id), [user.id]);
    assert.deepEqual((await api.GroupMembers.all(group.id, { userIds: [user.id] })).map((m) => m.id), [user.id]);
    assert.ok((await api.GroupMembers.all(sub.id, { includeInherited: true })).some((m) => m.id === user.id));
    assert.equal((await api.GroupMembers.show(sub.id, user.id, { includeInherited: true })).access_level, 40);
    await rejects(api.GroupMembers.add(group.id, AccessLevel.DEVELOPER, { userId: user.id }), 409);
    await api.GroupMembers.remove(group.id, user.id);
    await rejects(api.GroupMembers.show(group.id, user.id), 404);
    await rejects(as(token).Groups.show(group.id), 404);
  });

  it('project members: add, edit, list, remove', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-members'), namespaceId: group.id });
    const { user, token } = await newUser();
    assert.equal((await api.ProjectMembers.add(project.id, AccessLevel.REPORTER, { userId: user.id })).access_level, 20);
    assert.equal((await as(token).Projects.show(project.id)).id, project.id);
    assert.equal((await api.ProjectMembers.edit(project.id, user.id, AccessLevel.DEVELOPER)).access_level, 30);
    assert.deepEqual((await api.ProjectMembers.all(project.id)).map((m) => m.id), [user.id]);
    assert.ok((await api.ProjectMembers.all(project.id, { includeInherited: true })).some((m) => m.id === user.id));
    await api.ProjectMembers.remove(project.id, user.id);
    assert.deepEqual(await api.ProjectMembers.all(project.id), []);
  });
});

describe('gitbeaker: group access tokens and deploy tokens', () => {
  it('creates, shows and lists a group access token that authenticates its bot', async () => {
    const group = await newGroup();
    const token = await api.GroupAccessTokens.create(group.id, 'ci-bot', ['api', 'read_api'], inDays(30), { accessLevel: AccessLevel.DEVELOPER });
    assert.ok(token.token);
    assert.deepEqual([token.name, token.scopes, token.access_level, token.expires_at, token.active], ['ci-bot', ['api', 'read_api'], 30, inDays(30), true]);
    const shown = await api.GroupAccessTokens.show(group.id, token.id);
    assert.equal(shown.name, 'ci-bot');
    assert.equal('token' in shown, false, 'the plaintext is not shown again');
    assert.deepEqual((await api.GroupAccessTokens.all(group.id)).map((t) => t.id), [token.id]);
    const bot = as(token.token);
    assert.equal((await bot.Users.showCurrentUser()).bot, true);
    assert.equal((await bot.Groups.show(group.id)).id, group.id);
    await rejects(api.GroupAccessTokens.create(group.id, 'too-long', ['api'], inDays(3650)), 400, 'expires_at');
  });

  it('rotates: the new token works, the old one fails, self rotation, reuse revokes the family', async () => {
    const group = await newGroup();
    const token = await api.GroupAccessTokens.create(group.id, 'rotating', ['api'], inDays(30));
    const rotated = await api.GroupAccessTokens.rotate(group.id, token.id, { expiresAt: inDays(20) });
    assert.notEqual(rotated.token, token.token);
    assert.deepEqual([rotated.name, rotated.expires_at, rotated.active], ['rotating', inDays(20), true]);
    await rejects(as(token.token).Users.showCurrentUser(), 401);
    assert.equal((await as(rotated.token).Groups.show(group.id)).id, group.id);
    const again = await as(rotated.token).GroupAccessTokens.rotate(group.id, 'self');
    await rejects(as(rotated.token).Users.showCurrentUser(), 401);
    assert.equal((await as(again.token).Users.showCurrentUser()).bot, true);
    await rejects(api.GroupAccessTokens.rotate(group.id, token.id), 401);
    await rejects(as(again.token).Users.showCurrentUser(), 401);
  });

  it('revokes a group access token', async () => {
    const group = await newGroup();
    const token = await api.GroupAccessTokens.create(group.id, 'short-lived', ['read_api'], inDays(5));
    await api.GroupAccessTokens.revoke(group.id, token.id);
    await rejects(as(token.token).Users.showCurrentUser(), 401);
    const [listed] = await api.GroupAccessTokens.all(group.id);
    assert.deepEqual([listed.id, listed.revoked, listed.active], [token.id, true, false]);
    await rejects(api.GroupAccessTokens.revoke(group.id, token.id), 400);
    await rejects(api.GroupAccessTokens.revoke(group.id, 2_000_000_000), 404);
  });

  it('deploy tokens: create, show, list (active), revoke', async () => {
    const group = await newGroup();
    const token = await api.DeployTokens.create('deployer', ['read_repository', 'read_registry'], { groupId: group.id, username: 'deploy-bot', expires_at: inDays(30) });
    assert.ok(token.token);
    assert.deepEqual([token.username, [...(token.scopes ?? [])].sort()], ['deploy-bot', ['read_registry', 'read_repository']]);
    const shown = await api.DeployTokens.show(token.id, { groupId: group.id });
    assert.deepEqual([shown.name, 'token' in shown], ['deployer', false]);
    const other = await api.DeployTokens.create('other', ['read_package_registry'], { groupId: group.id });
    assert.deepEqual((await api.DeployTokens.all({ groupId: group.id })).map((t) => t.id).sort(), [token.id, other.id].sort());
    await api.DeployTokens.remove(other.id, { groupId: group.id });
    assert.deepEqual((await api.DeployTokens.all({ groupId: group.id, active: true })).map((t) => t.id), [token.id]);
    await rejects(api.DeployTokens.create('no-scopes', [], { groupId: group.id }), 400);
  });
});

describe('gitbeaker: push rules, custom attributes, settings', () => {
  it('group push rule: create, show, edit, remove', async () => {
    const group = await newGroup();
    await rejects(api.GroupPushRules.show(group.id), 404);
    const rule = await api.GroupPushRules.create(group.id, { commitMessageRegex: '^(feat|fix): ', denyDeleteTag: true, maxFileSize: 50 });
    assert.deepEqual([rule.commit_message_regex, rule.deny_delete_tag, rule.max_file_size], ['^(feat|fix): ', true, 50]);
    await rejects(api.GroupPushRules.create(group.id, { memberCheck: true }), 422);
    const edited = await api.GroupPushRules.edit(group.id, { memberCheck: true, branchNameRegex: '^(main|release/.+)$' });
    assert.deepEqual([edited.member_check, edited.branch_name_regex, edited.commit_message_regex], [true, '^(main|release/.+)$', '^(feat|fix): ']);
    assert.equal((await api.GroupPushRules.show(group.id)).member_check, true);
    await rejects(api.GroupPushRules.edit(group.id, { maxFileSize: -1 }), 400);
    await api.GroupPushRules.remove(group.id);
    await rejects(api.GroupPushRules.show(group.id), 404);
  });

  it('project push rule: create, show, edit, remove', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-pushrules'), namespaceId: group.id });
    // None yet: the platform's 200 with a JSON null, which gitbeaker hands on as an empty object.
    assert.deepEqual(await api.ProjectPushRules.show(project.id), {});
    const rule = await api.ProjectPushRules.create(project.id, { commitMessageRegex: '^(feat|fix): ', preventSecrets: true });
    assert.deepEqual([rule.project_id, rule.commit_message_regex, rule.prevent_secrets], [project.id, '^(feat|fix): ', true]);
    await rejects(api.ProjectPushRules.create(project.id, { memberCheck: true }), 422);
    const edited = await api.ProjectPushRules.edit(project.id, { memberCheck: true });
    assert.deepEqual([edited.member_check, edited.commit_message_regex], [true, '^(feat|fix): ']);
    await api.ProjectPushRules.remove(project.id);
    assert.deepEqual(await api.ProjectPushRules.show(project.id), {});
    await rejects(api.ProjectPushRules.remove(project.id), 404);
  });

  it('custom attributes of users, groups and projects: set, show, list, filter, remove', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-attrs'), namespaceId: group.id });
    const { user, token } = await newUser();
    const value = crypto.randomUUID();
    const resources = [
      [api.UserCustomAttributes, user.id],
      [api.GroupCustomAttributes, group.id],
      [api.ProjectCustomAttributes, project.id],
    ] as const;
    for (const [attributes, id] of resources) {
      assert.deepEqual(await attributes.set(id, 'location', 'Antarctica'), { key: 'location', value: 'Antarctica' });
      await attributes.set(id, 'location', value);
      await attributes.set(id, 'role', 'Developer');
      assert.equal((await attributes.show(id, 'location')).value, value);
      assert.deepEqual((await attributes.all(id)).map((a) => [a.key, a.value]).sort(), [['location', value], ['role', 'Developer']]);
    }
    assert.deepEqual((await api.Users.all({ customAttributes: { location: value } })).map((u) => u.id), [user.id]);
    const shown = await api.Groups.show(group.id, { withCustomAttributes: true } as object);
    assert.deepEqual((shown.custom_attributes as { key: string }[]).map((a) => a.key).sort(), ['location', 'role']);
    for (const [attributes, id] of resources) {
      await attributes.remove(id, 'role');
      await rejects(attributes.show(id, 'role'), 404);
    }
    await rejects(as(token).UserCustomAttributes.all(user.id), 403);
  });

  it('application settings: show and edit', async () => {
    const before = await api.ApplicationSettings.show();
    const flipped = !before.allow_local_requests_from_web_hooks_and_services;
    const edited = await api.ApplicationSettings.edit({ allowLocalRequestsFromWebHooksAndServices: flipped });
    assert.equal(edited.allow_local_requests_from_web_hooks_and_services, flipped);
    await api.ApplicationSettings.edit({ allowLocalRequestsFromWebHooksAndServices: true });
  });
});

describe('gitbeaker: leaked tokens and SCIM identities', () => {
  it('revokes a leaked personal access token and deploy token through their group', async () => {
    const group = await newGroup();
    const { user, token } = await newUser();
    await api.GroupMembers.add(group.id, AccessLevel.DEVELOPER, { userId: user.id });
    const deploy = await api.DeployTokens.create('leaked', ['read_repository'], { groupId: group.id });
    const revoke = (leaked: string) => api.requester.post<Record<string, unknown>>(`groups/${group.id}/tokens/revoke`, { body: { token: leaked } });
    const pat = (await revoke(token)).body;
    assert.deepEqual([pat.token_type, pat.user_id, pat.revoked], ['personal_access_token', user.id, true]);
    await rejects(as(token).Users.showCurrentUser(), 401);
    const dt = (await revoke(deploy.token as string)).body;
    assert.deepEqual([dt.token_type, dt.id, dt.revoked], ['deploy_token', deploy.id, true]);
    await rejects(revoke('gtpat-not-a-real-token'), 404);
  });

  it('lists, updates and deletes the SCIM identities an identity provider made', async () => {
    const group = await newGroup();
    const made = (await api.requester.post<{ token: string; scim_api_url: string }>(`groups/${group.id}/scim/token`)).body;
    const name = unique('scim').replace(/-/g, '');
    // The identity provider's side is plain SCIM, not the SDK.
    const provisioned = await fetch(`${made.scim_api_url}/Users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${made.token}`, 'Content-Type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        externalId: `ext-${name}`,
        userName: name,
        active: true,
        name: { givenName: name, familyName: 'Doe' },
        emails: [{ value: `${name}@corp.example`, primary: true, type: 'work' }],
      }),
    });
    assert.equal(provisioned.status, 201, await provisioned.clone().text());
    const identities = await api.GroupSCIMIdentities.all(group.id, {});
    assert.deepEqual(identities.map((i) => [i.extern_uid, i.active]), [[`ext-${name}`, true]]);
    await api.GroupSCIMIdentities.edit(group.id, `ext-${name}`, { externUid: `new-${name}` } as object);
    assert.deepEqual((await api.GroupSCIMIdentities.all(group.id, {})).map((i) => i.extern_uid), [`new-${name}`]);
    await api.requester.delete(`groups/${group.id}/scim/new-${name}`);
    assert.deepEqual(await api.GroupSCIMIdentities.all(group.id, {}), []);
  });
});

describe('gitbeaker: hooks', () => {
  beforeEach(async () => {
    await api.ApplicationSettings.edit({ allowLocalRequestsFromWebHooksAndServices: true });
    receiver.requests.length = 0;
    receiver.respond(200);
  });

  it('group hook: add, show, edit, test, real events delivered, remove', async () => {
    const group = await newGroup();
    const url = `${receiver.url}/group-${group.id}`;
    const hook = await api.GroupHooks.add(group.id, url, { subgroupEvents: true, pushEvents: false, token: 'group-hook-secret' } as object);
    assert.deepEqual([hook.url, hook.subgroup_events, hook.push_events, 'token' in hook], [url, true, false, false]);
    assert.deepEqual((await api.GroupHooks.all(group.id)).map((h) => h.id), [hook.id]);
    const edited = await api.GroupHooks.edit(group.id, hook.id, url, { memberEvents: true } as object);
    assert.equal(edited.member_events, true);
    assert.equal((await api.GroupHooks.show(group.id, hook.id)).member_events, true);
    const test = await api.requester.post<{ message: string }>(`groups/${group.id}/hooks/${hook.id}/test/subgroup_events`);
    assert.deepEqual(test.body, { message: '201 Created' });
    const [sample] = await receiver.waitFor(1);
    assert.equal(sample.headers['x-service-token'], 'group-hook-secret');
    await newGroup({ parentId: group.id, path: 'announced' });
    const { user } = await newUser();
    await api.GroupMembers.add(group.id, AccessLevel.DEVELOPER, { userId: user.id });
    // The sample, then the two real events, in whatever order the deliveries finish.
    const delivered = await receiver.waitFor(3);
    const created = delivered.find((r) => r.json?.event_name === 'subgroup_create' && r.json.full_path === `${group.full_path}/announced`);
    assert.equal(created?.headers['x-service-event'], 'Subgroup Hook');
    const joined = delivered.find((r) => r.json?.event_name === 'user_add_to_group');
    assert.equal(joined?.json.user_username, user.username);
    // A logged delivery resent goes out again with its original Idempotency-Key. Deliveries are
    // logged as their batch completes, a moment after the receiver has answered.
    type Logged = { id: number; request_headers: Record<string, string> };
    let logged: Logged | undefined;
    for (const deadline = Date.now() + 5000; !logged && Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
      const log = (await api.requester.get<Logged[]>(`groups/${group.id}/hooks/${hook.id}/events`)).body;
      logged = log.find((e) => e.request_headers['X-Service-Event'] === 'Member Hook');
    }
    assert.ok(logged, 'the member event is in the delivery log');
    const resent = await api.requester.post<{ response_status: number }>(`groups/${group.id}/hooks/${hook.id}/events/${logged.id}/resend`);
    assert.equal(resent.body.response_status, 200);
    const again = (await receiver.waitFor(4)).filter((r) => r.json?.event_name === 'user_add_to_group');
    assert.deepEqual(again.map((r) => r.headers['idempotency-key']), [logged.request_headers['Idempotency-Key'], logged.request_headers['Idempotency-Key']]);
    await api.GroupHooks.remove(group.id, hook.id);
    await rejects(api.GroupHooks.show(group.id, hook.id), 404);
  });

  it('project hook: add, edit, test, remove', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-hooked'), namespaceId: group.id });
    const url = `${receiver.url}/project-${project.id}`;
    const hook = await api.ProjectHooks.add(project.id, url, { pushEvents: true, issuesEvents: false, enableSslVerification: false });
    assert.deepEqual([hook.project_id, hook.push_events, hook.issues_events], [project.id, true, false]);
    const edited = await api.ProjectHooks.edit(project.id, hook.id, url, { issuesEvents: true, pushEventsBranchFilter: 'main' });
    assert.deepEqual([edited.issues_events, edited.push_events_branch_filter], [true, 'main']);
    const test = await api.requester.post<{ message: string }>(`projects/${project.id}/hooks/${hook.id}/test/push_events`);
    assert.deepEqual(test.body, { message: '201 Created' });
    const [delivered] = await receiver.waitFor(1);
    assert.equal(delivered.json?.object_kind, 'push');
    await rejects(api.ProjectHooks.add(project.id, 'ftp://example.com/hook'), 422);
    await api.ProjectHooks.remove(project.id, hook.id);
    assert.deepEqual(await api.ProjectHooks.all(project.id), []);
  });
});

describe('gitbeaker: hook tests the receiver refuses', () => {
  it('fail with 422, as on the platform, for group and project hooks', async () => {
    await api.ApplicationSettings.edit({ allowLocalRequestsFromWebHooksAndServices: true });
    receiver.requests.length = 0;
    receiver.respond(500);
    try {
      const group = await newGroup();
      const project = await api.Projects.create({ name: unique('gb-refused'), namespaceId: group.id });
      const groupHook = await api.GroupHooks.add(group.id, `${receiver.url}/refused`, { pushEvents: true });
      const projectHook = await api.ProjectHooks.add(project.id, `${receiver.url}/refused`, { pushEvents: true });
      await rejects(api.requester.post(`groups/${group.id}/hooks/${groupHook.id}/test/push_events`), 422);
      await rejects(api.requester.post(`projects/${project.id}/hooks/${projectHook.id}/test/push_events`), 422);
      assert.equal(receiver.requests.length, 2);
    } finally {
      receiver.respond(200);
    }
  });
});

describe('gitbeaker: pagination', () => {
  it('offset pagination across pages: all pages, maxPages, one page, showExpanded', async () => {
    const parent = await newGroup();
    const children = [];
    for (let i = 0; i < 7; i++) children.push(await newGroup({ parentId: parent.id, path: `page-${i}`, name: `Page ${i}` }));
    const expected = children.map((c) => c.id);
    assert.deepEqual((await api.Groups.allSubgroups(parent.id, { perPage: 3 })).map((g) => g.id), expected);
    assert.deepEqual((await api.Groups.allSubgroups(parent.id, { perPage: 3, maxPages: 2 })).map((g) => g.id), expected.slice(0, 6));
    assert.deepEqual((await api.Groups.allSubgroups(parent.id, { perPage: 3, page: 3 })).map((g) => g.id), expected.slice(6));
    const first = await api.Groups.allSubgroups(parent.id, { perPage: 3, page: 1, showExpanded: true, pagination: 'offset' });
    assert.deepEqual(first.data.map((g) => g.id), expected.slice(0, 3));
    assert.deepEqual(first.paginationInfo, { total: 7, next: 2, current: 1, previous: null, perPage: 3, totalPages: 3 });
    const whole = await api.Groups.allSubgroups(parent.id, { perPage: 2, showExpanded: true, pagination: 'offset' });
    assert.deepEqual([whole.data.length, whole.paginationInfo.current, whole.paginationInfo.next], [7, 4, null]);
  });

  it('keyset pagination across pages, both directions', async () => {
    const tag = unique('gb-keyset');
    const made = [];
    for (const c of 'edcba') made.push(await newGroup({ path: `${tag}-${c}`, name: `${tag} ${c}` }));
    const paths = made.map((g) => g.path).sort();
    const asc = await api.Groups.all({ search: tag, pagination: 'keyset', orderBy: 'name', sort: 'asc', perPage: 2, showExpanded: true });
    assert.deepEqual(asc.data.map((g) => g.path), paths);
    assert.deepEqual(asc.paginationInfo, { idAfter: null, perPage: 2, orderBy: 'name', sort: 'asc' });
    const desc = await api.Groups.all({ search: tag, pagination: 'keyset', orderBy: 'name', sort: 'desc', perPage: 2 });
    assert.deepEqual(desc.map((g) => g.path), [...paths].reverse());
  });
});

describe('gitbeaker: pipelines', () => {
  it('trigger tokens: create, show, edit, trigger with variables, statuses move the pipeline, cancel, retry, remove', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-pipelines'), namespaceId: group.id });
    const sha = await pushCommit(project.http_url_to_repo as string, server.rootToken);
    const token = await api.PipelineTriggerTokens.create(project.id, 'from gitbeaker');
    assert.match(token.token as string, /^gtptt-/);
    assert.equal((await api.PipelineTriggerTokens.show(project.id, token.id as number)).description, 'from gitbeaker');
    assert.equal((await api.PipelineTriggerTokens.edit(project.id, token.id as number, { description: 'renamed' })).description, 'renamed');
    assert.deepEqual((await api.PipelineTriggerTokens.all(project.id)).map((t) => t.id), [token.id]);

    // The SDK sends the token and ref in the query and the variables as form fields.
    const pipeline = await api.PipelineTriggerTokens.trigger(project.id, 'main', token.token as string, { variables: { TARGET: 'staging' } });
    assert.deepEqual([pipeline.sha, pipeline.source, pipeline.status], [sha, 'trigger', 'created']);
    assert.deepEqual((await api.Pipelines.allVariables(project.id, pipeline.id)).map((v) => [v.key, v.value]), [['TARGET', 'staging']]);
    await rejects(api.PipelineTriggerTokens.trigger(project.id, 'nope', token.token as string), 400, 'Reference not found');

    await api.Commits.editStatus(project.id, sha, 'running', { name: 'e2e', ref: 'main', pipelineId: pipeline.id, targetUrl: 'https://ci.example.com/e2e' });
    assert.equal((await api.Pipelines.show(project.id, pipeline.id)).status, 'running');
    await api.Commits.editStatus(project.id, sha, 'failed', { name: 'e2e', ref: 'main', pipelineId: pipeline.id });
    assert.equal((await api.Pipelines.show(project.id, pipeline.id)).status, 'failed');
    const statuses = await api.Commits.allStatuses(project.id, sha);
    assert.deepEqual(statuses.map((s) => [s.name, s.status, s.target_url]), [['e2e', 'failed', 'https://ci.example.com/e2e']]);
    assert.deepEqual((await api.Jobs.all(project.id, { pipelineId: pipeline.id })).map((j) => [j.name, j.status]), [['e2e', 'failed']]);
    assert.deepEqual((await api.Pipelines.all(project.id, { status: 'failed' })).map((p) => p.id), [pipeline.id]);

    assert.equal((await api.Pipelines.retry(project.id, pipeline.id)).status, 'pending');
    assert.equal((await api.Pipelines.cancel(project.id, pipeline.id)).status, 'canceled');
    await api.Pipelines.remove(project.id, pipeline.id);
    await rejects(api.Pipelines.show(project.id, pipeline.id), 404, '404 Pipeline Not Found');
    await api.PipelineTriggerTokens.remove(project.id, token.id as number);
    await rejects(api.PipelineTriggerTokens.trigger(project.id, 'main', token.token as string), 404);
  });
});

describe('gitbeaker: merging, context commits and merge trains', () => {
  it('merges a merge request, names context commits, and runs a merge request through a merge train', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-trains'), namespaceId: group.id });
    const write = (branch: string, file: string, start?: string) =>
      api.Commits.create(project.id, branch, `Add ${file}`, [{ action: 'create', filePath: file, content: `${file}\n` }], start ? { startBranch: start } : {});
    const first = await write('main', 'README.md');
    await write('direct', 'direct.txt', 'main');
    const direct = await api.MergeRequests.create(project.id, 'direct', 'main', 'Merged directly');
    const merged = await api.MergeRequests.accept(project.id, direct.iid, { mergeCommitMessage: 'Merge it directly' });
    assert.equal(merged.state, 'merged');
    await rejects(api.MergeRequests.accept(project.id, direct.iid), 405);

    await write('train', 'train.txt', 'main');
    const mr = await api.MergeRequests.create(project.id, 'train', 'main', 'On the train');
    // The SDK types the answer of a create as nothing; it is the created commits.
    const added = (await api.MergeRequestContextCommits.create(project.id, [first.id], { mergerequestIId: mr.iid })) as unknown as { id: string }[];
    assert.deepEqual(added.map((c) => c.id), [first.id]);
    assert.deepEqual((await api.MergeRequestContextCommits.all(project.id, mr.iid)).map((c) => c.id), [first.id]);
    // The SDK's remove sends no commits: its requester names them.
    await api.requester.delete(`projects/${project.id}/merge_requests/${mr.iid}/context_commits`, { body: { commits: [first.id] } });
    assert.deepEqual(await api.MergeRequestContextCommits.all(project.id, mr.iid), []);

    await rejects(api.MergeTrains.addMergeRequest(project.id, mr.iid), 403);
    const edited = await api.Projects.edit(project.id, { mergeTrainsEnabled: true } as never);
    assert.equal((edited as unknown as { merge_trains_enabled: boolean }).merge_trains_enabled, true);
    const cars = await api.MergeTrains.addMergeRequest(project.id, mr.iid, { sha: mr.sha as string });
    assert.equal((cars as unknown as { merge_request: { iid: number } }).merge_request.iid, mr.iid);
    let car = await api.MergeTrains.showStatus(project.id, mr.iid);
    for (let i = 0; i < 400 && !car.pipeline; i++) {
      await new Promise((r) => setTimeout(r, 50));
      car = await api.MergeTrains.showStatus(project.id, mr.iid);
    }
    assert.equal(car.pipeline?.ref, `refs/merge-requests/${mr.iid}/train`);
    await api.Commits.editStatus(project.id, car.pipeline!.sha, 'success', { name: 'train', ref: car.pipeline!.ref });
    for (let i = 0; i < 400 && car.status !== 'merged'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      car = await api.MergeTrains.showStatus(project.id, mr.iid);
    }
    assert.equal(car.status, 'merged');
    assert.deepEqual((await api.MergeTrains.all(project.id, { scope: 'complete' })).map((c) => c.merge_request.iid), [mr.iid]);
    assert.equal((await api.MergeRequests.show(project.id, mr.iid)).state, 'merged');
  });
});

describe('gitbeaker: merge when pipeline succeeds', () => {
  it('sets a merge request to merge when its pipeline succeeds, cancels it, sets it again and sees it merged', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-automerge'), namespaceId: group.id });
    await api.Commits.create(project.id, 'main', 'Add README.md', [{ action: 'create', filePath: 'README.md', content: 'readme\n' }]);
    const head = await api.Commits.create(project.id, 'auto', 'Add auto.txt', [{ action: 'create', filePath: 'auto.txt', content: 'auto\n' }], { startBranch: 'main' });
    const mr = await api.MergeRequests.create(project.id, 'auto', 'main', 'Merged when it passes');
    await api.Commits.editStatus(project.id, head.id, 'running', { name: 'ci', ref: 'auto' });
    const set = await api.MergeRequests.accept(project.id, mr.iid, { mergeWhenPipelineSucceeds: true, mergeCommitMessage: 'Merged by auto-merge' });
    assert.deepEqual([set.state, set.merge_when_pipeline_succeeds, set.detailed_merge_status], ['opened', true, 'ci_still_running']);
    // The SDK types the answer as a merge request; the platform answers its service's status, and so do we.
    assert.deepEqual(await api.MergeRequests.cancelOnPipelineSuccess(project.id, mr.iid), { status: 'success' });
    assert.equal((await api.MergeRequests.show(project.id, mr.iid)).merge_when_pipeline_succeeds, false);
    await api.MergeRequests.accept(project.id, mr.iid, { mergeWhenPipelineSucceeds: true, mergeCommitMessage: 'Merged by auto-merge' });
    await api.Commits.editStatus(project.id, head.id, 'success', { name: 'ci', ref: 'auto' });
    let shown = await api.MergeRequests.show(project.id, mr.iid);
    for (let i = 0; i < 400 && shown.state !== 'merged'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      shown = await api.MergeRequests.show(project.id, mr.iid);
    }
    assert.equal(shown.state, 'merged');
    assert.equal((await api.Commits.all(project.id, { refName: 'main', perPage: 1 }))[0].title, 'Merged by auto-merge');
  });
});

describe('gitbeaker: activity events and epics', () => {
  it('lists a project’s, a user’s and the caller’s events with filters', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-events'), namespaceId: group.id });
    await api.Commits.create(project.id, 'main', 'chore: start', [{ action: 'create', filePath: 'README.md', content: '# gb\n' }]);
    await api.Commits.create(project.id, 'main', 'feat: more', [{ action: 'create', filePath: 'a.txt', content: 'a\n' }]);
    const events = await api.Events.all({ projectId: project.id });
    assert.deepEqual(events.map((e) => e.action_name), ['pushed', 'pushed']);
    assert.equal((events[0].push_data as { commit_title: string }).commit_title, 'feat: more');
    assert.deepEqual((await api.Events.all({ projectId: project.id, sort: 'asc' })).map((e) => e.id), events.map((e) => e.id).reverse());
    assert.deepEqual(await api.Events.all({ projectId: project.id, action: 'commented' }), []);
    const root = (await api.Users.all({ username: 'root' }))[0];
    assert.ok((await api.Events.all({ userId: root.id, action: 'pushed', perPage: 100 })).some((e) => e.project_id === project.id));
    assert.ok((await api.Events.all({ scope: 'all', perPage: 100 })).some((e) => e.project_id === project.id));
    await rejects(api.Events.all({ userId: 999_999_999 }), 404, '404 User Not Found');
  });

  it('creates, lists, shows and closes epics, with references relative to the group asked', async () => {
    const group = await newGroup();
    const sub = await newGroup({ parentId: group.id });
    const roadmap = await api.Epics.create(group.id, 'Roadmap', { description: 'Plan', startDateIsFixed: true, startDateFixed: '2026-01-01' });
    assert.equal(roadmap.iid, 1);
    assert.equal(roadmap.start_date, '2026-01-01');
    const child = await api.Epics.create(sub.id, 'Child', { parentId: roadmap.id });
    assert.equal(child.parent_iid, roadmap.iid);
    const listed = await api.Epics.all(group.id);
    assert.deepEqual(listed.map((e) => (e.references as { relative: string }).relative).sort(), ['&1', `${sub.full_path}&1`].sort());
    const closed = await api.Epics.edit(group.id, roadmap.iid, { title: 'Roadmap 2', stateEvent: 'close' });
    assert.equal(closed.state, 'closed');
    assert.equal((await api.Epics.show(group.id, roadmap.iid)).title, 'Roadmap 2');
    assert.deepEqual((await api.Epics.all(group.id, { state: 'closed' })).map((e) => e.title), ['Roadmap 2']);
    await rejects(api.Epics.show(group.id, 99), 404, '404 Epic Not Found');
    // State events take the epic's id (EpicStateEvents' epicId), not its iid.
    await api.Epics.edit(sub.id, child.iid, { stateEvent: 'close' });
    assert.notEqual(child.id, child.iid);
    const events = await api.EpicStateEvents.all(sub.id, child.id);
    assert.deepEqual(events.map((e) => [e.state, e.resource_type, e.resource_id]), [['closed', 'Epic', child.id]]);
    assert.equal((await api.EpicStateEvents.show(sub.id, child.id, events[0].id)).id, events[0].id);
  });
});

describe('gitbeaker: group milestones', () => {
  it('creates, lists with filters, edits, closes and removes milestones; reads their issues and burndown events', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-milestones'), namespaceId: group.id });
    const m = await api.GroupMilestones.create(group.id, 'Sprint 1', { description: 'First', startDate: inDays(-3), dueDate: inDays(10) });
    assert.deepEqual([m.title, m.state, m.iid], ['Sprint 1', 'active', 1]);
    const other = await api.GroupMilestones.create(group.id, 'Sprint 2', { startDate: inDays(20), dueDate: inDays(30) });
    assert.equal((await api.GroupMilestones.show(group.id, m.id)).description, 'First');
    assert.deepEqual((await api.GroupMilestones.all(group.id, { search: 'sprint 2' })).map((x) => x.id), [other.id]);
    assert.deepEqual((await api.GroupMilestones.all(group.id, { iids: [1] })).map((x) => x.id), [m.id]);

    const issue = await api.Issues.create(project.id, 'Burn me down', { milestoneId: m.id, weight: 2 });
    assert.deepEqual((await api.GroupMilestones.allAssignedIssues(group.id, m.id)).map((i) => i.id), [issue.id]);
    assert.deepEqual(await api.GroupMilestones.allAssignedMergeRequests(group.id, m.id), []);
    await api.Issues.edit(project.id, issue.iid, { stateEvent: 'close' });
    const events = await api.GroupMilestones.allBurndownChartEvents(group.id, m.id);
    assert.deepEqual(events.filter((e) => e.action !== 'weight').map((e) => [e.action, e.weight]), [['created', 2], ['closed', 2]]);

    assert.equal((await api.GroupMilestones.edit(group.id, m.id, { stateEvent: 'close' })).state, 'closed');
    assert.deepEqual((await api.GroupMilestones.all(group.id, { state: 'closed' })).map((x) => x.id), [m.id]);
    await api.GroupMilestones.remove(group.id, other.id);
    await rejects(api.GroupMilestones.show(group.id, other.id), 404, '404 Milestone Not Found');
  });
});

describe('gitbeaker: project milestones', () => {
  it('creates, lists with the group’s, edits, closes and removes project milestones; reads their issues', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-project-milestones'), namespaceId: group.id });
    const m = await api.ProjectMilestones.create(project.id, 'P1', { description: 'Project first', dueDate: inDays(10) });
    assert.deepEqual([m.title, m.state, m.iid, m.project_id], ['P1', 'active', 1, project.id]);
    const g = await api.GroupMilestones.create(group.id, 'G1');
    assert.equal((await api.ProjectMilestones.show(project.id, m.id)).description, 'Project first');
    assert.deepEqual((await api.ProjectMilestones.all(project.id)).map((x) => x.id), [m.id]);
    assert.deepEqual((await api.ProjectMilestones.all(project.id, { includeAncestors: true } as never)).map((x) => x.id).sort(), [m.id, g.id].sort());
    const issue = await api.Issues.create(project.id, 'Project milestone work', { milestoneId: m.id });
    assert.deepEqual((await api.ProjectMilestones.allAssignedIssues(project.id, m.id)).map((i) => i.id), [issue.id]);
    assert.deepEqual(await api.ProjectMilestones.allAssignedMergeRequests(project.id, m.id), []);
    assert.equal((await api.ProjectMilestones.edit(project.id, m.id, { stateEvent: 'close' })).state, 'closed');
    await api.ProjectMilestones.remove(project.id, m.id);
    await rejects(api.ProjectMilestones.show(project.id, m.id), 404, '404 Milestone Not Found');
  });
});

describe('gitbeaker: CI/CD variables', () => {
  it('project variables: create, show, list, edit, scopes picked by filter, remove; refused below Maintainer', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-variables'), namespaceId: group.id });
    const v = await api.ProjectVariables.create(project.id, 'DEPLOY_KEY', 'value-1234', { protected: true, description: 'deploys' });
    assert.deepEqual([v.key, v.value, v.protected, v.masked, v.variable_type, v.environment_scope], ['DEPLOY_KEY', 'value-1234', true, false, 'env_var', '*']);
    assert.equal((await api.ProjectVariables.show(project.id, 'DEPLOY_KEY')).value, 'value-1234');
    assert.deepEqual((await api.ProjectVariables.all(project.id)).map((x) => x.key), ['DEPLOY_KEY']);
    const edited = await api.ProjectVariables.edit(project.id, 'DEPLOY_KEY', 'value-5678', { masked: true, variableType: 'file' } as never);
    assert.deepEqual([edited.value, edited.masked, edited.variable_type], ['value-5678', true, 'file']);
    await rejects(api.ProjectVariables.create(project.id, 'DEPLOY_KEY', 'again'), 400, 'has already been taken');
    await rejects(api.ProjectVariables.create(project.id, 'MASKED', 'short', { masked: true }), 400);

    await api.ProjectVariables.create(project.id, 'DEPLOY_KEY', 'prod-value', { environmentScope: 'production' });
    await rejects(api.ProjectVariables.show(project.id, 'DEPLOY_KEY'), 409, 'filter[environment_scope]');
    assert.equal((await api.ProjectVariables.show(project.id, 'DEPLOY_KEY', { filter: { environment_scope: 'production' } })).value, 'prod-value');
    await api.ProjectVariables.remove(project.id, 'DEPLOY_KEY', { filter: { environment_scope: 'production' } });
    assert.equal((await api.ProjectVariables.show(project.id, 'DEPLOY_KEY')).environment_scope, '*');

    const { user, token } = await newUser();
    await api.ProjectMembers.add(project.id, AccessLevel.DEVELOPER, { userId: user.id });
    await rejects(as(token).ProjectVariables.all(project.id), 403);
    await api.ProjectVariables.remove(project.id, 'DEPLOY_KEY');
    await rejects(api.ProjectVariables.show(project.id, 'DEPLOY_KEY'), 404, '404 Variable Not Found');
  });

  it('group variables: create, show, list, edit, remove; refused to a Maintainer', async () => {
    const group = await newGroup();
    const v = await api.GroupVariables.create(group.id, 'REGISTRY_PASSWORD', 'pa55word-123', { masked: true });
    assert.deepEqual([v.key, v.masked, v.value], ['REGISTRY_PASSWORD', true, 'pa55word-123']);
    assert.deepEqual((await api.GroupVariables.all(group.id)).map((x) => x.key), ['REGISTRY_PASSWORD']);
    assert.equal((await api.GroupVariables.edit(group.id, 'REGISTRY_PASSWORD', 'pa55word-456', { protected: true } as never)).protected, true);
    assert.equal((await api.GroupVariables.show(group.id, 'REGISTRY_PASSWORD')).value, 'pa55word-456');
    const { user, token } = await newUser();
    await api.GroupMembers.add(group.id, AccessLevel.MAINTAINER, { userId: user.id });
    await rejects(as(token).GroupVariables.show(group.id, 'REGISTRY_PASSWORD'), 403);
    await api.GroupVariables.remove(group.id, 'REGISTRY_PASSWORD');
    assert.deepEqual(await api.GroupVariables.all(group.id), []);
  });
});

describe('gitbeaker: issues, merge requests, comments and reactions', () => {
  it('files, filters, comments on and closes issues; opens merge requests; reacts to issues, comments and snippets', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-work'), namespaceId: group.id });
    const bug = await api.Issues.create(project.id, 'Login fails', { labels: 'bug,urgent', description: 'Steps' });
    const chore = await api.Issues.create(project.id, 'Tidy up');
    assert.deepEqual([bug.iid, chore.iid], [1, 2]);
    assert.deepEqual((await api.Issues.all({ projectId: project.id, labels: 'bug' })).map((i) => i.iid), [bug.iid]);
    assert.deepEqual((await api.Issues.all({ projectId: project.id, search: 'tidy' })).map((i) => i.iid), [chore.iid]);

    const note = await api.IssueNotes.create(project.id, bug.iid, 'Seen on Safari');
    assert.equal((await api.IssueNotes.edit(project.id, bug.iid, note.id, { body: 'Seen on Safari 17' })).body, 'Seen on Safari 17');
    assert.deepEqual((await api.IssueNotes.all(project.id, bug.iid)).map((n) => n.body), ['Seen on Safari 17']);
    const thumbs = await api.IssueAwardEmojis.award(project.id, bug.iid, 'thumbsup');
    assert.equal((await api.IssueAwardEmojis.show(project.id, bug.iid, thumbs.id)).name, 'thumbsup');
    await api.IssueNoteAwardEmojis.award(project.id, bug.iid, note.id, 'eyes');
    assert.deepEqual((await api.IssueNoteAwardEmojis.all(project.id, bug.iid, note.id)).map((a) => a.name), ['eyes']);
    assert.equal((await api.Issues.all({ projectId: project.id, iids: [bug.iid] }))[0].upvotes, 1);

    const closed = await api.Issues.edit(project.id, bug.iid, { stateEvent: 'close' });
    assert.equal(closed.state, 'closed');
    assert.deepEqual((await api.Issues.all({ projectId: project.id, state: 'opened' })).map((i) => i.iid), [chore.iid]);
    await api.IssueNotes.remove(project.id, bug.iid, note.id);
    // What is left is the system note of the close.
    assert.deepEqual((await api.IssueNotes.all(project.id, bug.iid)).map((n) => [n.body, n.system]), [['closed', true]]);

    await api.Commits.create(project.id, 'main', 'Start', [{ action: 'create', filePath: 'README.md', content: 'r\n' }]);
    await api.Commits.create(project.id, 'fix-login', 'Fix login', [{ action: 'create', filePath: 'fix.txt', content: 'f\n' }], { startBranch: 'main' });
    const mr = await api.MergeRequests.create(project.id, 'fix-login', 'main', 'Fix login', { description: `Closes #${bug.iid}` });
    assert.deepEqual([mr.iid, mr.state, mr.source_branch], [1, 'opened', 'fix-login']);
    await api.MergeRequestNotes.create(project.id, mr.iid, 'Looks good');
    assert.deepEqual((await api.MergeRequestNotes.all(project.id, mr.iid)).filter((n) => !n.system).map((n) => n.body), ['Looks good']);
    await api.MergeRequestAwardEmojis.award(project.id, mr.iid, 'thumbsdown');
    assert.equal((await api.MergeRequests.show(project.id, mr.iid)).downvotes, 1);
    assert.equal((await api.MergeRequests.edit(project.id, mr.iid, { stateEvent: 'close' })).state, 'closed');
    await rejects(api.MergeRequests.create(project.id, 'no-such-branch', 'main', 'Nothing'), 400);

    const snippet = await api.ProjectSnippets.create(project.id, 'Notes', { files: [{ filePath: 'notes.md', content: 'n' }], visibility: 'private' } as never);
    const comment = await api.ProjectSnippetNotes.create(project.id, snippet.id, 'On the snippet');
    assert.deepEqual((await api.ProjectSnippetNotes.all(project.id, snippet.id)).map((n) => n.body), ['On the snippet']);
    await api.ProjectSnippetAwardEmojis.award(project.id, snippet.id, 'rocket');
    assert.deepEqual((await api.ProjectSnippetAwardEmojis.all(project.id, snippet.id)).map((a) => a.name), ['rocket']);
    assert.equal(comment.noteable_type, 'Snippet');
  });
});

describe('gitbeaker: wire rules (booleans as 1/0, Sudo)', () => {
  it('sends booleans as 1 and 0 (as Perl clients do), read as true and false', async () => {
    await api.ApplicationSettings.edit({ allowLocalRequestsFromWebHooksAndServices: 1 as unknown as boolean });
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-wire'), namespaceId: group.id });
    const hook = await api.ProjectHooks.add(project.id, `${receiver.url}/wire`, { pushEvents: 0, issuesEvents: 1, enableSslVerification: 0 } as object);
    assert.deepEqual([hook.push_events, hook.issues_events, hook.enable_ssl_verification], [false, true, false]);
    await rejects(api.ProjectHooks.add(project.id, `${receiver.url}/wire`, { pushEvents: 2 } as object), 400, 'push_events');
  });

  it('acts as another user with the sudo option (client-wide or per call), from an administrator’s token with the sudo scope', async () => {
    const username = unique('gb_sudo_admin').replace(/-/g, '_');
    const admin = await api.Users.create({ username, name: `Admin ${username}`, email: `${username}@example.com`, password: `pw-${crypto.randomBytes(8).toString('hex')}`, admin: true } as never);
    const sudoToken = (await api.PersonalAccessTokens.create(admin.id, 'sudo', ['api', 'sudo'] as never, { expiresAt: inDays(30) })).token as string;
    const member = await newUser();
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-sudo'), namespaceId: group.id });
    await api.ProjectMembers.add(project.id, AccessLevel.DEVELOPER, { userId: member.user.id });

    const asMember = new Gitlab({ host: server.url, token: sudoToken, sudo: member.user.username });
    assert.equal((await asMember.Users.showCurrentUser()).id, member.user.id);
    const issue = await asMember.Issues.create(project.id, 'made as the member');
    assert.equal(issue.author.id, member.user.id);
    const perCall = await as(sudoToken).Issues.create(project.id, 'per call', { sudo: member.user.id });
    assert.equal(perCall.author.id, member.user.id);

    const outsider = await newUser();
    await rejects(new Gitlab({ host: server.url, token: sudoToken, sudo: outsider.user.username }).Projects.show(project.id), 404);
    await rejects(new Gitlab({ host: server.url, token: sudoToken, sudo: 'no-such-user' }).Users.showCurrentUser(), 404, "404 User with ID or username 'no-such-user' Not Found");
    await rejects(new Gitlab({ host: server.url, token: member.token, sudo: outsider.user.username }).Users.showCurrentUser(), 403, 'Must be admin to use sudo');
    const plain = (await api.PersonalAccessTokens.create(admin.id, 'plain', ['api'], { expiresAt: inDays(30) })).token as string;
    await rejects(new Gitlab({ host: server.url, token: plain, sudo: member.user.username }).Users.showCurrentUser(), 403);
  });
});

describe('gitbeaker: namespaces, README-initialised projects, languages and settings', () => {
  it('looks a namespace up by full path, checks a path, then creates a subgroup and a project under it', async () => {
    const parent = await newGroup();
    const ns = await api.Namespaces.show(parent.full_path as string);
    assert.deepEqual([ns.id, ns.kind, ns.full_path], [parent.id, 'group', parent.full_path]);
    const childPath = unique('gb-team');
    assert.deepEqual(await api.Namespaces.exists(childPath, { parentId: String(ns.id) }), { exists: false, suggests: [] });
    const sub = await newGroup({ parentId: ns.id as number, path: childPath });
    assert.deepEqual(await api.Namespaces.exists(childPath, { parentId: String(ns.id) }), { exists: true, suggests: [`${childPath}1`] });
    const project = await api.Projects.create({ name: unique('gb-svc'), namespaceId: sub.id, initializeWithReadme: true, defaultBranch: 'trunk' });
    assert.deepEqual([project.default_branch, project.empty_repo], ['trunk', false]);
    const readme = await api.RepositoryFiles.showRaw(project.id, 'README.md', 'trunk');
    assert.equal(typeof readme === 'string' ? readme : await (readme as Blob).text(), `# ${project.name}\n`);
    const listed = await api.Groups.allProjects(parent.id, { includeSubgroups: true, simple: true });
    assert.deepEqual(listed.map((p) => p.id), [project.id]);
    assert.deepEqual((await api.Groups.allDescendantGroups(parent.id, {})).map((g) => g.id), [sub.id]);
    assert.ok((await api.Namespaces.all({ search: childPath })).some((n) => n.id === sub.id));
    await rejects(api.Namespaces.show('no-such/namespace'), 404, '404 Namespace Not Found');
  });
  it('reads a project’s languages', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-langs'), namespaceId: group.id, initializeWithReadme: true });
    await api.Commits.create(project.id, 'main', 'code', [
      { action: 'create', filePath: 'index.ts', content: 't'.repeat(200) },
      { action: 'create', filePath: 'run.sh', content: 's'.repeat(100) },
    ]);
    assert.deepEqual(await api.Projects.showLanguages(project.id), { TypeScript: 66.67, Shell: 33.33 });
  });
  it('reads settings under both names and changes one under its former name', async () => {
    const before = await api.ApplicationSettings.show();
    assert.equal(before.allow_local_requests_from_hooks_and_services, before.allow_local_requests_from_web_hooks_and_services);
    try {
      const changed = await api.ApplicationSettings.edit({ allowLocalRequestsFromHooksAndServices: !before.allow_local_requests_from_web_hooks_and_services });
      assert.equal(changed.allow_local_requests_from_web_hooks_and_services, !before.allow_local_requests_from_web_hooks_and_services);
    } finally {
      await api.ApplicationSettings.edit({ allowLocalRequestsFromWebHooksAndServices: before.allow_local_requests_from_web_hooks_and_services });
    }
  });
});

describe('gitbeaker: protected branches and tags', () => {
  it('protects, shows, edits and unprotects branches; a Developer’s commit is refused until main is unprotected', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-protect'), namespaceId: group.id });
    await api.Commits.create(project.id, 'main', 'start', [{ action: 'create', filePath: 'README.md', content: '# gb\n' }]);
    const dev = await newUser();
    await api.GroupMembers.add(group.id, AccessLevel.DEVELOPER, { userId: dev.user.id });
    const main = await api.ProtectedBranches.show(project.id, 'main');
    assert.deepEqual(main.push_access_levels?.map((l) => l.access_level), [40]);
    const release = await api.ProtectedBranches.protect(project.id, 'release-*', { pushAccessLevel: 30, mergeAccessLevel: 40 });
    assert.deepEqual([release.name, release.push_access_levels?.[0].access_level_description], ['release-*', 'Developers + Maintainers']);
    await rejects(api.ProtectedBranches.protect(project.id, 'release-*'), 409, "Protected branch 'release-*' already exists");
    const edited = await api.ProtectedBranches.edit(project.id, 'release-*', { allowForcePush: true, codeOwnerApprovalRequired: true });
    assert.deepEqual([edited.allow_force_push, edited.code_owner_approval_required], [true, true]);
    assert.deepEqual((await api.ProtectedBranches.all(project.id)).map((b) => b.name).sort(), ['main', 'release-*']);
    const commit = () => as(dev.token).Commits.create(project.id, 'main', 'dev', [{ action: 'create', filePath: 'dev.txt', content: 'd' }]);
    await rejects(commit(), 403, 'You are not allowed to push into this branch');
    await api.ProtectedBranches.unprotect(project.id, 'main');
    await rejects(api.ProtectedBranches.show(project.id, 'main'), 404);
    assert.equal((await commit()).title, 'dev');
    assert.equal((await api.Branches.show(project.id, 'main')).protected, false);
  });

  it('protects tags: a Developer may not create one the protection covers until it is unprotected', async () => {
    const group = await newGroup();
    const project = await api.Projects.create({ name: unique('gb-ptags'), namespaceId: group.id });
    await api.Commits.create(project.id, 'main', 'start', [{ action: 'create', filePath: 'README.md', content: '# gb\n' }]);
    const dev = await newUser();
    await api.GroupMembers.add(group.id, AccessLevel.DEVELOPER, { userId: dev.user.id });
    const created = await api.ProtectedTags.protect(project.id, 'v*', { createAccessLevel: 40 });
    assert.deepEqual([created.name, created.create_access_levels?.[0].access_level], ['v*', 40]);
    assert.equal((await api.ProtectedTags.show(project.id, 'v*')).name, 'v*');
    assert.deepEqual((await api.ProtectedTags.all(project.id)).map((t) => t.name), ['v*']);
    await rejects(as(dev.token).Tags.create(project.id, 'v1.0', 'main'), 400, 'You are not allowed to create this tag as it is protected.');
    await api.ProtectedTags.unprotect(project.id, 'v*');
    assert.equal((await as(dev.token).Tags.create(project.id, 'v1.0', 'main')).name, 'v1.0');
  });
});
