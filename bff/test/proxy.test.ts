import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { repositoryPath } from '../src/services/git/repositories.ts';
import { cloneAs } from './git-client.ts';
import { callInstance, sharedInstallation, type Instance, type SharedInstallation } from './instances.ts';
import { NGINX, startNginx, type Nginx } from './nginx.ts';

const run = promisify(execFile);

/**
 * The README's two-instance setup, as an operator runs it: two server processes on one PostgreSQL
 * database, each with a data directory of its own, one shared repositories directory, and
 * Debian's nginx in front with the repository's own deploy/nginx.conf (only its ports changed).
 * Everything goes through the proxy as a client's would; one instance is killed in the middle of
 * a push, and the other serves the whole history afterwards.
 */
const TOKEN = `proxy-token-${crypto.randomBytes(6).toString('hex')}`;
const ROOT = { username: 'root' };
const onPostgres = Boolean(process.env.GATEHOUSE_TEST_PG);

let installation: SharedInstallation;
let shared: string;
let a: Instance;
let b: Instance;
let proxy: Nginx;
const call = (p: string, method = 'GET', body?: unknown) => callInstance(proxy.url, TOKEN, method, p, body);

/** A history of `count` commits on `branches` branches and as many tags, with some weight, in a local repository. */
async function historyIn(dir: string, count: number, branches: number): Promise<Record<string, string>> {
  const git = (args: string[]) => run('git', args, { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: 'Root', GIT_AUTHOR_EMAIL: 'root@example.com', GIT_COMMITTER_NAME: 'Root', GIT_COMMITTER_EMAIL: 'root@example.com', GIT_CONFIG_NOSYSTEM: '1' }, maxBuffer: 64 * 1024 * 1024 });
  await git(['init', '-q', '-b', 'main']);
  // fast-import writes the whole history at once (a commit per second of git otherwise).
  const lines: string[] = [];
  for (let i = 1; i <= count; i++) {
    const blob = crypto.randomBytes(24 * 1024).toString('base64');
    lines.push(`commit refs/heads/main`, `mark :${i}`, `committer Root <root@example.com> ${1_700_000_000 + i} +0000`, `data ${`Commit ${i}`.length}`, `Commit ${i}`);
    if (i > 1) lines.push(`from :${i - 1}`);
    lines.push(`M 644 inline file-${i % 50}.txt`, `data ${Buffer.byteLength(blob)}`, blob, '');
  }
  for (let k = 1; k <= branches; k++) lines.push(`reset refs/heads/branch-${k}`, `from :${Math.ceil((count * k) / (branches + 1))}`, '', `reset refs/tags/v${k}`, `from :${Math.ceil((count * k) / (branches + 1))}`, '');
  await new Promise<void>((resolve, reject) => {
    const child = spawn('git', ['fast-import', '--quiet'], { cwd: dir, stdio: ['pipe', 'ignore', 'inherit'] });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}`))));
    child.stdin!.end(lines.join('\n') + '\n');
  });
  const refs = (await git(['for-each-ref', '--format=%(refname) %(objectname)'])).stdout.trim().split('\n');
  return Object.fromEntries(refs.map((line) => line.split(' ') as [string, string]));
}

describe('two instances behind nginx (deploy/nginx.conf)', { skip: !onPostgres ? 'the setup is several machines on one PostgreSQL database (GATEHOUSE_TEST_PG)' : !NGINX && 'Debian’s nginx is not installed (scripts/debian-packages.sh installs it)' }, () => {
  before(async () => {
    installation = await sharedInstallation('proxy', TOKEN);
    shared = path.join(installation.dataDir, 'shared-repositories');
    const env = (name: string) => ({ GATEHOUSE_DATA_DIR: path.join(installation.dataDir, name), GATEHOUSE_REPOSITORIES_DIR: shared, GATEHOUSE_TRUSTED_PROXIES: '127.0.0.1' });
    a = await installation.start(env('a'));
    b = await installation.start(env('b'));
    proxy = await startNginx([a.url, b.url], async (url) => (await fetch(`${url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': TOKEN } })).status < 500);
  });
  after(async () => {
    await proxy?.stop();
    await installation?.close();
  });

  let group: { id: number };
  const newProject = async (name: string) => {
    const made = await call('/projects', 'POST', { name, namespace_id: group.id });
    assert.equal(made.status, 201, made.text);
    return made.body as { id: number; path_with_namespace: string };
  };

  it('serves the API and git through the proxy from either instance: a project made, pushed to and cloned', async () => {
    // Requests are shared out between the two: each answers some of them.
    const made = await call('/groups', 'POST', { name: 'Proxied', path: `proxied-${crypto.randomBytes(3).toString('hex')}` });
    assert.equal(made.status, 201, made.text);
    group = made.body;
    const project = await newProject('site');
    for (let i = 0; i < 6; i++) assert.equal((await call(`/projects/${project.id}`)).body.id, project.id);
    // The monitoring endpoints are each instance's, not the proxy's (every caller would come from its address).
    for (const endpoint of ['metrics', 'readiness', 'health']) {
      assert.equal((await fetch(`${proxy.url}/-/${endpoint}`)).status, 404, endpoint);
      assert.equal((await fetch(`${a.url}/-/${endpoint}`)).status, 200, endpoint);
    }
    const client = await cloneAs(proxy.url, project.path_with_namespace, ROOT, TOKEN);
    try {
      const pushed = await client.pushCommit('main', { 'README.md': '# Behind a proxy\n' }, 'First commit');
      assert.ok(pushed.ok, pushed.out);
      // Each instance, asked directly, has the commit: one repository for both.
      for (const instance of [a, b]) {
        const commit = await callInstance(instance.url, TOKEN, 'GET', `/projects/${project.id}/repository/commits/main`);
        assert.equal(commit.body?.id, pushed.sha, commit.text);
      }
    } finally {
      client.remove();
    }
  });

  it('an instance killed in the middle of a push loses nothing: the other, through the proxy, takes the push again and serves every ref of it (git fsck clean)', async () => {
    const local = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-history-'));
    const project = await newProject('history');
    try {
      const refs = await historyIn(local, 400, 4);
      const remote = (server: string) => {
        const url = new URL(`${server}/${project.path_with_namespace}.git`);
        url.username = ROOT.username;
        url.password = TOKEN;
        return url.toString();
      };
      const push = (server: string) => run('git', ['push', '--quiet', remote(server), '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], { cwd: local, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, maxBuffer: 16 * 1024 * 1024 });
      // Straight to instance A, killed once its receive-pack has begun writing the pack.
      const repository = repositoryPath(shared, project);
      const quarantined = () => fs.existsSync(path.join(repository, 'objects')) && fs.readdirSync(path.join(repository, 'objects')).some((f) => f.startsWith('incoming-') || f.startsWith('tmp_objdir-incoming'));
      const interrupted = push(a.url).then(
        () => 'pushed',
        () => 'failed',
      );
      for (let i = 0; i < 600 && !quarantined(); i++) await new Promise((r) => setTimeout(r, 25));
      await installation.crash(a);
      const outcome = await interrupted;
      console.log(`proxy: instance A killed ${quarantined() ? 'while the pack was being received' : 'before the pack arrived'}; the client's push ${outcome}`);
      // Whatever the client saw, the repository holds no broken ref and no missing object.
      const fsck = await run('git', ['fsck', '--full', '--no-dangling'], { cwd: repository });
      assert.doesNotMatch(fsck.stdout + fsck.stderr, /missing|broken|error/i, `${outcome}: ${fsck.stdout}${fsck.stderr}`);

      // Through the proxy (instance A is gone: nginx sends everything to B), the push is made again, and every ref is served.
      await push(proxy.url);
      const served = (await run('git', ['ls-remote', remote(proxy.url)], { cwd: local })).stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t'))
        .filter(([, ref]) => ref !== 'HEAD');
      assert.deepEqual(Object.fromEntries(served.map(([sha, ref]) => [ref, sha])), refs);
      const clone = path.join(local, 'clone');
      await run('git', ['clone', '--quiet', '--mirror', remote(proxy.url), clone]);
      const cloned = await run('git', ['fsck', '--full', '--no-dangling'], { cwd: clone });
      assert.doesNotMatch(cloned.stdout + cloned.stderr, /missing|broken|error/i);
      assert.equal((await run('git', ['rev-list', '--count', 'main'], { cwd: clone })).stdout.trim(), '400');
      const after = await run('git', ['fsck', '--full', '--no-dangling'], { cwd: repository });
      assert.doesNotMatch(after.stdout + after.stderr, /missing|broken|error/i);
    } finally {
      fs.rmSync(local, { recursive: true, force: true });
    }
  });
});
