import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { pipelineTrigger } from '../../../shared/src/pipeline-triggers.ts';
import { job, pipeline, pipelineBasic } from '../../../shared/src/pipelines.ts';
import { commitStatus } from '../../../shared/src/commit-statuses.ts';
import { addMember, buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { expectPlatformSchema } from '../../test/platform-schemas.ts';
import { startReceiver, type Receiver } from '../../test/receiver.ts';

const run = promisify(execFile);
let server: TestServer;
let receiver: Receiver;
let work: string;
let group: { id: number };
let project: { id: number; path_with_namespace: string };
let main = '';
let first = '';
let feature = '';
let maintainer: Awaited<ReturnType<typeof userWithRole>>;
let otherMaintainer: Awaited<ReturnType<typeof userWithRole>>;
let developer: Awaited<ReturnType<typeof userWithRole>>;
let reporter: Awaited<ReturnType<typeof userWithRole>>;
let triggerToken = '';
let triggerId = 0;

/** A project whose repository has main (two commits), a branch and a tag, pushed with the real git client. */
before(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
  await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-pipelines-'));
  group = await buildGroup();
  project = await buildProject(group.id);
  maintainer = await userWithRole(group.id, 40);
  otherMaintainer = await userWithRole(group.id, 40);
  developer = await userWithRole(group.id, 30);
  reporter = await userWithRole(group.id, 20);
  const url = new URL(`${server.url}/${project.path_with_namespace}.git`);
  url.username = 'root';
  url.password = server.rootToken;
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', HOME: work, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };
  const git = async (...args: string[]) => (await run('git', args, { cwd: path.join(work, 'repo'), env })).stdout.trim();
  await run('git', ['clone', '--quiet', url.toString(), path.join(work, 'repo')], { env });
  await git('commit', '-q', '--allow-empty', '-m', 'feat: first');
  first = await git('rev-parse', 'HEAD');
  await git('tag', 'v1.0.0');
  await git('commit', '-q', '--allow-empty', '-m', 'feat: second\n\nWith a body.');
  main = await git('rev-parse', 'HEAD');
  await git('checkout', '-q', '-b', 'feature/ci');
  await git('commit', '-q', '--allow-empty', '-m', 'feat: ci');
  feature = await git('rev-parse', 'HEAD');
  await git('push', '--quiet', 'origin', 'main', 'feature/ci', 'v1.0.0');
});
after(async () => {
  await receiver.close();
  await server.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const triggers = '/projects/:id/triggers';
const at = (p: string) => p.replace(':id', String(project.id));

describe('POST /projects/:id/triggers', () => {
  it('as a Maintainer: creates a token owned by the caller, shown whole', async () => {
    const res = await api(at(triggers), { method: 'POST', token: maintainer.token, form: { description: 'deploy from CI' } });
    expectStatus(res, 201);
    const t = expectShape(pipelineTrigger, res.body);
    assert.equal(t.description, 'deploy from CI');
    assert.match(t.token, /^gtptt-[A-Za-z0-9_-]{32}$/);
    assert.equal(t.owner?.id, maintainer.user.id);
    assert.equal(t.last_used, null);
    triggerToken = t.token;
    triggerId = t.id;
  });
  it('without the role (a Developer): 403, and nothing is made', async () => {
    const res = await api(at(triggers), { method: 'POST', token: developer.token, json: { description: 'x' } });
    expectStatus(res, 403);
    assert.equal((await api(at(triggers))).body.length, 1);
  });
  it('with invalid parameters: 400 naming description', async () => {
    const res = await api(at(triggers), { method: 'POST', token: maintainer.token, json: {} });
    expectStatus(res, 400);
    assert.match(JSON.stringify(res.body), /description/);
  });
});

describe('GET /projects/:id/triggers and /triggers/:trigger_id', () => {
  it('show the whole token to its owner only; others see its first four characters', async () => {
    const mine = await api(at(triggers), { token: maintainer.token });
    expectStatus(mine, 200);
    assert.equal(expectShape(z.array(pipelineTrigger), mine.body)[0].token, triggerToken);
    assert.equal(mine.headers.get('x-total'), '1');
    const theirs = await api(at(`${triggers}/${triggerId}`), { token: otherMaintainer.token });
    expectStatus(theirs, 200);
    assert.equal(theirs.body.token, triggerToken.slice(0, 4));
    const admin = await api(at(`${triggers}/${triggerId}`));
    assert.equal(admin.body.token, triggerToken.slice(0, 4));
  });
  it('are for Maintainers: a Developer gets 403; an unknown trigger is 404', async () => {
    expectStatus(await api(at(triggers), { token: developer.token }), 403);
    const missing = await api(at(`${triggers}/987654`));
    expectStatus(missing, 404);
    assert.deepEqual(missing.body, { message: '404 Trigger Not Found' });
  });
});

describe('PUT /projects/:id/triggers/:trigger_id', () => {
  it('changes the description', async () => {
    const res = await api(at(`${triggers}/${triggerId}`), { method: 'PUT', token: maintainer.token, json: { description: 'nightly' } });
    expectStatus(res, 200);
    assert.equal(res.body.description, 'nightly');
    assert.equal(res.body.token, triggerToken);
    assert.equal((await api(at(`${triggers}/${triggerId}`))).body.description, 'nightly');
  });
});

const trigger = (opts: Parameters<typeof api>[1], query = '') => api(at(`/projects/:id/trigger/pipeline${query}`), { method: 'POST', token: null, ...opts });

describe('POST /projects/:id/trigger/pipeline', () => {
  it('with the token as a form field, variables[NAME] fields: a pipeline of source trigger on the branch’s commit, in the platform’s shape', async () => {
    const res = await trigger({ form: { token: triggerToken, ref: 'main', 'variables[DEPLOY_ENV]': 'staging', 'variables[DRY_RUN]': '1' } });
    expectStatus(res, 201);
    const p = expectShape(pipeline, res.body);
    expectPlatformSchema('public_api/v4/pipeline/detail.json', res.body);
    assert.equal(p.source, 'trigger');
    assert.equal(p.sha, main);
    assert.equal(p.before_sha, first);
    assert.equal(p.ref, 'main');
    assert.equal(p.tag, false);
    assert.equal(p.status, 'created');
    assert.equal(p.user?.id, maintainer.user.id);
    assert.equal(p.web_url, `${server.url}/${project.path_with_namespace}/-/pipelines/${p.id}`);
    assert.deepEqual(
      { icon: p.detailed_status.icon, group: p.detailed_status.group, details_path: p.detailed_status.details_path },
      { icon: 'status_created', group: 'created', details_path: `/${project.path_with_namespace}/-/pipelines/${p.id}` },
    );
    assert.equal(p.iid, 1);
    const vars = await api(at(`/projects/:id/pipelines/${p.id}/variables`), { token: developer.token });
    expectStatus(vars, 200);
    assert.deepEqual(vars.body, [
      { key: 'DEPLOY_ENV', value: 'staging', variable_type: 'env_var', raw: false },
      { key: 'DRY_RUN', value: '1', variable_type: 'env_var', raw: false },
    ]);
    const t = await api(at(`${triggers}/${triggerId}`));
    assert.ok(t.body.last_used, 'last_used is kept');
  });
  it('with the token in the query and JSON variables and inputs; a tag ref', async () => {
    const res = await trigger({ json: { ref: 'v1.0.0', variables: { A: 'b' }, inputs: { environment: 'prod', replicas: 3 } } }, `?token=${triggerToken}`);
    expectStatus(res, 201);
    assert.equal(res.body.sha, first);
    assert.equal(res.body.tag, true);
    const row = await server.running.db.selectFrom('pipelines').select(['inputs', 'variables']).where('id', '=', res.body.id).executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(row.inputs), { environment: 'prod', replicas: 3 });
    assert.deepEqual(JSON.parse(row.variables), [{ key: 'A', value: 'b' }]);
  });
  it('with the token as a JSON value, by the project’s path', async () => {
    const res = await api(`/projects/${encodeURIComponent(project.path_with_namespace)}/trigger/pipeline`, { method: 'POST', token: null, json: { token: triggerToken, ref: 'main' } });
    expectStatus(res, 201);
    assert.equal(res.body.sha, main);
  });
  it('with multipart form fields, as SDKs send it', async () => {
    const form = new FormData();
    form.set('token', triggerToken);
    form.set('ref', 'main');
    form.set('variables[FROM]', 'multipart');
    const res = await trigger({ multipart: form });
    expectStatus(res, 201);
    const vars = await api(at(`/projects/:id/pipelines/${res.body.id}/variables`));
    assert.deepEqual(vars.body.map((v: { key: string; value: string }) => [v.key, v.value]), [['FROM', 'multipart']]);
  });
  it('a ref that does not exist: 400 Reference not found, no pipeline made', async () => {
    const before = (await api(at('/projects/:id/pipelines'))).headers.get('x-total');
    const res = await trigger({ json: { token: triggerToken, ref: 'no-such-branch' } });
    expectStatus(res, 400);
    assert.deepEqual(res.body, { message: { base: ['Reference not found'] } });
    assert.equal((await api(at('/projects/:id/pipelines'))).headers.get('x-total'), before);
  });
  it('an unknown token, or another project’s: 404; a missing one: 400', async () => {
    expectStatus(await trigger({ json: { token: 'gtptt-not-a-real-token', ref: 'main' } }), 404);
    const other = await buildProject(group.id);
    expectStatus(await api(`/projects/${other.id}/trigger/pipeline`, { method: 'POST', token: null, json: { token: triggerToken, ref: 'main' } }), 404);
    const missing = await trigger({ json: { ref: 'main' } });
    expectStatus(missing, 400);
    assert.match(JSON.stringify(missing.body), /token/);
  });
  it('a CI job token: a clear 400 saying job tokens are not supported', async () => {
    const res = await trigger({ form: { token: 'glcbt-64_abcdefabcdefabcdef', ref: 'main' } });
    expectStatus(res, 400);
    assert.match(res.body.message, /job tokens are not supported/);
  });
  it('a token whose owner lost the role: 400 Insufficient permissions', async () => {
    const leaver = await userWithRole(group.id, 40);
    const made = await api(at(triggers), { method: 'POST', token: leaver.token, json: { description: 'leaver' } });
    await api(`/groups/${group.id}/members/${leaver.user.id}`, { method: 'DELETE' });
    const res = await trigger({ json: { token: made.body.token, ref: 'main' } });
    expectStatus(res, 400);
    assert.deepEqual(res.body, { message: { base: ['Insufficient permissions to create a new pipeline'] } });
  });
});

const status = (sha: string, body: Record<string, unknown>, token = developer.token) => api(at(`/projects/:id/statuses/${sha}`), { method: 'POST', token, json: body });
const getPipeline = async (id: number) => expectShape(pipeline, (await api(at(`/projects/:id/pipelines/${id}`))).body);

describe('POST /projects/:id/statuses/:sha', () => {
  it('moves a new external pipeline through pending, running and success, composing its status from its jobs', async () => {
    const pending = await status(feature, { state: 'pending', name: 'build', ref: 'feature/ci', target_url: 'https://ci.example.com/1', description: 'queued' });
    expectStatus(pending, 201);
    const s = expectShape(commitStatus, pending.body);
    assert.deepEqual({ status: s.status, name: s.name, ref: s.ref, sha: s.sha, target_url: s.target_url, author: s.author?.id }, { status: 'pending', name: 'build', ref: 'feature/ci', sha: feature, target_url: 'https://ci.example.com/1', author: developer.user.id });
    const pid = s.pipeline_id;
    let p = await getPipeline(pid);
    assert.deepEqual({ status: p.status, source: p.source, ref: p.ref }, { status: 'pending', source: 'external', ref: 'feature/ci' });

    expectStatus(await status(feature, { state: 'running', name: 'build', ref: 'feature/ci' }), 201);
    expectStatus(await status(feature, { state: 'pending', name: 'test', ref: 'feature/ci' }), 201);
    p = await getPipeline(pid);
    assert.equal(p.status, 'running');
    assert.ok(p.started_at);

    const again = await status(feature, { state: 'running', name: 'build', ref: 'feature/ci' });
    expectStatus(again, 400);
    assert.equal(again.body.message, 'Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")');

    expectStatus(await status(feature, { state: 'success', name: 'build', ref: 'feature/ci', coverage: 80 }), 201);
    expectStatus(await status(feature, { state: 'success', name: 'test', ref: 'feature/ci', coverage: 60 }), 201);
    p = await getPipeline(pid);
    assert.equal(p.status, 'success');
    assert.equal(p.detailed_status.text, 'Passed');
    assert.ok(p.finished_at);
    assert.equal(typeof p.duration, 'number');
    assert.equal(p.coverage, '70.00');

    // A job reported again after it finished is a new job; the pipeline follows it.
    expectStatus(await status(feature, { state: 'failed', name: 'test', ref: 'feature/ci' }), 201);
    p = await getPipeline(pid);
    assert.equal(p.status, 'failed');
    const statuses = await api(at(`/projects/:id/repository/commits/${feature}/statuses`));
    expectStatus(statuses, 200);
    assert.deepEqual(expectShape(z.array(commitStatus), statuses.body).map((x) => [x.name, x.status]), [['build', 'success'], ['test', 'failed']]);
    const all = await api(at(`/projects/:id/repository/commits/${feature}/statuses?all=true`));
    assert.equal(all.body.length, 3);
  });
  it('joins the pipeline named by pipeline_id (a triggered one), which then runs and finishes', async () => {
    const triggered = await trigger({ json: { token: triggerToken, ref: 'main' } });
    const id = triggered.body.id;
    expectStatus(await status(main, { state: 'running', name: 'deploy', ref: 'main', pipeline_id: id }), 201);
    assert.equal((await getPipeline(id)).status, 'running');
    expectStatus(await status(main, { state: 'canceled', name: 'deploy', ref: 'main', pipeline_id: id }), 201);
    assert.equal((await getPipeline(id)).status, 'canceled');
  });
  it('without a ref: the default branch when it holds the commit; the context name; defaults to "default"', async () => {
    const res = await status(first, { state: 'skipped' });
    expectStatus(res, 201);
    assert.deepEqual([res.body.ref, res.body.name], ['main', 'default']);
    assert.equal((await getPipeline(res.body.pipeline_id)).status, 'skipped');
  });
  it('an unknown commit is 404 Commit Not Found; a Reporter may not report (403); a bad state is 400', async () => {
    const missing = await status('0123456789abcdef0123456789abcdef01234567', { state: 'success' });
    expectStatus(missing, 404);
    assert.deepEqual(missing.body, { message: '404 Commit Not Found' });
    expectStatus(await status(main, { state: 'success' }, reporter.token), 403);
    expectStatus(await status(main, { state: 'exploded' }), 400);
    expectStatus(await status(main, { state: 'success', target_url: 'javascript:alert(1)' }), 400);
  });
});

describe('GET /projects/:id/pipelines', () => {
  it('lists newest first with pagination, and filters by status, ref, sha, source, username, updated dates and order', async () => {
    const list = await api(at('/projects/:id/pipelines'));
    expectStatus(list, 200);
    const items = expectShape(z.array(pipelineBasic), list.body);
    for (const item of list.body) expectPlatformSchema('public_api/v4/pipeline/basic.json', item);
    assert.deepEqual(items.map((p) => p.id), [...items.map((p) => p.id)].sort((a, b) => b - a));
    const ids = async (q: string) => ((await api(at(`/projects/:id/pipelines${q}`))).body as { id: number }[]).map((p) => p.id);
    const bySource = await ids('?source=external');
    assert.ok(bySource.length >= 2);
    for (const p of items) {
      assert.equal(bySource.includes(p.id), p.source === 'external');
    }
    assert.deepEqual(await ids('?status=failed'), items.filter((p) => p.status === 'failed').map((p) => p.id));
    assert.deepEqual(await ids('?ref=feature/ci'), items.filter((p) => p.ref === 'feature/ci').map((p) => p.id));
    assert.deepEqual(await ids(`?sha=${first}`), items.filter((p) => p.sha === first).map((p) => p.id));
    assert.deepEqual(await ids(`?username=${developer.user.username}`), items.filter((p) => p.user?.id === developer.user.id).map((p) => p.id));
    assert.deepEqual(await ids('?order_by=id&sort=asc'), items.map((p) => p.id).reverse());
    assert.deepEqual(await ids(`?updated_after=${encodeURIComponent('2999-01-01T00:00:00Z')}`), []);
    assert.equal((await ids(`?updated_before=${encodeURIComponent('2999-01-01T00:00:00Z')}`)).length, items.length);
    const paged = await api(at('/projects/:id/pipelines?per_page=2&page=2'));
    assert.deepEqual(paged.body.map((p: { id: number }) => p.id), items.slice(2, 4).map((p) => p.id));
    expectStatus(await api(at('/projects/:id/pipelines?status=exploded')), 400);
  });
  it('is for Reporters of a private project; a Guest gets 403, a stranger 404', async () => {
    expectStatus(await api(at('/projects/:id/pipelines'), { token: reporter.token }), 200);
    const guest = await userWithRole(group.id, 10);
    expectStatus(await api(at('/projects/:id/pipelines'), { token: guest.token }), 403);
    const stranger = await userWithRole(group.id, 0);
    expectStatus(await api(at('/projects/:id/pipelines'), { token: stranger.token }), 404);
  });
});

describe('GET /projects/:id/pipelines/:pipeline_id/jobs', () => {
  it('lists the latest jobs with their CI’s links; include_retried adds the replaced ones; scope filters by state', async () => {
    const res = await status(feature, { state: 'success', name: 'lint', ref: 'feature/ci', target_url: 'https://ci.example.com/lint' });
    const pid = res.body.pipeline_id;
    const jobs = await api(at(`/projects/:id/pipelines/${pid}/jobs`));
    expectStatus(jobs, 200);
    const list = expectShape(z.array(job), jobs.body);
    assert.deepEqual(list.map((j) => [j.name, j.status]), [['lint', 'success'], ['test', 'failed'], ['build', 'success']]);
    assert.equal(list[0].target_url, 'https://ci.example.com/lint');
    assert.equal(list[0].stage, 'external');
    assert.equal(list[0].pipeline.id, pid);
    assert.equal((await api(at(`/projects/:id/pipelines/${pid}/jobs?include_retried=true`))).body.length, 4);
    assert.deepEqual((await api(at(`/projects/:id/pipelines/${pid}/jobs?scope[]=failed`))).body.map((j: { name: string }) => j.name), ['test']);
  });
});

describe('POST /projects/:id/pipelines/:pipeline_id/cancel and /retry', () => {
  it('cancel stops the jobs still going; retry puts failed and canceled jobs back to pending (Developer)', async () => {
    const one = await status(main, { state: 'running', name: 'e2e', ref: 'main' });
    const two = await status(main, { state: 'failed', name: 'unit', ref: 'main' });
    const pid = one.body.pipeline_id;
    assert.equal(two.body.pipeline_id, pid);
    expectStatus(await api(at(`/projects/:id/pipelines/${pid}/cancel`), { method: 'POST', token: reporter.token }), 403);
    const canceled = await api(at(`/projects/:id/pipelines/${pid}/cancel`), { method: 'POST', token: developer.token });
    expectStatus(canceled, 201);
    expectPlatformSchema('public_api/v4/pipeline/detail.json', canceled.body);
    assert.equal(canceled.body.status, 'failed');
    const states = async () => Object.fromEntries(((await api(at(`/projects/:id/pipelines/${pid}/jobs`))).body as { name: string; status: string }[]).map((j) => [j.name, j.status]));
    assert.deepEqual(await states(), { e2e: 'canceled', unit: 'failed', deploy: 'canceled' });
    const retried = await api(at(`/projects/:id/pipelines/${pid}/retry`), { method: 'POST', token: developer.token });
    expectStatus(retried, 201);
    assert.equal(retried.body.status, 'pending');
    assert.equal(retried.body.finished_at, null);
    assert.deepEqual(await states(), { e2e: 'pending', unit: 'pending', deploy: 'pending' });
  });
  it('cancel of a triggered pipeline no CI has reported on yet cancels the pipeline itself', async () => {
    const made = await trigger({ json: { token: triggerToken, ref: 'main' } });
    const res = await api(at(`/projects/:id/pipelines/${made.body.id}/cancel`), { method: 'POST' });
    expectStatus(res, 201);
    assert.equal(res.body.status, 'canceled');
  });
});

describe('DELETE /projects/:id/pipelines/:pipeline_id', () => {
  it('is for Owners: a Maintainer gets 403; the Owner deletes it with its jobs', async () => {
    const made = await trigger({ json: { token: triggerToken, ref: 'main' } });
    expectStatus(await api(at(`/projects/:id/pipelines/${made.body.id}`), { method: 'DELETE', token: maintainer.token }), 403);
    expectStatus(await api(at(`/projects/:id/pipelines/${made.body.id}`), { method: 'DELETE' }), 204);
    const gone = await api(at(`/projects/:id/pipelines/${made.body.id}`));
    expectStatus(gone, 404);
    assert.deepEqual(gone.body, { message: '404 Pipeline Not Found' });
  });
});

describe('pipeline and job events', () => {
  it('a hook on 127.0.0.1 receives the platform’s Pipeline Hook and Job Hook payloads as statuses move the pipeline', async () => {
    const hook = await api(at('/projects/:id/hooks'), { method: 'POST', json: { url: `${receiver.url}/ci`, push_events: false, pipeline_events: true, job_events: true } });
    expectStatus(hook, 201);
    const made = await trigger({ json: { token: triggerToken, ref: 'main' } });
    const id = made.body.id;
    await status(main, { state: 'running', name: 'hooked', ref: 'main', pipeline_id: id });
    await status(main, { state: 'success', name: 'hooked', ref: 'main', pipeline_id: id });
    const deliveries = await receiver.waitFor(5, 20_000);
    const pipelineEvents = deliveries.filter((d) => d.headers['x-service-event'] === 'Pipeline Hook' && d.json.object_attributes.id === id);
    assert.deepEqual(pipelineEvents.map((d) => d.json.object_attributes.status).sort(), ['created', 'running', 'success'].sort());
    const done = pipelineEvents.find((d) => d.json.object_attributes.status === 'success')!.json;
    assert.equal(done.object_kind, 'pipeline');
    assert.equal(done.object_attributes.source, 'trigger');
    assert.equal(done.object_attributes.sha, main);
    assert.deepEqual(done.object_attributes.stages, ['external']);
    assert.equal(done.project.id, project.id);
    assert.equal(done.commit.id, main);
    assert.equal(done.commit.title, 'feat: second');
    assert.equal(done.user.id, maintainer.user.id);
    assert.deepEqual(done.builds.map((b: { name: string; status: string }) => [b.name, b.status]), [['hooked', 'success']]);
    const jobEvents = deliveries.filter((d) => d.headers['x-service-event'] === 'Job Hook' && d.json.pipeline_id === id);
    assert.deepEqual(jobEvents.map((d) => d.json.build_status).sort(), ['running', 'success']);
    const jobDone = jobEvents.find((d) => d.json.build_status === 'success')!.json;
    assert.equal(jobDone.object_kind, 'build');
    assert.equal(jobDone.build_name, 'hooked');
    assert.equal(jobDone.sha, main);
    assert.equal(jobDone.user.id, developer.user.id);
  });
});

describe('roles', () => {
  it('a Developer reports statuses through a project membership as well', async () => {
    const direct = await userWithRole(group.id, 0);
    await addMember('projects', project.id, direct.user.id, 30);
    expectStatus(await status(main, { state: 'success', name: 'direct', ref: 'main' }, direct.token), 201);
  });
});
