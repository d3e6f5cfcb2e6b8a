import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { branch } from '../../../shared/src/branches.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';

const run = promisify(execFile);
let server: TestServer;
let work: string;
let project: { id: number; path_with_namespace: string };
let group: { id: number };
let main = '';
let feature = '';

/** A repository with main (two commits) and feature/login (one more, with a trailer), pushed with the real git client. */
before(async () => {
  server = await startTestServer();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-branches-'));
  group = await buildGroup();
  project = await buildProject(group.id);
  const url = new URL(`${server.url}/${project.path_with_namespace}.git`);
  url.username = 'root';
  url.password = server.rootToken;
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', HOME: work, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Bob', GIT_COMMITTER_EMAIL: 'bob@example.com' };
  const git = async (...args: string[]) => (await run('git', args, { cwd: path.join(work, 'repo'), env })).stdout.trim();
  await run('git', ['clone', '--quiet', url.toString(), path.join(work, 'repo')], { env });
  await git('commit', '-q', '--allow-empty', '-m', 'feat: first');
  await git('commit', '-q', '--allow-empty', '-m', 'docs: second\n\nA longer body.');
  main = await git('rev-parse', 'HEAD');
  await git('checkout', '-q', '-b', 'feature/login');
  await git('commit', '-q', '--allow-empty', '-m', 'feat: login\n\nSigned-off-by: Ada <ada@example.com>');
  feature = await git('rev-parse', 'HEAD');
  await git('push', '--quiet', 'origin', 'main', 'feature/login');
});
after(async () => {
  await server.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const branches = (query = '', token?: string) => api(`/projects/${project.id}/repository/branches${query}`, { token });

describe('GET /projects/:id/repository/branches', () => {
  it('lists the branches with their commits, the default one protected, with pagination headers', async () => {
    const res = await branches();
    expectStatus(res, 200);
    const list = expectShape(z.array(branch), res.body);
    assert.deepEqual(list.map((b) => b.name), ['feature/login', 'main']);
    const [login, mainBranch] = list;
    assert.equal(mainBranch.default, true);
    assert.equal(mainBranch.protected, true);
    assert.equal(mainBranch.developers_can_push, false);
    assert.equal(mainBranch.commit.id, main);
    assert.equal(mainBranch.commit.title, 'docs: second');
    assert.equal(mainBranch.commit.message.trim(), 'docs: second\n\nA longer body.');
    assert.equal(mainBranch.commit.author_name, 'Ada');
    assert.equal(mainBranch.commit.committer_email, 'bob@example.com');
    assert.equal(mainBranch.web_url, `${server.url}/${project.path_with_namespace}/-/tree/main`);
    assert.equal(login.commit.id, feature);
    assert.deepEqual(login.commit.parent_ids, [main]);
    assert.equal(login.commit.short_id, feature.slice(0, 8));
    assert.deepEqual(login.commit.trailers, { 'Signed-off-by': 'Ada <ada@example.com>' });
    assert.equal(login.default, false);
    assert.equal(login.merged, false);
    assert.equal(res.headers.get('x-total'), '2');
    const paged = await branches('?per_page=1&page=2');
    assert.deepEqual(paged.body.map((b: { name: string }) => b.name), ['main']);
    assert.equal(paged.headers.get('x-page'), '2');
  });

  it('filters by search (^ and $ anchor it) and by RE2 regex; a pattern RE2 refuses is a 400', async () => {
    const names = async (q: string) => (await branches(q)).body.map((b: { name: string }) => b.name);
    assert.deepEqual(await names('?search=LOG'), ['feature/login']);
    assert.deepEqual(await names('?search=^main'), ['main']);
    assert.deepEqual(await names('?search=login$'), ['feature/login']);
    assert.deepEqual(await names('?search=^ain'), []);
    assert.deepEqual(await names(`?regex=${encodeURIComponent('^feature/')}`), ['feature/login']);
    const bad = await branches(`?regex=${encodeURIComponent('(a')}`);
    expectStatus(bad, 400);
    assert.ok(bad.body.message.regex, JSON.stringify(bad.body));
  });

  it('needs a Reporter of a private project; a Guest is refused and an outsider told it does not exist', async () => {
    expectStatus(await branches('', (await userWithRole(group.id, 20)).token), 200);
    expectStatus(await branches('', (await userWithRole(group.id, 10)).token), 403);
    expectStatus(await branches('', (await userWithRole(group.id, 0)).token), 404);
  });
});

describe('GET /projects/:id/repository/branches/:branch', () => {
  it('gets a branch by its name, slashes encoded; 404 for one that does not exist', async () => {
    const res = await branches('/feature%2Flogin');
    expectStatus(res, 200);
    assert.equal(expectShape(branch, res.body).commit.id, feature);
    for (const name of ['nope', 'feature', 'a..b', '-x', 'main~1']) {
      const missing = await branches(`/${encodeURIComponent(name)}`);
      expectStatus(missing, 404);
      assert.deepEqual(missing.body, { message: '404 Branch Not Found' });
    }
  });
});

describe('POST and DELETE /projects/:id/repository/branches', () => {
  it('creates a branch at a branch, a SHA or a tag-like ref, and deletes it (Developer)', async () => {
    const developer = await userWithRole(group.id, 30);
    const created = await api(`/projects/${project.id}/repository/branches`, { method: 'POST', token: developer.token, json: { branch: 'release/1.0', ref: 'main' } });
    expectStatus(created, 201);
    assert.equal(expectShape(branch, created.body).commit.id, main);
    assert.equal(created.body.merged, true, 'a branch at the default branch is merged into it');
    const fromSha = await api(`/projects/${project.id}/repository/branches?branch=hotfix&ref=${feature}`, { method: 'POST', token: developer.token });
    expectStatus(fromSha, 201);
    assert.equal(fromSha.body.commit.id, feature);
    expectStatus(await api(`/projects/${project.id}/repository/branches/release%2F1.0`, { method: 'DELETE', token: developer.token }), 204);
    expectStatus(await branches('/release%2F1.0'), 404);
  });

  it('answers the platform’s 400s: a taken name, an unknown ref, an invalid name; and changes nothing', async () => {
    const post = (json: object) => api(`/projects/${project.id}/repository/branches`, { method: 'POST', json });
    const taken = await post({ branch: 'main', ref: 'feature/login' });
    expectStatus(taken, 400);
    assert.deepEqual(taken.body, { message: 'Branch already exists' });
    const unknown = await post({ branch: 'new', ref: 'no-such-ref' });
    expectStatus(unknown, 400);
    assert.deepEqual(unknown.body, { message: 'Invalid reference name: no-such-ref' });
    const invalid = await post({ branch: 'bad..name', ref: 'main' });
    expectStatus(invalid, 400);
    assert.deepEqual(invalid.body, { message: 'Branch name is invalid' });
    expectStatus(await post({ ref: 'main' }), 400);
    assert.equal((await branches('/main')).body.commit.id, main);
    assert.deepEqual((await branches()).body.map((b: { name: string }) => b.name).sort(), ['feature/login', 'hotfix', 'main']);
  });

  it('refuses a Reporter (403) and the default branch’s deletion (400)', async () => {
    const reporter = await userWithRole(group.id, 20);
    expectStatus(await api(`/projects/${project.id}/repository/branches`, { method: 'POST', token: reporter.token, json: { branch: 'x', ref: 'main' } }), 403);
    expectStatus(await api(`/projects/${project.id}/repository/branches/hotfix`, { method: 'DELETE', token: reporter.token }), 403);
    const def = await api(`/projects/${project.id}/repository/branches/main`, { method: 'DELETE' });
    expectStatus(def, 400);
    assert.equal((await branches('/main')).body.commit.id, main);
  });
});
