// Runs on SQLite only: the protocol is git's; the credentials, roles and push records it reads are the API's, tested on PostgreSQL by the API and git-push tests
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildGroup, buildProject, buildUser, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from './harness.ts';

/**
 * Git over HTTP driven by the real `git` client: clone, fetch and push at `<full path>.git`,
 * with the platform's credentials (tokens as the Basic password, deploy tokens, passwords),
 * scopes and roles.
 */

const run = promisify(execFile);
let server: TestServer;
let work: string;

before(async () => {
  server = await startTestServer();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-git-'));
});
after(async () => {
  await server.close();
  fs.rmSync(work, { recursive: true, force: true });
});

let seq = 0;
/** Runs git with no prompt and no user configuration; resolves with its output or rejects with it. */
async function git(args: string[], cwd = work): Promise<{ ok: boolean; out: string }> {
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: work, GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.com' };
  try {
    const { stdout, stderr } = await run('git', args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    return { ok: true, out: stdout + stderr };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

const urlOf = (fullPath: string, user?: string, password?: string) => {
  const u = new URL(`${server.url}/${fullPath}.git`);
  if (user !== undefined) u.username = encodeURIComponent(user);
  if (password !== undefined) u.password = encodeURIComponent(password);
  return u.toString();
};

/** A fresh clone directory name. */
const dir = () => path.join(work, `clone${++seq}`);

/** Clones, commits a file and pushes `branch`; returns the push's outcome. */
async function pushCommit(url: string, branch = 'main', file = `f${seq}.txt`) {
  const d = dir();
  const cloned = await git(['clone', '--quiet', url, d]);
  if (!cloned.ok) return cloned;
  fs.writeFileSync(path.join(d, file), `content ${seq}\n`);
  await git(['checkout', '-q', '-B', branch], d);
  await git(['add', file], d);
  await git(['commit', '-q', '-m', `feat: add ${file}`], d);
  return git(['push', '--quiet', 'origin', branch], d);
}

/** Polls until `probe` answers something. */
async function until<T>(probe: () => Promise<T | undefined>, limitMs = 20_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error('still waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function headOf(url: string, branch = 'main'): Promise<string> {
  const res = await git(['ls-remote', url, `refs/heads/${branch}`]);
  assert.ok(res.ok, res.out);
  return res.out.split('\t')[0];
}

describe('git over HTTP', () => {
  it('an Owner clones an empty repository, pushes, and another clone sees the commits', async () => {
    const owner = await buildUser();
    const group = await buildGroup({ token: owner.token });
    const project = await buildProject(group.id, { token: owner.token });
    const url = urlOf(project.path_with_namespace, 'anything', owner.token);
    const pushed = await pushCommit(url, 'main', 'README.md');
    assert.ok(pushed.ok, pushed.out);
    const d = dir();
    assert.ok((await git(['clone', '--quiet', urlOf(project.path_with_namespace, 'oauth2', owner.token), d])).ok);
    assert.equal(fs.readFileSync(path.join(d, 'README.md'), 'utf8').startsWith('content'), true);
    assert.match((await git(['log', '--format=%s'], d)).out, /feat: add README\.md/);
    // The user's own password works as well.
    assert.ok((await git(['ls-remote', urlOf(project.path_with_namespace, owner.user.username, owner.password)])).ok);
  });

  it('lets anyone clone a public project, and asks for credentials for a private one', async () => {
    const group = await buildGroup({ visibility: 'public' });
    const open = await buildProject(group.id, { visibility: 'public' });
    const closed = await buildProject(group.id, { visibility: 'private' });
    assert.ok((await pushCommit(urlOf(open.path_with_namespace, 'root', server.rootToken))).ok);
    assert.ok((await git(['clone', '--quiet', urlOf(open.path_with_namespace), dir()])).ok, 'anonymous clone of a public project');
    const anonymous = await git(['clone', '--quiet', urlOf(closed.path_with_namespace), dir()]);
    assert.equal(anonymous.ok, false);
    assert.match(anonymous.out, /could not read Username|Authentication failed/);
    const challenge = await fetch(`${urlOf(closed.path_with_namespace)}/info/refs?service=git-upload-pack`);
    assert.equal(challenge.status, 401);
    assert.match(challenge.headers.get('www-authenticate') ?? '', /^Basic realm=/);
    // Nobody pushes anonymously, even to a public project.
    const push = await fetch(`${urlOf(open.path_with_namespace)}/info/refs?service=git-receive-pack`);
    assert.equal(push.status, 401);
  });

  it('answers a wrong credential with 401, and a user who may not see the project as if it did not exist', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    const wrong = await git(['ls-remote', urlOf(project.path_with_namespace, 'root', 'not-a-token')]);
    assert.equal(wrong.ok, false);
    assert.match(wrong.out, /HTTP Basic: Access denied|Authentication failed/);
    const outsider = await buildUser();
    const hidden = await fetch(`${urlOf(project.path_with_namespace)}/info/refs?service=git-upload-pack`, { headers: { authorization: `Basic ${Buffer.from(`x:${outsider.token}`).toString('base64')}` } });
    assert.equal(hidden.status, 404);
    assert.match(await hidden.text(), /could not be found or you don't have permission to view it/);
    const malformed = await fetch(`${server.url}/a%E0b.git/info/refs?service=git-upload-pack`, { headers: { authorization: `Basic ${Buffer.from(`x:${outsider.token}`).toString('base64')}` } });
    assert.equal(malformed.status, 404);
    const missing = await git(['ls-remote', urlOf('no-such/project', 'x', outsider.token)]);
    assert.equal(missing.ok, false);
    assert.match(missing.out, /could not be found/);
  });

  it('follows roles: a Guest of a private project may not clone, a Reporter clones but may not push, a Developer pushes', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    assert.ok((await pushCommit(urlOf(project.path_with_namespace, 'root', server.rootToken))).ok);
    const guest = await userWithRole(group.id, 10);
    const reporter = await userWithRole(group.id, 20);
    const developer = await userWithRole(group.id, 30);
    const asGuest = await git(['ls-remote', urlOf(project.path_with_namespace, 'x', guest.token)]);
    assert.equal(asGuest.ok, false);
    assert.match(asGuest.out, /not allowed to download code/);
    assert.ok((await git(['ls-remote', urlOf(project.path_with_namespace, 'x', reporter.token)])).ok);
    const before = await headOf(urlOf(project.path_with_namespace, 'root', server.rootToken));
    const refused = await pushCommit(urlOf(project.path_with_namespace, 'x', reporter.token), 'feature/reporter');
    assert.equal(refused.ok, false);
    assert.match(refused.out, /You are not allowed to push code to this project/);
    assert.equal(await headOf(urlOf(project.path_with_namespace, 'root', server.rootToken)), before);
    const pushed = await pushCommit(urlOf(project.path_with_namespace, 'x', developer.token), 'feature/developer');
    assert.ok(pushed.ok, pushed.out);
    assert.match(await headOf(urlOf(project.path_with_namespace, 'x', reporter.token), 'feature/developer'), /^[0-9a-f]{40}$/);
  });

  it('protects the default branch: Developers may not push to it, nobody force-pushes or deletes it', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    const rootUrl = urlOf(project.path_with_namespace, 'root', server.rootToken);
    assert.ok((await pushCommit(rootUrl)).ok);
    const developer = await userWithRole(group.id, 30);
    const maintainer = await userWithRole(group.id, 40);
    const before = await headOf(rootUrl);
    const refused = await pushCommit(urlOf(project.path_with_namespace, 'x', developer.token), 'main');
    assert.equal(refused.ok, false);
    assert.match(refused.out, /remote: You are not allowed to push code to protected branches on this project\./);
    assert.equal(await headOf(rootUrl), before, 'a refused push moves no ref');
    const allowed = await pushCommit(urlOf(project.path_with_namespace, 'x', maintainer.token), 'main');
    assert.ok(allowed.ok, allowed.out);
    const head = await headOf(rootUrl);
    assert.notEqual(head, before);

    // A rewritten history, pushed with --force by the administrator: refused all the same.
    const d = dir();
    assert.ok((await git(['clone', '--quiet', rootUrl, d])).ok);
    await git(['reset', '-q', '--hard', 'HEAD~1'], d);
    await git(['commit', '-q', '--allow-empty', '-m', 'rewrite'], d);
    const forced = await git(['push', '--force', 'origin', 'main'], d);
    assert.equal(forced.ok, false);
    assert.match(forced.out, /You are not allowed to force push code to a protected branch on this project/);
    const deleted = await git(['push', 'origin', ':main'], d);
    assert.equal(deleted.ok, false);
    assert.match(deleted.out, /You can only delete protected branches using the web interface/);
    assert.equal(await headOf(rootUrl), head);
  });

  it('follows token scopes: read_repository clones but does not push, read_api does neither, write_repository pushes', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    assert.ok((await pushCommit(urlOf(project.path_with_namespace, 'root', server.rootToken))).ok);
    const reader = await userWithRole(group.id, 40, ['read_repository']);
    const apiReader = await userWithRole(group.id, 40, ['read_api']);
    const writer = await userWithRole(group.id, 40, ['write_repository']);
    assert.ok((await git(['ls-remote', urlOf(project.path_with_namespace, 'x', reader.token)])).ok);
    assert.match((await pushCommit(urlOf(project.path_with_namespace, 'x', reader.token), 'feature/r')).out, /not allowed to push/);
    assert.match((await git(['ls-remote', urlOf(project.path_with_namespace, 'x', apiReader.token)])).out, /not allowed to download code/);
    assert.ok((await pushCommit(urlOf(project.path_with_namespace, 'x', writer.token), 'feature/w')).ok);
  });

  it('takes a group deploy token with its own user name, within its group only', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    const elsewhere = await buildProject((await buildGroup()).id);
    assert.ok((await pushCommit(urlOf(project.path_with_namespace, 'root', server.rootToken))).ok);
    const created = await api(`/groups/${group.id}/deploy_tokens`, { method: 'POST', json: { name: 'ci', scopes: ['read_repository'] } });
    expectStatus(created, 201);
    const { username, token } = created.body as { username: string; token: string };
    assert.ok((await git(['clone', '--quiet', urlOf(project.path_with_namespace, username, token), dir()])).ok);
    assert.equal((await git(['ls-remote', urlOf(project.path_with_namespace, 'someone-else', token)])).ok, false, 'a deploy token answers only to its user name');
    assert.match((await pushCommit(urlOf(project.path_with_namespace, username, token), 'feature/deploy')).out, /not allowed to push/);
    assert.match((await git(['ls-remote', urlOf(elsewhere.path_with_namespace, username, token)])).out, /could not be found/);
  });

  it('counts wrong passwords against the sign-in limit the console uses: past it, 429 even for the right one', async () => {
    const u = await buildUser();
    const group = await buildGroup({ token: u.token });
    const project = await buildProject(group.id, { token: u.token });
    const refs = (password: string) =>
      fetch(`${urlOf(project.path_with_namespace)}/info/refs?service=git-upload-pack`, { headers: { authorization: `Basic ${Buffer.from(`${u.user.username}:${password}`).toString('base64')}` } });
    assert.equal((await refs(u.password)).status, 200);
    for (let i = 0; i < 10; i++) assert.equal((await refs(`wrong-${i}`)).status, 401);
    const limited = await refs(u.password);
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    const console = await api('/api/console/session', { method: 'POST', token: null, json: { username: u.user.username, password: u.password } });
    expectStatus(console, 429);
    // Tokens are not passwords: they still work.
    assert.ok((await git(['ls-remote', urlOf(project.path_with_namespace, 'x', u.token)])).ok);
  });

  it('takes pushes to branches and tags only: internal refs (train, head, keep-around) and any other namespace are refused with the platform’s “deny updating a hidden ref”; the server still writes its train refs', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    const developer = await userWithRole(group.id, 30);
    const url = urlOf(project.path_with_namespace, 'x', developer.token);
    assert.ok((await pushCommit(urlOf(project.path_with_namespace, 'root', server.rootToken))).ok);
    assert.ok((await pushCommit(url, 'feature/internal')).ok);
    // The server's own write: a merge train car's train ref.
    expectStatus(await api(`/projects/${project.id}`, { method: 'PUT', json: { merge_trains_enabled: true } }), 200);
    const mr = await api(`/projects/${project.id}/merge_requests`, { method: 'POST', json: { source_branch: 'feature/internal', target_branch: 'main', title: 'Internal' } });
    expectStatus(await api(`/projects/${project.id}/merge_trains/merge_requests/${mr.body.iid}`, { method: 'POST', json: {} }), 201);
    const trainRef = `refs/merge-requests/${mr.body.iid}/train`;
    const serverWrote = await until(async () => (await git(['ls-remote', url, trainRef])).out.split('\t')[0] || undefined);

    const d = dir();
    assert.ok((await git(['clone', '--quiet', url, d])).ok);
    await git(['commit', '-q', '--allow-empty', '-m', 'feat: sneak in'], d);
    const sha = (await git(['rev-parse', 'HEAD'], d)).out.trim();
    for (const ref of [`refs/merge-requests/${mr.body.iid}/head`, `refs/keep-around/${sha}`, 'refs/pipelines/1', 'refs/notes/commits', 'refs/anything/else', trainRef]) {
      const pushed = await git(['push', 'origin', `HEAD:${ref}`], d);
      assert.equal(pushed.ok, false, `${ref} should be refused:\n${pushed.out}`);
      assert.match(pushed.out, /\[remote rejected\].*\(deny updating a hidden ref\)/, ref);
    }
    const deleted = await git(['push', 'origin', `:${trainRef}`], d);
    assert.equal(deleted.ok, false);
    assert.match(deleted.out, /deny deleting a hidden ref/);
    const refs = (await git(['ls-remote', url])).out;
    assert.ok(refs.includes(`${serverWrote}\t${trainRef}`), 'the train ref is as the server wrote it, and still fetchable');
    assert.doesNotMatch(refs, /keep-around|refs\/pipelines|refs\/notes|refs\/anything|\/head\n/);
    // Branches and tags still go, in the same push as a refused ref (each ref answered on its own).
    await git(['tag', 'v-internal'], d);
    const mixed = await git(['push', 'origin', 'HEAD:refs/heads/feature/ok', 'v-internal', 'HEAD:refs/merge-requests/99/head'], d);
    assert.equal(mixed.ok, false, mixed.out);
    assert.match(mixed.out, /refs\/merge-requests\/99\/head \(deny updating a hidden ref\)/);
    assert.match((await git(['ls-remote', url, 'refs/heads/feature/ok', 'refs/tags/v-internal'])).out, new RegExp(`${sha}\trefs/heads/feature/ok[\\s\\S]*${sha}\trefs/tags/v-internal`));
  });

  it('a first push of a branch other than the default makes it the default, as on the platform: HEAD and default_branch name it, it is protected, a later main changes nothing', async () => {
    const owner = await buildUser();
    const group = await buildGroup({ token: owner.token });
    const project = await buildProject(group.id, { token: owner.token });
    const developer = await userWithRole(group.id, 30);
    const url = urlOf(project.path_with_namespace, 'x', owner.token);
    assert.ok((await pushCommit(urlOf(project.path_with_namespace, 'x', developer.token), 'feature/first')).ok);
    const shown = await api(`/projects/${project.id}`, { token: owner.token });
    assert.deepEqual([shown.body.default_branch, shown.body.empty_repo], ['feature/first', false]);
    assert.match((await git(['ls-remote', '--symref', url, 'HEAD'])).out, /^ref: refs\/heads\/feature\/first\tHEAD/);
    const d = dir();
    assert.ok((await git(['clone', '--quiet', url, d])).ok);
    assert.equal((await git(['rev-parse', '--abbrev-ref', 'HEAD'], d)).out.trim(), 'feature/first');
    // The default branch now: nobody deletes it, by push or by the API; a Developer no longer pushes to it.
    const deleted = await git(['push', 'origin', ':feature/first'], d);
    assert.equal(deleted.ok, false);
    assert.match(deleted.out, /You can only delete protected branches/);
    expectStatus(await api(`/projects/${project.id}/repository/branches/${encodeURIComponent('feature/first')}`, { method: 'DELETE', token: owner.token }), 400);
    assert.match((await pushCommit(urlOf(project.path_with_namespace, 'x', developer.token), 'feature/first')).out, /not allowed to push code to protected branches/);
    assert.ok((await pushCommit(url, 'main')).ok);
    assert.equal((await api(`/projects/${project.id}`, { token: owner.token })).body.default_branch, 'feature/first');

    // A first commit through the API on another branch does the same; PUT default_branch moves HEAD too.
    const other = await buildProject(group.id, { token: owner.token });
    expectStatus(await api(`/projects/${other.id}/repository/commits`, { method: 'POST', token: owner.token, json: { branch: 'develop', commit_message: 'Start', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] } }), 201);
    assert.equal((await api(`/projects/${other.id}`, { token: owner.token })).body.default_branch, 'develop');
    expectStatus(await api(`/projects/${other.id}/repository/branches`, { method: 'POST', token: owner.token, json: { branch: 'release', ref: 'develop' } }), 201);
    expectStatus(await api(`/projects/${other.id}`, { method: 'PUT', token: owner.token, json: { default_branch: 'release' } }), 200);
    assert.match((await git(['ls-remote', '--symref', urlOf(other.path_with_namespace, 'x', owner.token), 'HEAD'])).out, /^ref: refs\/heads\/release\tHEAD/);
  });

  it('refuses the dumb protocol and a blocked user', async () => {
    const owner = await buildUser();
    const group = await buildGroup({ token: owner.token });
    const project = await buildProject(group.id, { token: owner.token });
    const auth = { authorization: `Basic ${Buffer.from(`x:${owner.token}`).toString('base64')}` };
    const dumb = await fetch(`${urlOf(project.path_with_namespace)}/info/refs`, { headers: auth });
    assert.equal(dumb.status, 403);
    assert.match(await dumb.text(), /smart HTTP/);
    expectStatus(await api(`/users/${owner.user.id}/block`, { method: 'POST' }), 201);
    assert.equal((await fetch(`${urlOf(project.path_with_namespace)}/info/refs?service=git-upload-pack`, { headers: auth })).status, 401);
  });

  it('serves info/refs only for one service parameter naming a smart service: service[]=, a repeated or unknown service get the platform’s 403, anonymous callers its 401', async () => {
    const owner = await buildUser();
    const group = await buildGroup({ token: owner.token, visibility: 'public' });
    const project = await buildProject(group.id, { token: owner.token, visibility: 'public' });
    assert.ok((await pushCommit(urlOf(project.path_with_namespace, 'x', owner.token))).ok);
    const auth = { authorization: `Basic ${Buffer.from(`x:${owner.token}`).toString('base64')}` };
    const base = `${urlOf(project.path_with_namespace)}/info/refs`;
    for (const query of ['service[]=git-upload-pack', 'service[]=git-receive-pack', 'service=git-upload-pack&service=git-upload-pack', 'service[x]=git-upload-pack', 'service=git-upload-archive', 'service=', 'other=git-upload-pack']) {
      const res = await fetch(`${base}?${query}`, { headers: auth });
      assert.equal(res.status, 403, query);
      const body = await res.text();
      assert.equal(body.split('\n')[0], "The command you're trying to execute is not allowed.", query);
      assert.doesNotMatch(body, /[0-9a-f]{40}\s+refs\//, `${query}: no ref listing`);
      const anonymous = await fetch(`${base}?${query}`);
      assert.equal(anonymous.status, 401, `${query} anonymously`);
      assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Basic realm=/);
    }
    // The smart services themselves still answer, anonymously too for a public project's clone.
    const smart = await fetch(`${base}?service=git-upload-pack`);
    assert.equal(smart.status, 200);
    assert.equal(smart.headers.get('content-type'), 'application/x-git-upload-pack-advertisement');
    assert.ok((await git(['clone', '--quiet', urlOf(project.path_with_namespace), dir()])).ok);
  });

  it('the hourly housekeeping removes the quarantine folders of pushes killed mid-way (nothing written for an hour), never a push under way or a young one', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    const url = urlOf(project.path_with_namespace, 'root', server.rootToken);
    assert.ok((await pushCommit(url)).ok);
    const objects = path.join(server.config.repositoriesDir, `${project.id}.git`, 'objects');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    /** A quarantine folder as git leaves it (a pack being received), its files and folders last written `at`. */
    const quarantine = (name: string, at: Date, lastFile?: Date) => {
      const folder = path.join(objects, name);
      fs.mkdirSync(path.join(folder, 'pack'), { recursive: true });
      const pack = path.join(folder, 'pack', 'tmp_pack_a1B2c3');
      fs.writeFileSync(pack, crypto.randomBytes(1024 * 1024));
      fs.utimesSync(pack, lastFile ?? at, lastFile ?? at);
      fs.utimesSync(path.join(folder, 'pack'), at, at);
      fs.utimesSync(folder, at, at);
      return folder;
    };
    const stale = quarantine('tmp_objdir-incoming-K1lled', twoHoursAgo);
    const receiving = quarantine('tmp_objdir-incoming-Bu5y00', twoHoursAgo, new Date());
    const young = quarantine('tmp_objdir-incoming-Fr35h0', new Date());
    // The next housekeeping run, now rather than in an hour.
    await server.running.db.updateTable('jobs').set({ run_at: new Date().toISOString() }).where('unique_key', '=', 'housekeeping').where('state', '=', 'pending').execute();
    await until(async () => !fs.existsSync(stale));
    assert.ok(fs.existsSync(receiving), 'a push still writing keeps its quarantine');
    assert.ok(fs.existsSync(young), 'a young quarantine stays');
    assert.ok(fs.existsSync(path.join(objects, 'pack')), 'the repository’s own objects stay');
    assert.ok((await pushCommit(url)).ok, 'the repository still takes pushes');
    assert.ok((await git(['clone', '--quiet', url, dir()])).ok);
  });

  it('streams a large push into git without holding it in memory', async () => {
    const group = await buildGroup();
    const project = await buildProject(group.id);
    const d = dir();
    assert.ok((await git(['clone', '--quiet', urlOf(project.path_with_namespace, 'root', server.rootToken), d])).ok);
    // 24 MB of incompressible data: larger than any body limit of the API.
    const fd = fs.openSync(path.join(d, 'blob.bin'), 'w');
    for (let i = 0; i < 24; i++) fs.writeSync(fd, crypto.randomBytes(1024 * 1024));
    fs.closeSync(fd);
    await git(['add', 'blob.bin'], d);
    await git(['commit', '-q', '-m', 'feat: a large file'], d);
    const pushed = await git(['push', '--quiet', 'origin', 'main'], d);
    assert.ok(pushed.ok, pushed.out);
    const copy = dir();
    assert.ok((await git(['clone', '--quiet', urlOf(project.path_with_namespace, 'root', server.rootToken), copy])).ok);
    assert.equal(fs.statSync(path.join(copy, 'blob.bin')).size, 24 * 1024 * 1024);
  });
});
