import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { z } from 'zod';
import { blameRange, repositoryFile, repositoryFileCommit } from '../../../shared/src/repository-files.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { fillRepository } from '../../test/repository-fixture.ts';
import { startReceiver, type Receiver, type Received } from '../../test/receiver.ts';

let server: TestServer;
let group: { id: number };
let project: { id: number };
let public_: { id: number };
let commits: { main: string[]; feature: string };

before(async () => {
  server = await startTestServer();
  group = await buildGroup({ visibility: 'public' });
  project = await buildProject(group.id);
  public_ = await buildProject(group.id, { visibility: 'public' });
  commits = await fillRepository(project.id);
  await fillRepository(public_.id);
});
after(async () => {
  await server.close();
});

const file = (p: string, query: string, token?: string | null) => api(`/projects/${project.id}/repository/files/${encodeURIComponent(p)}${query}`, { token });

describe('GET /projects/:id/repository/files/:file_path', () => {
  it('answers the file at a ref with its content in base64, blob and last commit', async () => {
    const res = await file('src/app.js', '?ref=main');
    expectStatus(res, 200);
    const f = expectShape(repositoryFile, res.body);
    assert.equal(Buffer.from(f.content, 'base64').toString(), 'console.log(1);\n');
    assert.equal(f.file_name, 'app.js');
    assert.equal(f.file_path, 'src/app.js');
    assert.equal(f.size, 16);
    assert.equal(f.ref, 'main');
    assert.equal(f.commit_id, commits.main[2]);
    assert.equal(f.last_commit_id, commits.main[1]);
    assert.equal(f.content_sha256, crypto.createHash('sha256').update('console.log(1);\n').digest('hex'));
    assert.equal(f.execute_filemode, false);
    assert.match(f.blob_id, /^[0-9a-f]{40}$/);
    const onFeature = expectShape(repositoryFile, (await file('README.md', '?ref=feature')).body);
    assert.equal(Buffer.from(onFeature.content, 'base64').toString(), '# Demo\n\nMore.\n');
    assert.equal(onFeature.last_commit_id, commits.feature);
  });

  it('answers 404 File for a path that is no file, 404 Commit for a ref that names nothing, 400 without a ref', async () => {
    for (const p of ['nope.txt', 'src', 'src/../README.md', '../README.md']) {
      const res = await file(p, '?ref=main');
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: '404 File Not Found' }, p);
    }
    for (const ref of ['nope', '--output=x', 'main..feature']) {
      const res = await file('README.md', `?ref=${encodeURIComponent(ref)}`);
      expectStatus(res, 404);
      assert.deepEqual(res.body, { message: '404 Commit Not Found' });
    }
    expectStatus(await file('README.md', ''), 400);
  });

  it('needs a Reporter of a private project', async () => {
    expectStatus(await file('README.md', '?ref=main', (await userWithRole(group.id, 20)).token), 200);
    expectStatus(await file('README.md', '?ref=main', (await userWithRole(group.id, 10)).token), 403);
    expectStatus(await file('README.md', '?ref=main', null), 404);
  });
});

