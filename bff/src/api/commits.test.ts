import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { basicRef, commitDetail, commitListItem, commitNote } from '../../../shared/src/commits.ts';
import { diff } from '../../../shared/src/compare.ts';
import { projectSummary } from '../../../shared/src/projects.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { startReceiver, type Receiver, type Received } from '../../test/receiver.ts';

const run = promisify(execFile);
let server: TestServer;
let group: { id: number };
let project: { id: number; path_with_namespace: string };

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
});
after(async () => {
  await server.close();
});

const commits = (query = '', token?: string) => api(`/projects/${project.id}/repository/commits${query}`, { token });
const commit = (json: object, token?: string) => api(`/projects/${project.id}/repository/commits`, { method: 'POST', json, token });

/** What the real git client sees in a fresh clone of the project. */
async function cloneAndRead(branch: string, file: string): Promise<{ log: string; content: string; mode: string }> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-commits-'));
  try {
    const url = new URL(`${server.url}/${project.path_with_namespace}.git`);
    url.username = 'root';
    url.password = server.rootToken;
    const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', HOME: work };
    await run('git', ['clone', '--quiet', '--branch', branch, url.toString(), path.join(work, 'c')], { env });
    const git = async (...args: string[]) => (await run('git', args, { cwd: path.join(work, 'c'), env })).stdout;
    return { log: await git('log', '--format=%H %an <%ae> %s'), content: fs.readFileSync(path.join(work, 'c', file), 'utf8'), mode: (await git('ls-files', '-s', file)).split(' ')[0] };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

describe('POST /projects/:id/repository/commits', () => {
  it('makes the first commit of an empty repository, and the project JSON says it is no longer empty', async () => {
    const before = await api(`/projects/${project.id}`);
    assert.equal(expectShape(projectSummary, before.body).empty_repo, true);
    assert.equal(before.body.default_branch, null);

    const res = await commit({
      branch: 'main',
      commit_message: 'Initial commit\n\nWith a body.',
      author_name: 'Ada',
      author_email: 'ada@example.com',
      actions: [
        { action: 'create', file_path: 'README.md', content: '# Hello\n' },
        { action: 'create', file_path: 'bin/run.sh', content: Buffer.from('#!/bin/sh\necho hi\n').toString('base64'), encoding: 'base64', execute_filemode: true },
      ],
    });
    expectStatus(res, 201);
    const created = expectShape(commitDetail, res.body);
    assert.equal(created.title, 'Initial commit');
    assert.equal(created.author_name, 'Ada');
    assert.equal(created.committer_name, 'Administrator');
    assert.deepEqual(created.parent_ids, []);
    assert.deepEqual(created.stats, { additions: 3, deletions: 0, total: 3 });
    assert.equal(created.project_id, project.id);

    const seen = await cloneAndRead('main', 'bin/run.sh');
    assert.equal(seen.log.trim(), `${created.id} Ada <ada@example.com> Initial commit`);
    assert.equal(seen.content, '#!/bin/sh\necho hi\n');
    assert.equal(seen.mode, '100755');

    const afterwards = await api(`/projects/${project.id}`);
    assert.equal(afterwards.body.empty_repo, false);
    assert.equal(afterwards.body.default_branch, 'main');
  });

  it('updates, moves, chmods and deletes in one commit on top of the branch', async () => {
    const parent = (await commits('?per_page=1')).body[0].id as string;
    const res = await commit({
      branch: 'main',
      commit_message: 'Rework',
      actions: [
        { action: 'update', file_path: 'README.md', content: '# Hello, world\n', last_commit_id: parent },
        { action: 'move', previous_path: 'bin/run.sh', file_path: 'scripts/run.sh' },
        { action: 'chmod', file_path: 'scripts/run.sh', execute_filemode: false },
        { action: 'create', file_path: 'docs/a.txt', content: 'a\n' },
        { action: 'delete', file_path: 'docs/a.txt' },
      ],
    });
    expectStatus(res, 201);
    assert.deepEqual(res.body.parent_ids, [parent]);
    const seen = await cloneAndRead('main', 'scripts/run.sh');
    assert.equal(seen.content, '#!/bin/sh\necho hi\n');
    assert.equal(seen.mode, '100644');
    const tree = await api(`/projects/${project.id}/repository/tree?recursive=true`);
    assert.deepEqual(tree.body.map((e: { path: string }) => e.path).sort(), ['README.md', 'scripts', 'scripts/run.sh']);
  });

  it('starts a new branch from start_branch; the default branch is left as it was', async () => {
    const main = (await commits('?per_page=1')).body[0].id as string;
    const res = await commit({ branch: 'feature/x', start_branch: 'main', commit_message: 'feat: x', actions: [{ action: 'create', file_path: 'x.txt', content: 'x' }] });
    expectStatus(res, 201);
    assert.deepEqual(res.body.parent_ids, [main]);
    assert.equal((await commits('?per_page=1')).body[0].id, main);
    assert.equal((await commits('?ref_name=feature/x&per_page=1')).body[0].id, res.body.id);
  });

  it('answers the platform’s 400s and changes nothing', async () => {
    const main = (await commits('?per_page=1')).body[0].id as string;
    const cases: [object, string][] = [
      [{ branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'README.md', content: 'x' }] }, 'A file with this name already exists'],
      [{ branch: 'main', commit_message: 'm', actions: [{ action: 'update', file_path: 'nope.md', content: 'x' }] }, "A file with this name doesn't exist"],
      [{ branch: 'main', commit_message: 'm', actions: [{ action: 'delete', file_path: 'nope.md' }] }, "A file with this name doesn't exist"],
      [{ branch: 'main', commit_message: 'm', actions: [{ action: 'update', file_path: 'README.md', content: 'x', last_commit_id: '0'.repeat(40) }] }, 'The file has changed since you started editing it: README.md'],
      [{ branch: 'nope', commit_message: 'm', actions: [{ action: 'create', file_path: 'y', content: 'y' }] }, 'You can only create or edit files when you are on a branch'],
      [{ branch: 'feature/x', start_branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'y', content: 'y' }] }, "A branch called 'feature/x' already exists. Switch to that branch in order to make changes"],
      [{ branch: 'bad..name', start_branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'y', content: 'y' }] }, "Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid"],
      [{ branch: '-x', start_branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'y', content: 'y' }] }, "Something went wrong when we tried to create '-x' for you: Branch name is invalid"],
      [{ branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'README.md/inner', content: 'x' }] }, 'A file with this name already exists'],
    ];
    for (const [body, message] of cases) {
      const res = await commit(body);
      expectStatus(res, 400);
      assert.deepEqual(res.body, { message }, JSON.stringify(body));
    }
    for (const bad of [
      { branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: '../escape', content: 'x' }] },
      { branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: '.git/config', content: 'x' }] },
      { branch: 'main', commit_message: 'm', actions: [{ action: 'rename', file_path: 'a' }] },
      { branch: 'main', actions: [{ action: 'create', file_path: 'a' }] },
      { branch: 'main', commit_message: 'm', actions: [] },
    ]) {
      const res = await commit(bad);
      expectStatus(res, 400);
      assert.ok(res.body.message, JSON.stringify(res.body));
    }
    assert.equal((await commits('?per_page=1')).body[0].id, main);
  });

  it('lets a Developer commit to other branches but not to the protected default branch; a Reporter not at all', async () => {
    const developer = await userWithRole(group.id, 30);
    const denied = await commit({ branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'dev.txt', content: 'd' }] }, developer.token);
    expectStatus(denied, 403);
    assert.deepEqual(denied.body, { message: '403 Forbidden - You are not allowed to push into this branch' });
    expectStatus(await commit({ branch: 'dev', start_branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'dev.txt', content: 'd' }] }, developer.token), 201);
    const maintainer = await userWithRole(group.id, 40);
    expectStatus(await commit({ branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'maint.txt', content: 'm' }] }, maintainer.token), 201);
    const reporter = await userWithRole(group.id, 20);
    expectStatus(await commit({ branch: 'rep', start_branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'r.txt', content: 'r' }] }, reporter.token), 403);
  });
});

