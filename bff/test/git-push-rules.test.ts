// Runs on SQLite only: the rules are checked against git's objects in the pre-receive hook; reading and writing them is tested on PostgreSQL by the push-rule API tests
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PUSH_RULE_FLAG_FIELDS, PUSH_RULE_PATTERN_FIELDS } from '../../shared/src/group-push-rules.ts';
import { buildGroup, buildProject, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from './harness.ts';

/**
 * Push rules enforced on real pushes: the real `git` client pushes to a real server, the
 * server's pre-receive check refuses, and git shows the platform's words on its `remote:`
 * lines. A refused push moves no ref.
 */

const run = promisify(execFile);
let server: TestServer;
let work: string;
let repo: string;
let project: { id: number; path_with_namespace: string };
let pusher: { user: { id: number; username: string; name: string }; token: string };
let seq = 0;

interface Identity {
  authorName?: string;
  authorEmail?: string;
  committerName?: string;
  committerEmail?: string;
}

/** git in the working clone, as the pusher unless told otherwise; never prompts. */
async function git(args: string[], who: Identity = {}): Promise<{ ok: boolean; out: string }> {
  const email = `${pusher.user.username}@example.com`;
  const env = {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: work,
    GIT_AUTHOR_NAME: who.authorName ?? pusher.user.name,
    GIT_AUTHOR_EMAIL: who.authorEmail ?? email,
    GIT_COMMITTER_NAME: who.committerName ?? pusher.user.name,
    GIT_COMMITTER_EMAIL: who.committerEmail ?? email,
  };
  try {
    const { stdout, stderr } = await run('git', args, { cwd: repo, env, maxBuffer: 16 * 1024 * 1024 });
    return { ok: true, out: stdout + stderr };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

/** Every ref of the server's repository and where it points. */
const remoteRefs = async () => (await git(['ls-remote', 'origin'])).out;

/** A new branch from main with one commit (files written first), pushed; returns git's outcome. */
async function pushCommit(opts: { branch?: string; message?: string; files?: Record<string, string | Buffer>; who?: Identity; extra?: string[]; config?: string[] } = {}) {
  const branch = opts.branch ?? `topic/case-${++seq}`;
  await git(['checkout', '-q', '-B', branch, 'origin/main']);
  for (const [name, content] of Object.entries(opts.files ?? { [`file-${++seq}.txt`]: `content ${seq}\n` })) {
    fs.mkdirSync(path.dirname(path.join(repo, name)), { recursive: true });
    fs.writeFileSync(path.join(repo, name), content);
    await git(['add', name]);
  }
  const committed = await git([...(opts.config ?? []), 'commit', '-q', ...(opts.extra ?? []), '-m', opts.message ?? 'feat: a change'], opts.who);
  assert.ok(committed.ok, committed.out);
  return git(['push', 'origin', `${branch}:refs/heads/${branch}`]);
}

/** Every check off. */
const NO_RULE = {
  ...Object.fromEntries(PUSH_RULE_PATTERN_FIELDS.map((f) => [f, null])),
  ...Object.fromEntries(PUSH_RULE_FLAG_FIELDS.map((f) => [f, false])),
  max_file_size: 0,
};

/** The project's rule: only the given checks on. */
async function setRule(rule: Record<string, unknown>) {
  expectStatus(await api(`/projects/${project.id}/push_rule`, { method: 'PUT', json: { ...NO_RULE, ...rule } }), 200);
}

/** The push is refused with the message (on a `remote:` line), and no ref of the server moved. */
async function expectRefused(push: () => Promise<{ ok: boolean; out: string }>, message: RegExp) {
  const refsBefore = await remoteRefs();
  const res = await push();
  assert.equal(res.ok, false, `the push should be refused:\n${res.out}`);
  const remoteLines = res.out.split('\n').filter((l) => l.startsWith('remote: '));
  assert.ok(remoteLines.some((l) => message.test(l)), `expected ${message} on a remote: line, got:\n${res.out}`);
  assert.equal(await remoteRefs(), refsBefore, 'a refused push leaves every ref unchanged');
  return remoteLines;
}

before(async () => {
  server = await startTestServer();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-push-rules-'));
  repo = path.join(work, 'repo');
  const group = await buildGroup();
  project = await buildProject(group.id);
  pusher = await userWithRole(group.id, 40);
  const url = new URL(`${server.url}/${project.path_with_namespace}.git`);
  url.username = 'x';
  url.password = pusher.token;
  await run('git', ['clone', '--quiet', url.toString(), repo], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0', HOME: work } });
  await git(['commit', '-q', '--allow-empty', '-m', 'feat: start']);
  const first = await git(['push', '--quiet', 'origin', 'HEAD:refs/heads/main']);
  assert.ok(first.ok, first.out);
  await git(['fetch', '--quiet', 'origin']);
  expectStatus(await api(`/projects/${project.id}/push_rule`, { method: 'POST', json: { member_check: false } }), 201);
});
after(async () => {
  await server.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('git push against the project’s push rule', () => {
  it('commit_message_regex: a message that does not match is refused, naming the commit and the rule; one that matches passes', async () => {
    await setRule({ commit_message_regex: '^(feat|fix): ' });
    const lines = await expectRefused(() => pushCommit({ message: 'chore: tidy' }), /Commit message does not follow the pattern '\^\(feat\|fix\): '/);
    const sha = (await git(['rev-parse', '--short=8', 'HEAD'])).out.trim();
    assert.ok(lines.some((l) => l.includes(`commit ${sha}`) && l.includes('push rule commit_message_regex')), lines.join('\n'));
    assert.ok((await pushCommit({ message: 'fix: tidy' })).ok);
  });

  it('commit_message_negative_regex', async () => {
    await setRule({ commit_message_negative_regex: 'WIP' });
    await expectRefused(() => pushCommit({ message: 'feat: WIP login' }), /Commit message contains the forbidden pattern 'WIP'/);
  });

  it('branch_name_regex (the default branch is exempt)', async () => {
    await setRule({ branch_name_regex: '^(main|feature/.+)$' });
    await expectRefused(() => pushCommit({ branch: 'misc-work' }), /Branch name does not follow the pattern '\^\(main\|feature\/\.\+\)\$'/);
    assert.ok((await pushCommit({ branch: 'feature/ok' })).ok);
  });

  it('author_email_regex, for the committer and the author', async () => {
    await setRule({ author_email_regex: '@example\\.com$' });
    await expectRefused(() => pushCommit({ who: { authorEmail: 'ann@other.org' } }), /Author's email 'ann@other\.org' does not follow the pattern '@example\\\.com\$'/);
    await expectRefused(() => pushCommit({ who: { committerEmail: 'bob@other.org' } }), /Committer's email 'bob@other\.org' does not follow the pattern/);
  });

  it('file_name_regex, for new files', async () => {
    await setRule({ file_name_regex: '\\.exe$' });
    await expectRefused(() => pushCommit({ files: { 'bin/tool.exe': 'MZ' } }), /File name bin\/tool\.exe was prohibited by the pattern "\\\\\.exe\$"\./);
  });

  it('max_file_size, in MiB', async () => {
    await setRule({ max_file_size: 1 });
    await expectRefused(() => pushCommit({ files: { 'big.bin': Buffer.alloc(1024 * 1024 + 1, 7) } }), /File "big\.bin" is larger than the allowed size of 1 MiB/);
    assert.ok((await pushCommit({ files: { 'small.bin': Buffer.alloc(1024 * 1024, 7) } })).ok, 'exactly the limit passes');
  });

  it('prevent_secrets, with the platform’s list of secret files', async () => {
    await setRule({ prevent_secrets: true });
    await expectRefused(() => pushCommit({ files: { '.ssh/id_rsa': 'key' } }), /File name \.ssh\/id_rsa was prohibited by the pattern "id_rsa\$"/);
    await expectRefused(() => pushCommit({ files: { 'aws/credentials': 'x' } }), /File name aws\/credentials was prohibited/);
  });

  it('deny_delete_tag', async () => {
    await setRule({});
    await git(['tag', '-a', '-m', 'release', `v${++seq}`, 'origin/main']);
    assert.ok((await git(['push', 'origin', `v${seq}`])).ok);
    await setRule({ deny_delete_tag: true });
    await expectRefused(() => git(['push', 'origin', `:refs/tags/v${seq}`]), /You cannot delete a tag/);
  });

  it('member_check: authors and committers must be users', async () => {
    await setRule({ member_check: true });
    await expectRefused(() => pushCommit({ who: { authorEmail: 'stranger@example.com' } }), /Author 'stranger@example\.com' is not a member of team/);
    await expectRefused(() => pushCommit({ who: { committerEmail: 'nobody@example.com' } }), /Committer 'nobody@example\.com' is not a member of team/);
    assert.ok((await pushCommit()).ok);
  });

  it('commit_committer_check: only the pusher’s own email as committer', async () => {
    await setRule({ commit_committer_check: true });
    await expectRefused(() => pushCommit({ who: { committerEmail: 'someone@example.com' } }), /You cannot push commits for 'someone@example\.com'\. You can only push commits that were committed with one of your own verified emails\./);
    assert.ok((await pushCommit()).ok);
  });

  it('commit_committer_name_check: the committer name must be the pusher’s', async () => {
    await setRule({ commit_committer_name_check: true });
    await expectRefused(() => pushCommit({ who: { committerName: 'Someone Else' } }), /Your git commit name 'Someone Else' does not match your user name/);
  });

  it('reject_non_dco_commits: a sign-off is needed', async () => {
    await setRule({ reject_non_dco_commits: true });
    await expectRefused(() => pushCommit(), /Commit message must contain a DCO signoff/);
    assert.ok((await pushCommit({ extra: ['--signoff'] })).ok);
  });

  it('reject_unsigned_commits: a signed commit passes', async () => {
    await setRule({ reject_unsigned_commits: true });
    await expectRefused(() => pushCommit(), /Commit must be signed with a GPG key/);
    const key = path.join(work, 'signing-key');
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'test', '-f', key]);
    const signed = await pushCommit({ config: ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${key}`], extra: ['-S'] });
    assert.ok(signed.ok, signed.out);
  });
});

describe('one check for every way a ref is made (the branches, tags and commits APIs meet the rule a push meets)', () => {
  it('branch_name_regex: POST …/branches and POST …/commits refuse the name a push is refused, in the same words; an allowed name goes through', async () => {
    await setRule({ branch_name_regex: '^(main|feature/.+)$' });
    const words = /Branch name does not follow the pattern '\^\(main\|feature\/\.\+\)\$'/;
    await expectRefused(() => pushCommit({ branch: 'misc-push' }), words);
    const viaBranches = await api(`/projects/${project.id}/repository/branches`, { method: 'POST', token: pusher.token, json: { branch: 'misc-api', ref: 'main' } });
    expectStatus(viaBranches, 400);
    assert.match(viaBranches.body.message, words);
    const viaCommits = await api(`/projects/${project.id}/repository/commits`, {
      method: 'POST',
      token: pusher.token,
      json: { branch: 'misc-commit', start_branch: 'main', commit_message: 'feat: misc', actions: [{ action: 'create', file_path: 'misc.txt', content: 'misc\n' }] },
    });
    expectStatus(viaCommits, 400);
    assert.match(viaCommits.body.message, words);
    assert.doesNotMatch(await remoteRefs(), /misc-/, 'no way made the branch');
    expectStatus(await api(`/projects/${project.id}/repository/branches`, { method: 'POST', token: pusher.token, json: { branch: 'feature/via-api', ref: 'main' } }), 201);
  });

  it('deny_delete_tag: DELETE …/tags/:tag_name is refused as a push deleting it is; the tag stays', async () => {
    await setRule({ deny_delete_tag: true });
    const name = `api-v${++seq}`;
    expectStatus(await api(`/projects/${project.id}/repository/tags`, { method: 'POST', token: pusher.token, json: { tag_name: name, ref: 'main' } }), 201);
    const refused = await api(`/projects/${project.id}/repository/tags/${name}`, { method: 'DELETE', token: pusher.token });
    expectStatus(refused, 400);
    assert.match(refused.body.message, /You cannot delete a tag/);
    expectStatus(await api(`/projects/${project.id}/repository/tags/${name}`), 200);
    await setRule({});
    expectStatus(await api(`/projects/${project.id}/repository/tags/${name}`, { method: 'DELETE', token: pusher.token }), 204);
  });
});

describe('the hooks’ internal endpoint', () => {
  it('answers 404 without a live push’s secret, and is not part of /api/v4', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/-/internal/git-hook`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ kind: 'pre-receive', updates: '' }) });
    assert.equal((await post({})).status, 404);
    assert.equal((await post({ 'Gatehouse-Hook-Secret': 'guessed' })).status, 404);
    const openapi = await api('/openapi.json');
    assert.ok(!Object.keys(openapi.body.paths).some((p) => p.includes('internal')));
  });
});