describe('GET /projects/:id/repository/files/:file_path/raw', () => {
  it('streams the raw file at a ref (the default branch by default): text as text/plain, binary as octet-stream', async () => {
    const text = await file('README.md', '/raw');
    expectStatus(text, 200);
    assert.equal(text.text, '# Demo\n');
    assert.equal(text.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(text.headers.get('x-content-type-options'), 'nosniff');
    assert.match(text.headers.get('content-disposition') ?? '', /^inline; filename="README.md"/);
    assert.equal((await file('README.md', '/raw?ref=feature')).text, '# Demo\n\nMore.\n');
    const res = await fetch(`${server.url}/api/v4/projects/${project.id}/repository/files/logo.png/raw`, { headers: { 'PRIVATE-TOKEN': server.rootToken } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/octet-stream');
    assert.deepEqual([...new Uint8Array(await res.arrayBuffer())], [0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
  });

  it('serves a public project’s file to anyone, and answers JSON 404s for what is not there', async () => {
    const anon = await api(`/projects/${public_.id}/repository/files/src%2Fapp.js/raw?ref=main`, { token: null });
    expectStatus(anon, 200);
    assert.equal(anon.text, 'console.log(1);\n');
    const missing = await file('nope', '/raw');
    expectStatus(missing, 404);
    assert.deepEqual(missing.body, { message: '404 File Not Found' });
    assert.deepEqual((await file('README.md', '/raw?ref=-v')).body, { message: '404 Commit Not Found' });
  });
});

describe('POST, PUT and DELETE /projects/:id/repository/files/:file_path', () => {
  let target: { id: number };
  const at = (p: string, query = '') => `/projects/${target.id}/repository/files/${encodeURIComponent(p)}${query}`;
  const write = (method: string, p: string, json: object, token?: string) => api(at(p), { method, json, token });
  const read = async (p: string, ref = 'main') => expectShape(repositoryFile, (await api(at(p, `?ref=${encodeURIComponent(ref)}`))).body);
  const tip = async (branch = 'main') => (await api(`/projects/${target.id}/repository/branches/${encodeURIComponent(branch)}`)).body.commit as { id: string; title: string; author_name: string; author_email: string; committer_name: string };
  before(async () => {
    target = await buildProject(group.id);
  });

  it('creates the first file of an empty repository (201), then updates it (200) with the author given, and deletes it (204)', async () => {
    const created = await write('POST', 'docs/guide.md', { branch: 'main', content: '# Guide\n', commit_message: 'Add the guide' });
    expectStatus(created, 201);
    assert.deepEqual(expectShape(repositoryFileCommit, created.body), { file_path: 'docs/guide.md', branch: 'main' });
    assert.equal(Buffer.from((await read('docs/guide.md')).content, 'base64').toString(), '# Guide\n');
    const first = await tip();
    assert.equal(first.title, 'Add the guide');
    assert.equal(first.author_name, 'Administrator');
    assert.equal((await api(`/projects/${target.id}`)).body.default_branch, 'main');

    const updated = await write('PUT', 'docs/guide.md', { branch: 'main', content: '# The guide\n', commit_message: 'Rename the guide', author_name: 'Ada', author_email: 'ada@example.com', last_commit_id: first.id });
    expectStatus(updated, 200);
    assert.deepEqual(updated.body, { file_path: 'docs/guide.md', branch: 'main' });
    const second = await tip();
    assert.equal(second.author_name, 'Ada');
    assert.equal(second.author_email, 'ada@example.com');
    assert.equal(second.committer_name, 'Administrator');
    assert.equal(Buffer.from((await read('docs/guide.md')).content, 'base64').toString(), '# The guide\n');

    const script = await write('POST', 'bin/run', { branch: 'main', content: Buffer.from('#!/bin/sh\n').toString('base64'), encoding: 'base64', execute_filemode: true, commit_message: 'Add a script' });
    expectStatus(script, 201);
    const run = await read('bin/run');
    assert.equal(run.execute_filemode, true);
    assert.equal(Buffer.from(run.content, 'base64').toString(), '#!/bin/sh\n');

    const deleted = await api(at('bin/run', '?branch=main&commit_message=Drop%20the%20script'), { method: 'DELETE' });
    expectStatus(deleted, 204);
    assert.equal(deleted.text, '');
    expectStatus(await api(at('bin/run', '?ref=main')), 404);
    assert.equal((await tip()).title, 'Drop the script');
  });

  it('takes a DELETE’s fields from a JSON body too, and starts a new branch from start_branch', async () => {
    const main = (await tip()).id;
    expectStatus(await write('POST', 'feature.txt', { branch: 'feature/files', start_branch: 'main', content: 'f\n', commit_message: 'Start the feature' }), 201);
    assert.equal((await tip()).id, main, 'main stays where it was');
    const onFeature = await tip('feature/files');
    assert.equal(onFeature.title, 'Start the feature');
    expectStatus(await write('DELETE', 'feature.txt', { branch: 'feature/files', commit_message: 'Drop the feature file' }), 204);
    assert.equal((await tip('feature/files')).title, 'Drop the feature file');
  });

  it('answers the platform’s 400s and moves no branch', async () => {
    const main = (await tip()).id;
    const cases: [string, string, object, object][] = [
      ['POST', 'docs/guide.md', { branch: 'main', content: 'x', commit_message: 'm' }, { message: 'A file with this name already exists' }],
      ['PUT', 'nope.md', { branch: 'main', content: 'x', commit_message: 'm' }, { message: "A file with this name doesn't exist" }],
      ['DELETE', 'nope.md', { branch: 'main', commit_message: 'm' }, { message: "A file with this name doesn't exist" }],
      ['PUT', 'docs/guide.md', { branch: 'main', content: 'x', commit_message: 'm', last_commit_id: '0'.repeat(40) }, { message: 'You are attempting to update a file that has changed since you started editing it.' }],
      ['POST', 'x.md', { branch: 'no-such-branch', content: 'x', commit_message: 'm' }, { message: 'You can only create or edit files when you are on a branch' }],
      ['POST', 'x.md', { branch: 'feature/files', start_branch: 'main', content: 'x', commit_message: 'm' }, { message: "A branch called 'feature/files' already exists. Switch to that branch in order to make changes" }],
      ['POST', '../escape.md', { branch: 'main', content: 'x', commit_message: 'm' }, { error: 'file_path should be a valid file path' }],
      ['PUT', '.git/config', { branch: 'main', content: 'x', commit_message: 'm' }, { error: 'file_path should be a valid file path' }],
      ['POST', 'x.md', { branch: 'main', content: 'x' }, { message: 'commit_message is missing' }],
      ['POST', 'x.md', { branch: 'main', commit_message: 'm' }, { message: 'content is missing' }],
      ['DELETE', 'docs/guide.md', { commit_message: 'm' }, { message: 'branch is missing' }],
    ];
    for (const [method, p, json, body] of cases) {
      const res = await write(method, p, json);
      expectStatus(res, 400);
      assert.deepEqual(res.body, body, `${method} ${p} ${JSON.stringify(json)}`);
    }
    assert.equal((await tip()).id, main);
  });

  it('lets a Developer write other branches but not the protected default branch; a Reporter not at all', async () => {
    const developer = await userWithRole(group.id, 30);
    const denied = await write('PUT', 'docs/guide.md', { branch: 'main', content: 'dev', commit_message: 'm' }, developer.token);
    expectStatus(denied, 403);
    assert.deepEqual(denied.body, { message: '403 Forbidden - You are not allowed to push into this branch' });
    expectStatus(await write('POST', 'dev.md', { branch: 'dev', start_branch: 'main', content: 'd', commit_message: 'm' }, developer.token), 201);
    const reporter = await userWithRole(group.id, 20);
    expectStatus(await write('POST', 'rep.md', { branch: 'rep', start_branch: 'main', content: 'r', commit_message: 'm' }, reporter.token), 403);
  });
});

describe('a file written through the API is a commit through the API', () => {
  let receiver: Receiver;
  let target: { id: number };
  const at = (p: string) => `/projects/${target.id}/repository/files/${encodeURIComponent(p)}`;
  before(async () => {
    receiver = await startReceiver();
    expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
    target = await buildProject(group.id);
    expectStatus(await api(at('a.txt'), { method: 'POST', json: { branch: 'main', content: 'a\n', commit_message: 'feat: start' } }), 201);
    expectStatus(await api(`/projects/${target.id}/push_rule`, { method: 'POST', json: { commit_message_regex: '^feat: |Closes #' } }), 201);
    expectStatus(await api(`/projects/${target.id}/hooks`, { method: 'POST', json: { url: `${receiver.url}/file-writes`, push_events: true } }), 201);
  });
  after(async () => {
    await receiver.close();
  });

  it("is refused by the project's push rule with its message, and the branch stays where it was", async () => {
    const tip = (await api(`/projects/${target.id}/repository/branches/main`)).body.commit.id;
    for (const [method, p] of [['POST', 'b.txt'], ['PUT', 'a.txt'], ['DELETE', 'a.txt']]) {
      const res = await api(at(p), { method, json: { branch: 'main', content: 'b\n', commit_message: 'oops' } });
      expectStatus(res, 400);
      assert.match(res.body.message, /Commit message does not follow the pattern/, method);
    }
    assert.equal((await api(`/projects/${target.id}/repository/branches/main`)).body.commit.id, tip);
  });

  it('fires a push event with the new commit, and closes the issues its message closes', async () => {
    const issue = await api(`/projects/${target.id}/issues`, { method: 'POST', json: { title: 'Fixed by a file edit' } });
    expectStatus(issue, 201);
    const res = await api(at('a.txt'), { method: 'PUT', json: { branch: 'main', content: 'a, edited\n', commit_message: `feat: edit a\n\nCloses #${issue.body.iid}` } });
    expectStatus(res, 200);
    const sha = (await api(`/projects/${target.id}/repository/branches/main`)).body.commit.id;
    const until = Date.now() + 15_000;
    let event: Received | undefined;
    while (!event && Date.now() < until) {
      event = receiver.requests.find((r) => r.headers['x-service-event'] === 'Push Hook' && r.json?.after === sha);
      if (!event) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(event, `no push event for ${sha}`);
    assert.equal(event.json.ref, 'refs/heads/main');
    assert.deepEqual(event.json.commits[0].modified, ['a.txt']);
    assert.equal((await api(`/projects/${target.id}/issues/${issue.body.iid}`)).body.state, 'closed');
    const pushed = await api(`/projects/${target.id}/events?action=pushed`);
    assert.ok(pushed.body.some((e: { push_data: { commit_to: string } }) => e.push_data.commit_to === sha), 'a "pushed" activity record');
  });
});

describe('GET /projects/:id/repository/files/:file_path/blame', () => {
  let target: { id: number };
  const blame = (p: string, query: string, token?: string | null) => api(`/projects/${target.id}/repository/files/${encodeURIComponent(p)}/blame${query}`, { token });
  const shas: string[] = [];
  before(async () => {
    target = await buildProject(group.id);
    const at = `/projects/${target.id}/repository/files/notes.txt`;
    expectStatus(await api(at, { method: 'POST', json: { branch: 'main', content: 'one\ntwo\nthree\n', commit_message: 'Three lines' } }), 201);
    shas.push((await api(`/projects/${target.id}/repository/branches/main`)).body.commit.id);
    expectStatus(await api(at, { method: 'PUT', json: { branch: 'main', content: 'one\nTWO\nthree\nfour\n', commit_message: 'Shout two, add four', author_name: 'Ada', author_email: 'ada@example.com' } }), 200);
    shas.push((await api(`/projects/${target.id}/repository/branches/main`)).body.commit.id);
  });

  it('answers groups of consecutive lines with the commit that last changed them, from git blame', async () => {
    const res = await blame('notes.txt', '?ref=main');
    expectStatus(res, 200);
    const groups = expectShape(z.array(blameRange), res.body);
    assert.deepEqual(groups.map((g) => [g.commit.id, g.lines]), [
      [shas[0], ['one']],
      [shas[1], ['TWO']],
      [shas[0], ['three']],
      [shas[1], ['four']],
    ]);
    assert.equal(groups[1].commit.author_name, 'Ada');
    assert.equal(groups[1].commit.author_email, 'ada@example.com');
    assert.equal(groups[1].commit.message, 'Shout two, add four');
    assert.deepEqual(groups[1].commit.parent_ids, [shas[0]]);
    assert.deepEqual(Object.keys(groups[0].commit).sort(), ['author_email', 'author_name', 'authored_date', 'committed_date', 'committer_email', 'committer_name', 'id', 'message', 'parent_ids']);
    const older = expectShape(z.array(blameRange), (await blame('notes.txt', `?ref=${shas[0]}`)).body);
    assert.deepEqual(older.map((g) => [g.commit.id, g.lines]), [[shas[0], ['one', 'two', 'three']]]);
  });

  it('limits the lines to range[start]..range[end]', async () => {
    const res = await blame('notes.txt', '?ref=main&range[start]=2&range[end]=3');
    expectStatus(res, 200);
    assert.deepEqual(res.body.map((g: { commit: { id: string }; lines: string[] }) => [g.commit.id, g.lines]), [
      [shas[1], ['TWO']],
      [shas[0], ['three']],
    ]);
  });

  it('answers 404 File, 404 Commit, and 400 for a missing ref or a range backwards or past the file', async () => {
    assert.deepEqual((await blame('nope.txt', '?ref=main')).body, { message: '404 File Not Found' });
    assert.deepEqual((await blame('notes.txt', '?ref=nope')).body, { message: '404 Commit Not Found' });
    expectStatus(await blame('notes.txt', ''), 400);
    const backwards = await blame('notes.txt', '?ref=main&range[start]=3&range[end]=1');
    expectStatus(backwards, 400);
    assert.deepEqual(backwards.body, { message: 'range[start] must be less than or equal to range[end]' });
    expectStatus(await blame('notes.txt', '?ref=main&range[start]=9&range[end]=10'), 400);
    expectStatus(await blame('notes.txt', '?ref=main&range[start]=0&range[end]=1'), 400);
  });

  it('needs a Reporter of a private project; a public one’s blame is anyone’s', async () => {
    expectStatus(await blame('notes.txt', '?ref=main', (await userWithRole(group.id, 20)).token), 200);
    expectStatus(await blame('notes.txt', '?ref=main', (await userWithRole(group.id, 10)).token), 403);
    expectStatus(await blame('notes.txt', '?ref=main', null), 404);
    const anon = await api(`/projects/${public_.id}/repository/files/README.md/blame?ref=main`, { token: null });
    expectStatus(anon, 200);
    assert.deepEqual(anon.body.map((g: { lines: string[] }) => g.lines), [['# Demo']]);
  });
});