describe('GET /projects/:id/repository/commits', () => {
  it('lists the default branch newest first with the pagination headers, and pages', async () => {
    const res = await commits();
    expectStatus(res, 200);
    const list = expectShape(z.array(commitListItem), res.body);
    assert.deepEqual(list.map((c) => c.title), ['m', 'Rework', 'Initial commit']);
    assert.equal(list[0].stats, undefined);
    assert.equal(res.headers.get('x-total'), '3');
    const second = await commits('?per_page=1&page=2');
    assert.deepEqual(second.body.map((c: { title: string }) => c.title), ['Rework']);
    assert.equal(second.headers.get('x-next-page'), '3');
    assert.match(second.headers.get('link') ?? '', /rel="next"/);
  });

  it('filters by path, ref_name (a range too), since and until; with_stats adds the stats', async () => {
    const titles = async (q: string) => (await commits(q)).body.map((c: { title: string }) => c.title);
    assert.deepEqual(await titles('?path=README.md'), ['Rework', 'Initial commit']);
    assert.deepEqual(await titles('?path=scripts'), ['Rework']);
    assert.deepEqual(await titles('?ref_name=dev'), ['m', 'Rework', 'Initial commit']);
    assert.deepEqual(await titles('?ref_name=main..feature/x'), ['feat: x']);
    assert.deepEqual(await titles('?ref_name=no-such-branch'), []);
    assert.deepEqual(await titles('?ref_name=-all'), []);
    assert.deepEqual(await titles('?until=2000-01-01T00:00:00Z'), []);
    assert.deepEqual(await titles('?since=2000-01-01T00:00:00Z&per_page=1'), ['m']);
    const all = await titles('?all=true');
    assert.ok(all.includes('feat: x') && all.includes('m'), JSON.stringify(all));
    const withStats = expectShape(z.array(commitListItem), (await commits('?with_stats=true&path=README.md')).body);
    assert.deepEqual(withStats[0].stats, { additions: 1, deletions: 1, total: 2 });
    expectStatus(await commits('?since=yesterday'), 400);
    expectStatus(await commits('?order=random'), 400);
  });

  it('needs a Reporter of a private project; an outsider is told it does not exist', async () => {
    expectStatus(await commits('', (await userWithRole(group.id, 20)).token), 200);
    expectStatus(await commits('', (await userWithRole(group.id, 10)).token), 403);
    expectStatus(await commits('', (await userWithRole(group.id, 0)).token), 404);
  });
});

