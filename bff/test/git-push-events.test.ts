import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildGroup, buildProject, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from './harness.ts';
import { startReceiver, type Receiver, type Received } from './receiver.ts';

/**
 * Events from real pushes: the real `git` client pushes, the server's post-receive step fires
 * push and tag push events (with each hook's branch filter) to a receiver on 127.0.0.1, built
 * from the commits `git log` shows, and records "pushed" activity.
 */

const run = promisify(execFile);
const ZERO = '0000000000000000000000000000000000000000';
let server: TestServer;
let receiver: Receiver;
let work: string;
let repo: string;
let project: { id: number; path_with_namespace: string };
let pusher: { user: { id: number; username: string; name: string }; token: string };

async function git(...args: string[]): Promise<string> {
  const email = `${pusher.user.username}@example.com`;
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: work, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: pusher.user.name, GIT_COMMITTER_EMAIL: email };
  const { stdout } = await run('git', args, { cwd: repo, env, maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim();
}

/** The deliveries of one event kind (X-Service-Event header) received so far. */
const received = (event: string) => receiver.requests.filter((r) => r.headers['x-service-event'] === event);

async function waitForEvent(event: string, match: (r: Received) => boolean): Promise<Received> {
  const until = Date.now() + 15_000;
  for (;;) {
    const found = received(event).find(match);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no ${event} matching; got ${receiver.requests.map((r) => `${String(r.headers['x-service-event'])} ${r.json?.ref} ${r.url}`).join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

before(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-push-events-'));
  repo = path.join(work, 'repo');
  expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
  const group = await buildGroup();
  project = await buildProject(group.id);
  pusher = await userWithRole(group.id, 40);
  // One hook for everything, one for main only (a branch filter), one for tags only.
  const hook = (json: object) => api(`/projects/${project.id}/hooks`, { method: 'POST', json });
  expectStatus(await hook({ url: `${receiver.url}/all`, push_events: true, tag_push_events: true, repository_update_events: true }), 201);
  expectStatus(await hook({ url: `${receiver.url}/main-only`, push_events: true, push_events_branch_filter: 'main' }), 201);
  const url = new URL(`${server.url}/${project.path_with_namespace}.git`);
  url.username = 'x';
  url.password = pusher.token;
  await run('git', ['clone', '--quiet', url.toString(), repo], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0', HOME: work } });
});
after(async () => {
  await server.close();
  await receiver.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('push events from git push', () => {
  it('a first push of 25 commits fires a push event whose commits are the newest 20 of git log, with their files', async () => {
    fs.writeFileSync(path.join(repo, 'README.md'), 'hello\n');
    fs.writeFileSync(path.join(repo, 'old.txt'), 'old\n');
    await git('add', '.');
    await git('commit', '-q', '-m', 'feat: start');
    for (let i = 1; i < 24; i++) await git('commit', '-q', '--allow-empty', '-m', `feat: step ${i}`);
    fs.appendFileSync(path.join(repo, 'README.md'), 'more\n');
    fs.writeFileSync(path.join(repo, 'new.txt'), 'new\n');
    await git('rm', '-q', 'old.txt');
    await git('add', '.');
    await git('commit', '-q', '-m', 'feat: last\n\nWith a body.');
    await git('push', '--quiet', 'origin', 'HEAD:refs/heads/main');
    const log = (await git('log', '--format=%H', '--reverse')).split('\n');
    assert.equal(log.length, 25);

    const event = await waitForEvent('Push Hook', (r) => r.url === '/all' && r.json.ref === 'refs/heads/main');
    const body = event.json;
    assert.equal(body.object_kind, 'push');
    assert.equal(body.before, ZERO);
    assert.equal(body.after, log.at(-1));
    assert.equal(body.checkout_sha, log.at(-1));
    assert.equal(body.total_commits_count, 25);
    assert.deepEqual(body.commits.map((c: { id: string }) => c.id), log.slice(-20), 'the newest 20, oldest first');
    const last = body.commits.at(-1);
    assert.equal(last.title, 'feat: last');
    assert.equal(last.message.trim(), 'feat: last\n\nWith a body.');
    assert.deepEqual(last.author, { name: 'Ada', email: 'ada@example.com' });
    assert.deepEqual([last.added, last.modified, last.removed], [['new.txt'], ['README.md'], ['old.txt']]);
    assert.equal(last.url, `${server.url}/${project.path_with_namespace}/-/commit/${last.id}`);
    assert.equal(body.user_username, pusher.user.username);
    assert.equal(body.project_id, project.id);
    assert.equal(body.project.path_with_namespace, project.path_with_namespace);
    assert.equal(body.repository.git_http_url, `${server.url}/${project.path_with_namespace}.git`);
    assert.equal(body.ref_protected, true);
    await waitForEvent('Push Hook', (r) => r.url === '/main-only' && r.json.after === log.at(-1));
    const update = await waitForEvent('Repository Update Hook', (r) => r.json.refs?.includes('refs/heads/main'));
    assert.deepEqual(update.json.changes, [{ before: ZERO, after: log.at(-1), ref: 'refs/heads/main' }]);

    const events = await server.running.db.selectFrom('events').selectAll().where('project_id', '=', project.id).execute();
    assert.equal(events.length, 1);
    assert.equal(events[0].action_name, 'pushed');
    assert.equal(events[0].author_id, pusher.user.id);
    assert.deepEqual(JSON.parse(events[0].push_data!), { commit_count: 25, action: 'created', ref_type: 'branch', commit_from: null, commit_to: log.at(-1), ref: 'main', commit_title: 'feat: last', ref_count: null });
  });

  it('a feature branch: only the commits main lacks; a hook filtered to main hears nothing; deleting it fires after = zeros', async () => {
    const base = await git('rev-parse', 'HEAD');
    await git('checkout', '-q', '-b', 'feature/x');
    await git('commit', '-q', '--allow-empty', '-m', 'feat: x');
    const tip = await git('rev-parse', 'HEAD');
    await git('push', '--quiet', 'origin', 'feature/x');
    const created = await waitForEvent('Push Hook', (r) => r.json.ref === 'refs/heads/feature/x');
    assert.equal(created.url, '/all');
    assert.deepEqual(created.json.commits.map((c: { id: string }) => c.id), [tip]);
    assert.equal(created.json.total_commits_count, 1);
    assert.equal(created.json.ref_protected, false);
    await git('commit', '-q', '--allow-empty', '-m', 'feat: y');
    const next = await git('rev-parse', 'HEAD');
    await git('push', '--quiet', 'origin', 'feature/x');
    const pushed = await waitForEvent('Push Hook', (r) => r.json.ref === 'refs/heads/feature/x' && r.json.after === next);
    assert.equal(pushed.json.before, tip);
    assert.deepEqual(pushed.json.commits.map((c: { id: string }) => c.id), [next]);
    await git('push', '--quiet', 'origin', ':feature/x');
    const deleted = await waitForEvent('Push Hook', (r) => r.json.ref === 'refs/heads/feature/x' && r.json.after === ZERO);
    assert.equal(deleted.json.before, next);
    assert.equal(deleted.json.checkout_sha, null);
    assert.deepEqual(deleted.json.commits, []);
    assert.equal(received('Push Hook').filter((r) => r.url === '/main-only' && r.json.ref !== 'refs/heads/main').length, 0, 'the branch filter holds');
    assert.notEqual(base, tip);
  });

  it('a tag push fires a tag push event with the tag’s commit and message', async () => {
    const commit = await git('rev-parse', 'main');
    await git('tag', '-a', '-m', 'Release one', 'v1.0.0', 'main');
    const tagObject = await git('rev-parse', 'v1.0.0');
    await git('push', '--quiet', 'origin', 'v1.0.0');
    const event = await waitForEvent('Tag Push Hook', (r) => r.json.ref === 'refs/tags/v1.0.0');
    assert.equal(event.json.object_kind, 'tag_push');
    assert.equal(event.json.before, ZERO);
    assert.equal(event.json.after, tagObject);
    assert.equal(event.json.checkout_sha, commit);
    assert.equal(event.json.message.trim(), 'Release one');
    assert.equal(received('Push Hook').filter((r) => r.json.ref === 'refs/tags/v1.0.0').length, 0, 'a tag is not a push event');
    const events = await server.running.db.selectFrom('events').select('push_data').where('project_id', '=', project.id).execute();
    assert.ok(events.some((e) => JSON.parse(e.push_data!).ref_type === 'tag' && JSON.parse(e.push_data!).ref === 'v1.0.0'));
  });
});
