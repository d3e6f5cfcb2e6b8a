import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { repositoryFile } from '../../../shared/src/repository-files.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { fillRepository } from '../../test/repository-fixture.ts';

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