describe('GET /projects/:id/repository/commits/:sha', () => {
  it('gets a commit by SHA, branch or tag with its stats; 404 Commit for a ref that names nothing', async () => {
    const [latest] = (await commits('?path=README.md')).body;
    const bySha = await commits(`/${latest.id}`);
    expectStatus(bySha, 200);
    const detail = expectShape(commitDetail, bySha.body);
    assert.equal(detail.title, 'Rework');
    assert.deepEqual(detail.stats, { additions: 1, deletions: 1, total: 2 }, 'the move is a rename: no lines change');
    assert.equal(detail.status, null);
    assert.equal(detail.web_url, `${server.url}/${project.path_with_namespace}/-/commit/${latest.id}`);
    assert.equal((await commits(`/${latest.id.slice(0, 8)}?stats=false`)).body.stats, undefined);
    assert.equal((await commits('/feature%2Fx')).body.title, 'feat: x');
    for (const ref of ['nope', '-x', '--all', 'main..dev', '0'.repeat(40)]) {
      const missing = await commits(`/${encodeURIComponent(ref)}`);
      expectStatus(missing, 404);
      assert.deepEqual(missing.body, { message: '404 Commit Not Found' });
    }
  });
});

describe('a commit through the API is a push', () => {
  let receiver: Receiver;
  let target: { id: number };
  before(async () => {
    receiver = await startReceiver();
    expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
    target = await buildProject(group.id);
    const first = await api(`/projects/${target.id}/repository/commits`, { method: 'POST', json: { branch: 'main', commit_message: 'feat: start', actions: [{ action: 'create', file_path: 'a.txt', content: 'a\n' }] } });
    expectStatus(first, 201);
    expectStatus(await api(`/projects/${target.id}/push_rule`, { method: 'POST', json: { commit_message_regex: '^feat: ' } }), 201);
    expectStatus(await api(`/projects/${target.id}/hooks`, { method: 'POST', json: { url: `${receiver.url}/api-commits`, push_events: true } }), 201);
  });
  after(async () => {
    await receiver.close();
  });

  it("is refused by the project's push rule with its message, and the branch stays where it was", async () => {
    const tip = (await api(`/projects/${target.id}/repository/branches/main`)).body.commit.id;
    const res = await api(`/projects/${target.id}/repository/commits`, { method: 'POST', json: { branch: 'main', commit_message: 'oops', actions: [{ action: 'create', file_path: 'b.txt', content: 'b\n' }] } });
    expectStatus(res, 400);
    assert.match(res.body.message, /Commit message does not follow the pattern '\^feat: '/);
    assert.equal((await api(`/projects/${target.id}/repository/branches/main`)).body.commit.id, tip);
  });

  it('fires a push event with the new commit, as a push of it would', async () => {
    const res = await api(`/projects/${target.id}/repository/commits`, { method: 'POST', json: { branch: 'main', commit_message: 'feat: via the API', actions: [{ action: 'create', file_path: 'c.txt', content: 'c\n' }] } });
    expectStatus(res, 201);
    const until = Date.now() + 15_000;
    let event: Received | undefined;
    while (!event && Date.now() < until) {
      event = receiver.requests.find((r) => r.headers['x-service-event'] === 'Push Hook' && r.json?.after === res.body.id);
      if (!event) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(event, `no push event for ${res.body.id}: ${receiver.requests.map((r) => r.json?.after).join(', ')}`);
    assert.equal(event.json.ref, 'refs/heads/main');
    assert.equal(event.json.total_commits_count, 1);
    assert.deepEqual(event.json.commits[0].added, ['c.txt']);
  });
});

describe('a commit’s diff, refs and comments', () => {
  let target: { id: number };
  let first: string;
  let second: string;
  const of = (sha: string, rest: string, token?: string | null) => api(`/projects/${target.id}/repository/commits/${sha}${rest}`, { token });
  before(async () => {
    target = await buildProject(group.id);
    const make = async (json: object) => {
      const res = await api(`/projects/${target.id}/repository/commits`, { method: 'POST', json });
      expectStatus(res, 201);
      return res.body.id as string;
    };
    first = await make({ branch: 'main', commit_message: 'Start', actions: [{ action: 'create', file_path: 'a.txt', content: '1\n2\n3\n' }, { action: 'create', file_path: 'b.txt', content: 'b\n' }] });
    second = await make({
      branch: 'main',
      commit_message: 'Change',
      actions: [
        { action: 'update', file_path: 'a.txt', content: '1\nTWO\n3\n' },
        { action: 'delete', file_path: 'b.txt' },
        { action: 'create', file_path: 'c.txt', content: 'c\n' },
      ],
    });
    expectStatus(await api(`/projects/${target.id}/repository/branches`, { method: 'POST', json: { branch: 'old', ref: first } }), 201);
    expectStatus(await api(`/projects/${target.id}/repository/tags`, { method: 'POST', json: { tag_name: 'v1', ref: first } }), 201);
  });

  describe('GET /projects/:id/repository/commits/:sha/diff', () => {
    it('answers each file the commit changes against its parent, paginated', async () => {
      const res = await of(second, '/diff');
      expectStatus(res, 200);
      const diffs = expectShape(z.array(diff), res.body);
      assert.equal(res.headers.get('x-total'), '3');
      const byPath = new Map(diffs.map((d) => [d.new_path, d]));
      assert.equal(byPath.get('a.txt')!.diff, '@@ -1,3 +1,3 @@\n 1\n-2\n+TWO\n 3\n');
      assert.deepEqual([byPath.get('a.txt')!.new_file, byPath.get('a.txt')!.deleted_file, byPath.get('a.txt')!.a_mode, byPath.get('a.txt')!.b_mode], [false, false, '100644', '100644']);
      assert.equal(byPath.get('b.txt')!.deleted_file, true);
      assert.equal(byPath.get('c.txt')!.new_file, true);
      assert.equal(byPath.get('c.txt')!.a_mode, '0');
      assert.equal(byPath.get('b.txt')!.b_mode, '0');
      const page = await of(second, '/diff?per_page=1&page=2');
      assert.equal(page.body.length, 1);
      assert.equal(page.headers.get('x-next-page'), '3');
      const root = expectShape(z.array(diff), (await of('old', '/diff')).body);
      assert.deepEqual(root.map((d) => [d.new_path, d.new_file]), [['a.txt', true], ['b.txt', true]]);
    });

    it('adds the unified diff headers with unidiff', async () => {
      const diffs = expectShape(z.array(diff), (await of(second, '/diff?unidiff=true')).body);
      const byPath = new Map(diffs.map((d) => [d.new_path, d.diff]));
      assert.equal(byPath.get('a.txt'), '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n 1\n-2\n+TWO\n 3\n');
      assert.match(byPath.get('b.txt')!, /^--- a\/b\.txt\n\+\+\+ \/dev\/null\n@@/);
      assert.match(byPath.get('c.txt')!, /^--- \/dev\/null\n\+\+\+ b\/c\.txt\n@@/);
    });

    it('answers 404 Commit for a ref that names nothing, 403 to a Guest of a private project', async () => {
      assert.deepEqual((await of('0'.repeat(40), '/diff')).body, { message: '404 Commit Not Found' });
      expectStatus(await of(second, '/diff', (await userWithRole(group.id, 10)).token), 403);
    });
  });

  describe('GET /projects/:id/repository/commits/:sha/refs', () => {
    it('lists the branches, then the tags, that contain the commit; type picks one kind', async () => {
      const res = await of(first, '/refs');
      expectStatus(res, 200);
      assert.deepEqual(expectShape(z.array(basicRef), res.body), [
        { type: 'branch', name: 'main' },
        { type: 'branch', name: 'old' },
        { type: 'tag', name: 'v1' },
      ]);
      assert.equal(res.headers.get('x-total'), '3');
      assert.deepEqual((await of(first, '/refs?type=branch')).body, [{ type: 'branch', name: 'main' }, { type: 'branch', name: 'old' }]);
      assert.deepEqual((await of(first, '/refs?type=tag')).body, [{ type: 'tag', name: 'v1' }]);
      assert.deepEqual((await of(second, '/refs')).body, [{ type: 'branch', name: 'main' }]);
      expectStatus(await of(first, '/refs?type=note'), 400);
      assert.deepEqual((await of('nope', '/refs')).body, { message: '404 Commit Not Found' });
    });
  });

  describe('GET and POST /projects/:id/repository/commits/:sha/comments', () => {
    it('comments on the commit, on a line of its diff where path and line name one, and lists them oldest first', async () => {
      const plain = await api(`/projects/${target.id}/repository/commits/${second}/comments`, { method: 'POST', json: { note: 'Looks good' } });
      expectStatus(plain, 201);
      const note = expectShape(commitNote, plain.body);
      assert.deepEqual([note.note, note.path, note.line, note.line_type, note.author.username], ['Looks good', null, null, null, 'root']);
      const added = await api(`/projects/${target.id}/repository/commits/main/comments`, { method: 'POST', json: { note: 'Why shout?', path: 'a.txt', line: 2, line_type: 'new' } });
      expectStatus(added, 201);
      assert.deepEqual([added.body.path, added.body.line, added.body.line_type], ['a.txt', 2, 'new']);
      const removed = await api(`/projects/${target.id}/repository/commits/${second}/comments`, { method: 'POST', form: { note: 'Gone', path: 'a.txt', line: '2', line_type: 'old' } });
      expectStatus(removed, 201);
      assert.deepEqual([removed.body.path, removed.body.line, removed.body.line_type], ['a.txt', 2, 'old']);
      const elsewhere = await api(`/projects/${target.id}/repository/commits/${second}/comments`, { method: 'POST', json: { note: 'Not a changed line', path: 'a.txt', line: 1 } });
      expectStatus(elsewhere, 201);
      assert.deepEqual([elsewhere.body.path, elsewhere.body.line, elsewhere.body.line_type], [null, null, null]);

      const list = await of(second, '/comments');
      expectStatus(list, 200);
      assert.deepEqual(expectShape(z.array(commitNote), list.body).map((n) => n.note), ['Looks good', 'Why shout?', 'Gone', 'Not a changed line']);
      assert.equal(list.headers.get('x-total'), '4');
      assert.deepEqual((await of(second, '/comments?per_page=1&page=2')).body.map((n: { note: string }) => n.note), ['Why shout?']);
      assert.deepEqual((await of(first, '/comments')).body, []);
    });

    it('sends a note event for a comment to the project’s hooks with note events: the note on the commit, and the commit', async () => {
      const receiver = await startReceiver();
      try {
        expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
        expectStatus(await api(`/projects/${target.id}/hooks`, { method: 'POST', json: { url: `${receiver.url}/notes`, note_events: true, push_events: false } }), 201);
        const made = await api(`/projects/${target.id}/repository/commits/${first}/comments`, { method: 'POST', json: { note: 'Hooked comment', path: 'a.txt', line: 2 } });
        expectStatus(made, 201);
        const [delivery] = await receiver.waitFor(1, 15_000);
        assert.equal(delivery.headers['x-gitlab-event'], 'Note Hook');
        const body = delivery.json;
        assert.deepEqual([body.object_kind, body.event_type, body.project_id, body.user.username], ['note', 'note', target.id, 'root']);
        const a = body.object_attributes;
        assert.deepEqual([a.note, a.noteable_type, a.noteable_id, a.commit_id, a.type, a.action], ['Hooked comment', 'Commit', null, first, 'DiffNote', 'create']);
        assert.match(a.url, new RegExp(`/-/commit/${first}#note_\\d+$`));
        assert.deepEqual([body.commit.id, body.commit.title, body.commit.message], [first, 'Start', 'Start']);
        assert.match(body.commit.url, new RegExp(`/-/commit/${first}$`));
        assert.ok(body.commit.author.name && body.commit.author.email && !Number.isNaN(Date.parse(body.commit.timestamp)));
        assert.equal(body.repository.name, body.project.name);
      } finally {
        await receiver.close();
      }
    });

    it('answers 400 for a missing note or a path without a line, 404 Commit, and needs a Reporter of a private project', async () => {
      const post = (json: object, sha = second, token?: string | null) => api(`/projects/${target.id}/repository/commits/${sha}/comments`, { method: 'POST', json, token });
      assert.deepEqual((await post({})).body, { message: 'note is missing' });
      assert.deepEqual((await post({ note: 'x', path: 'a.txt' })).body, { message: 'line is missing' });
      expectStatus(await post({ note: 'x', path: 'a.txt', line: 2, line_type: 'both' }), 400);
      assert.deepEqual((await post({ note: 'x' }, '0'.repeat(40))).body, { message: '404 Commit Not Found' });
      const reporter = await userWithRole(group.id, 20);
      const byReporter = await post({ note: 'From a Reporter' }, second, reporter.token);
      expectStatus(byReporter, 201);
      assert.equal(byReporter.body.author.username, reporter.user.username);
      expectStatus(await post({ note: 'x' }, second, (await userWithRole(group.id, 10)).token), 403);
      expectStatus(await post({ note: 'x' }, second, null), 401);
      expectStatus(await of(second, '/comments', (await userWithRole(group.id, 0)).token), 404);
      assert.equal((await of(second, '/comments')).body.length, 5);
    });
  });
});
