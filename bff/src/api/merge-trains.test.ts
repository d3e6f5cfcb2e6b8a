import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { mergeTrain } from '../../../shared/src/merge-trains.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { commitTo, eventually, firstParentSubjects, openMergeRequest } from '../../test/merge-fixtures.ts';
import { cloneAs, type GitClient } from '../../test/git-client.ts';
import { execFileSync } from 'node:child_process';
import pino from 'pino';
import { runTrain } from '../services/merging/trains/run.ts';
import { acquireLock, releaseLock } from '../services/merging/trains/lock.ts';
import { repositoryPath } from '../services/git/repositories.ts';

let server: TestServer;
let project: { id: number; path_with_namespace: string };
let developer: Awaited<ReturnType<typeof userWithRole>>;
let reporter: Awaited<ReturnType<typeof userWithRole>>;
let maintainer: Awaited<ReturnType<typeof userWithRole>>;

const trains = () => `/projects/${project.id}/merge_trains`;
const carPath = (iid: number) => `${trains()}/merge_requests/${iid}`;
type Car = z.infer<typeof mergeTrain>;

const car = async (iid: number): Promise<Car> => expectShape(mergeTrain, (await api(carPath(iid))).body);
/** Waits until the car has a pipeline other than `not` (its train ref was (re)built). */
const pipelineOf = (iid: number, not?: number) =>
  eventually(async () => {
    const c = await car(iid);
    return c.status === 'fresh' && c.pipeline && c.pipeline.id !== not ? c.pipeline : undefined;
  }, `a train pipeline for !${iid}`);
const report = (sha: string, ref: string, state: string, token?: string) => api(`/projects/${project.id}/statuses/${sha}`, { method: 'POST', token, json: { state, ref, name: 'train-ci' } });
const setTrains = (json: object) => api(`/api/console/projects/${project.id}/merge_settings`, { method: 'PUT', json });

before(async () => {
  server = await startTestServer();
  const group = await buildGroup();
  project = await buildProject(group.id);
  developer = await userWithRole(group.id, 30);
  reporter = await userWithRole(group.id, 20);
  maintainer = await userWithRole(group.id, 40);
  await commitTo(project.id, 'main', { 'README.md': '# Trains\n' }, { message: 'Initial commit' });
});
after(async () => server.close());

describe('merge trains while not enabled', () => {
  it('answers 403 for the list and for adding', async () => {
    await commitTo(project.id, 'off', { 'off.txt': 'off\n' });
    const mr = await openMergeRequest(project.id, 'off', 'Off');
    const list = await api(trains());
    expectStatus(list, 403);
    expectStatus(await api(carPath(mr.iid), { method: 'POST', json: {} }), 403);
  });
});

describe('POST /projects/:id/merge_trains/merge_requests/:merge_request_iid', () => {
  before(async () => {
    expectStatus(await setTrains({ merge_trains_enabled: true }), 200);
  });

  it('three cars, statuses in different orders: main ends with exactly the cars that passed, in train order', async () => {
    const names = ['alpha', 'bravo', 'charlie'];
    const mrs: { iid: number; sha: string }[] = [];
    for (const n of names) {
      await commitTo(project.id, n, { [`${n}.txt`]: `${n}\n` }, { message: `Add ${n}` });
      mrs.push(await openMergeRequest(project.id, n, `Feature ${n}`));
    }
    for (const mr of mrs) {
      const res = await api(carPath(mr.iid), { method: 'POST', token: maintainer.token, json: { sha: mr.sha } });
      expectStatus(res, 201);
      const c = expectShape(mergeTrain, res.body);
      assert.equal(c.merge_request.iid, mr.iid);
      assert.equal(c.user?.id, maintainer.user.id);
      assert.equal(c.target_branch, 'main');
    }
    const [a, b, c] = await Promise.all(mrs.map((mr) => pipelineOf(mr.iid)));
    assert.deepEqual([a.ref, b.ref, c.ref], mrs.map((mr) => `refs/merge-requests/${mr.iid}/train`));
    // Each train ref holds the cars ahead: charlie's holds alpha's and bravo's files too.
    for (const file of ['alpha.txt', 'bravo.txt', 'charlie.txt']) expectStatus(await api(`/projects/${project.id}/repository/files/${file}?ref=${c.sha}`), 200);
    assert.deepEqual((await Promise.all(mrs.map((mr) => car(mr.iid)))).map((x) => x.position), [1, 2, 3]);

    // Charlie passes first: it waits behind the others, it is not merged early.
    expectStatus(await report(c.sha, c.ref, 'success'), 201);
    // Bravo fails while alpha runs: not dropped yet, alpha may be the cause.
    expectStatus(await report(b.sha, b.ref, 'failed'), 201);
    const waiting = await car(mrs[2].iid);
    assert.equal(waiting.status, 'fresh');
    assert.equal((await car(mrs[1].iid)).dropped_reason, null);

    // Alpha passes: it merges, bravo (now at the head, failed) is dropped, charlie is rebuilt without bravo.
    expectStatus(await report(a.sha, a.ref, 'success'), 201);
    const merged = await eventually(async () => ((await car(mrs[0].iid)).status === 'merged' ? car(mrs[0].iid) : undefined), 'alpha merged');
    assert.ok(merged.merged_at);
    assert.equal(typeof merged.duration, 'number');
    const dropped = await eventually(async () => ((await car(mrs[1].iid)).dropped_reason ? car(mrs[1].iid) : undefined), 'bravo dropped');
    assert.match(dropped.dropped_reason!, /pipeline/);
    const c2 = await pipelineOf(mrs[2].iid, c.id);
    expectStatus(await api(`/projects/${project.id}/repository/files/bravo.txt?ref=${c2.sha}`), 404);
    assert.equal((await car(mrs[2].iid)).position, 1);
    expectStatus(await report(c2.sha, c2.ref, 'success'), 201);
    await eventually(async () => (await car(mrs[2].iid)).status === 'merged', 'charlie merged');

    const log = await firstParentSubjects(project.id, 'main');
    assert.deepEqual(
      log.slice(0, 3).map((x) => x.title),
      ["Merge branch 'charlie' into 'main'", "Merge branch 'alpha' into 'main'", 'Initial commit'],
    );
    assert.equal(log[0].parent_ids.length, 2);
    expectStatus(await api(`/projects/${project.id}/repository/files/bravo.txt?ref=main`), 404);
    const mr = await api(`/projects/${project.id}/merge_requests/${mrs[0].iid}`);
    assert.equal(mr.body.state, 'merged');
    assert.equal(mr.body.merge_commit_sha, log[1].id);
    const notes = await api(`/projects/${project.id}/merge_requests/${mrs[1].iid}/notes`);
    assert.ok(notes.body.some((n: { body: string; system: boolean }) => n.system && /merge train/.test(n.body)));
    assert.equal((await api(`/projects/${project.id}/merge_requests/${mrs[1].iid}`)).body.state, 'opened');
  });

  it('answers 400 when sha is not the source head, 409 for a car already on the train, 404 for an unknown merge request', async () => {
    await commitTo(project.id, 'delta', { 'delta.txt': 'delta\n' });
    const mr = await openMergeRequest(project.id, 'delta', 'Delta');
    const stale = await api(carPath(mr.iid), { method: 'POST', json: { sha: '0'.repeat(40) } });
    expectStatus(stale, 400);
    expectStatus(await api(carPath(mr.iid), { method: 'POST', json: {} }), 201);
    expectStatus(await api(carPath(mr.iid), { method: 'POST', json: {} }), 409);
    expectStatus(await api(carPath(99999), { method: 'POST', json: {} }), 404);
  });

  describe('a push to a car’s source branch (issue 23: a Developer’s unreviewed commits through the train)', () => {
    let dev: GitClient;
    before(async () => {
      dev = await cloneAs(server.url, project.path_with_namespace, developer.user, developer.token);
      // An empty train: cars left by the tests above would hold these behind them.
      for (const c of expectShape(z.array(mergeTrain), (await api(`${trains()}?scope=active&per_page=100`)).body)) expectStatus(await api(carPath(c.merge_request.iid), { method: 'DELETE' }), 204);
    });
    after(() => dev.remove());

    const systemNotes = async (iid: number) =>
      ((await api(`/projects/${project.id}/merge_requests/${iid}/notes?per_page=100`)).body as { body: string; system: boolean; author: { username: string } }[]).filter((n) => n.system);
    const fileOnMain = async (file: string) => (await api(`/projects/${project.id}/repository/files/${file}?ref=main`)).status;
    /** The Developer reports every pipeline there is of the car's train ref and of the branch's new head as passed, as an attacker would. */
    async function reportAllGreen(iid: number, branch: string, head: string) {
      const pipelines = [
        ...(await api(`/projects/${project.id}/pipelines?ref=${encodeURIComponent(`refs/merge-requests/${iid}/train`)}`, { token: developer.token })).body,
        ...(await api(`/projects/${project.id}/pipelines?ref=${branch}`, { token: developer.token })).body,
      ] as { sha: string; ref: string }[];
      for (const p of pipelines) expectStatus(await report(p.sha, p.ref, 'success', developer.token), 201);
      // A status of the new head on the train ref itself: the platform lets a Developer report on any ref.
      expectStatus(await report(head, `refs/merge-requests/${iid}/train`, 'success', developer.token), 201);
    }
    /** Another car added and built after everything above: the train has run since. */
    async function trainHasRun(name: string) {
      const mr = await openOnTrain(name);
      await pipelineOf(mr.iid);
      expectStatus(await api(carPath(mr.iid), { method: 'DELETE' }), 204);
    }

    it('takes the car off the train (“the source branch was updated”, noted by the pusher); nothing the Developer pushed or reported merges it', async () => {
      const first = await dev.pushCommit('kilo', { 'kilo.txt': 'kilo\n' });
      assert.ok(first.ok, first.out);
      const mr = await openMergeRequest(project.id, 'kilo', 'Kilo', developer.token);
      expectStatus(await api(carPath(mr.iid), { method: 'POST', token: developer.token, json: {} }), 401);
      expectStatus(await api(carPath(mr.iid), { method: 'POST', token: maintainer.token, json: { sha: first.sha } }), 201);
      const approved = await pipelineOf(mr.iid);

      const unreviewed = await dev.pushCommit('kilo', { 'unreviewed.txt': 'nobody reviewed this\n' });
      assert.ok(unreviewed.ok, unreviewed.out);
      const off = await eventually(async () => {
        const c = await car(mr.iid);
        return c.dropped_reason || c.pipeline?.id !== approved.id ? c : undefined;
      }, 'the car to answer the push');
      await reportAllGreen(mr.iid, 'kilo', unreviewed.sha);
      await trainHasRun('kilo-after');

      assert.equal(await fileOnMain('unreviewed.txt'), 404);
      assert.equal(await fileOnMain('kilo.txt'), 404);
      assert.equal(off.dropped_reason, 'the source branch was updated');
      const now = await car(mr.iid);
      assert.deepEqual([now.status, now.position, now.dropped_reason], ['idle', null, 'the source branch was updated']);
      const active = expectShape(z.array(mergeTrain), (await api(`${trains()}?scope=active`)).body);
      assert.ok(!active.some((x) => x.merge_request.iid === mr.iid));
      const shown = (await api(`/projects/${project.id}/merge_requests/${mr.iid}`)).body;
      assert.deepEqual([shown.state, shown.merge_when_pipeline_succeeds, shown.merge_user], ['opened', false, null]);
      const note = (await systemNotes(mr.iid)).find((n) => n.body === 'removed this merge request from the merge train because the source branch was updated');
      assert.ok(note, 'the platform’s drop note');
      assert.equal(note.author.username, developer.user.username);
      assert.equal((await dev.git(['ls-remote', 'origin', `refs/merge-requests/${mr.iid}/train`])).out.trim(), '', 'the train ref is gone');
    });

    it('a Maintainer adding it again approves the new head: the merge is of exactly that commit', async () => {
      const first = await dev.pushCommit('lima', { 'lima.txt': 'lima\n' });
      const mr = await openMergeRequest(project.id, 'lima', 'Lima', developer.token);
      expectStatus(await api(carPath(mr.iid), { method: 'POST', token: maintainer.token, json: { sha: first.sha } }), 201);
      await pipelineOf(mr.iid);
      const second = await dev.pushCommit('lima', { 'lima.txt': 'lima, reviewed again\n' });
      await eventually(async () => (await car(mr.iid)).dropped_reason, 'the drop');
      expectStatus(await api(carPath(mr.iid), { method: 'POST', token: maintainer.token, json: { sha: first.sha } }), 400);
      expectStatus(await api(carPath(mr.iid), { method: 'POST', token: maintainer.token, json: { sha: second.sha } }), 201);
      const p = await pipelineOf(mr.iid);
      expectStatus(await report(p.sha, p.ref, 'success', developer.token), 201);
      await eventually(async () => (await car(mr.iid)).status === 'merged', 'lima merged');
      const log = await firstParentSubjects(project.id, 'main');
      assert.equal(log[0].title, "Merge branch 'lima' into 'main'");
      assert.equal(log[0].parent_ids[1], second.sha);
    });

    it('a push landing between the train run’s check and its move of the target does not get through: the car is dropped, the target stays where it was', async () => {
      const first = await dev.pushCommit('november', { 'november.txt': 'november\n' });
      const mr = await openMergeRequest(project.id, 'november', 'November', developer.token);
      expectStatus(await api(carPath(mr.iid), { method: 'POST', token: maintainer.token, json: { sha: first.sha } }), 201);
      const p = await pipelineOf(mr.iid);
      // The unreviewed commit, already in the repository on a branch of its own.
      const later = await dev.pushCommit('november-later', { 'november-unreviewed.txt': 'nobody reviewed this\n' });
      const { db, vault } = server.running;
      // This test drives the run itself: the workers find the train's lock held and wait.
      const key = `merge_train:${project.id}:main`;
      await eventually(async () => (await acquireLock(db, key, 'race-test', 120_000)).held, 'the train lock');
      try {
        expectStatus(await report(p.sha, p.ref, 'success', developer.token), 201);
        const mainBefore = (await api(`/projects/${project.id}/repository/branches/main`)).body.commit.id;
        // Between the run's plan (merge) and its step, the push lands: git moves the source branch.
        let calls = 0;
        const landPush = () => {
          if (++calls === 2) execFileSync('git', ['-C', repositoryPath(server.config.repositoriesDir, project), 'update-ref', 'refs/heads/november', later.sha, first.sha]);
        };
        await runTrain({ db, vault, files: server.running.files, config: server.config, logger: pino({ level: 'silent' }), instanceUrl: server.url }, project.id, 'main', landPush);
        assert.ok(calls >= 2, 'the run planned a step');
        assert.equal((await api(`/projects/${project.id}/repository/branches/main`)).body.commit.id, mainBefore);
        const c = await car(mr.iid);
        assert.deepEqual([c.status, c.dropped_reason], ['idle', 'the source branch was updated']);
        assert.equal((await api(`/projects/${project.id}/merge_requests/${mr.iid}`)).body.state, 'opened');
      } finally {
        await releaseLock(db, key, 'race-test');
      }
      await trainHasRun('november-after');
      assert.equal(await fileOnMain('november-unreviewed.txt'), 404);
      assert.equal(await fileOnMain('november.txt'), 404);
    });

    it('a scheduled car (auto_merge) leaves the train when its source gets a push: the new head passing does not let it join', async () => {
      const first = await dev.pushCommit('mike', { 'mike.txt': 'mike\n' });
      const mr = await openMergeRequest(project.id, 'mike', 'Mike', developer.token);
      expectStatus(await report(first.sha, 'mike', 'running'), 201);
      expectStatus(await api(carPath(mr.iid), { method: 'POST', token: maintainer.token, json: { auto_merge: true } }), 202);
      const unreviewed = await dev.pushCommit('mike', { 'mike-unreviewed.txt': 'nobody reviewed this\n' });
      assert.ok(unreviewed.ok, unreviewed.out);
      expectStatus(await report(unreviewed.sha, 'mike', 'success', developer.token), 201);
      const off = await eventually(async () => {
        const c = await car(mr.iid);
        return c.dropped_reason || c.pipeline ? c : undefined;
      }, 'the scheduled car to answer the push');
      await reportAllGreen(mr.iid, 'mike', unreviewed.sha);
      await trainHasRun('mike-after');
      assert.equal(await fileOnMain('mike-unreviewed.txt'), 404);
      assert.equal(off.dropped_reason, 'the source branch was updated');
      assert.equal((await api(`/projects/${project.id}/merge_requests/${mr.iid}`)).body.state, 'opened');
    });
  });

  it('removing a car takes it off the train with the reason; the list scopes tell active, complete and dropped apart', async () => {
    const mr = await openOnTrain('foxtrot');
    expectStatus(await api(carPath(mr.iid), { method: 'DELETE', token: developer.token }), 204);
    expectStatus(await api(carPath(mr.iid), { method: 'DELETE', token: developer.token }), 409);
    const c = await car(mr.iid);
    assert.match(c.dropped_reason!, new RegExp(developer.user.username));
    assert.equal(c.position, null);
    const active = expectShape(z.array(mergeTrain), (await api(`${trains()}?scope=active`)).body);
    assert.ok(!active.some((x) => x.merge_request.iid === mr.iid));
    const complete = expectShape(z.array(mergeTrain), (await api(`${trains()}?scope=complete&sort=asc`)).body);
    assert.ok(complete.every((x) => x.status === 'merged' || x.status === 'skip_merged'));
    assert.ok(complete.length >= 2);
    assert.ok(complete[0].id < complete[1].id);
    const branch = await api(`${trains()}/main?per_page=1`);
    expectStatus(branch, 200);
    assert.equal(branch.body.length, 1);
    assert.ok(Number(branch.headers.get('x-total')) >= 3);
    assert.deepEqual((await api(`${trains()}/no-such-branch`)).body, []);
  });

  it('with auto_merge, a merge request whose pipeline still runs is scheduled (202) and joins when it passes', async () => {
    const sha = await commitTo(project.id, 'golf', { 'golf.txt': 'golf\n' });
    const mr = await openMergeRequest(project.id, 'golf', 'Golf');
    expectStatus(await report(sha, 'golf', 'running'), 201);
    const res = await api(carPath(mr.iid), { method: 'POST', json: { auto_merge: true } });
    expectStatus(res, 202);
    assert.equal(expectShape(mergeTrain, res.body).scheduled, true);
    assert.equal((await car(mr.iid)).pipeline, null);
    expectStatus(await report(sha, 'golf', 'success'), 201);
    await pipelineOf(mr.iid);
  });

  it('PUT …/merge with auto_merge puts the merge request on the train (scheduled while its pipeline runs; merge_when_pipeline_succeeds, merge_user); without it 405; the cancel takes it off', async () => {
    const sha = await commitTo(project.id, 'golf-two', { 'golf-two.txt': 'golf two\n' });
    const mr = await openMergeRequest(project.id, 'golf-two', 'Golf two');
    const mergePath = `/projects/${project.id}/merge_requests/${mr.iid}/merge`;
    expectStatus(await api(mergePath, { method: 'PUT', json: {} }), 405);
    expectStatus(await report(sha, 'golf-two', 'running'), 201);
    expectStatus(await api(mergePath, { method: 'PUT', json: { auto_merge: true, sha: '1'.repeat(40) } }), 409);
    const res = await api(mergePath, { method: 'PUT', token: maintainer.token, json: { merge_when_pipeline_succeeds: true } });
    expectStatus(res, 200);
    assert.deepEqual([res.body.state, res.body.merge_when_pipeline_succeeds, res.body.merge_user?.id], ['opened', true, maintainer.user.id]);
    assert.equal((await car(mr.iid)).scheduled, true);
    expectStatus(await report(sha, 'golf-two', 'success'), 201);
    await pipelineOf(mr.iid);
    const cancel = await api(`/projects/${project.id}/merge_requests/${mr.iid}/cancel_merge_when_pipeline_succeeds`, { method: 'POST' });
    expectStatus(cancel, 201);
    assert.deepEqual(cancel.body, { status: 'success' });
    const off = await car(mr.iid);
    assert.equal(off.status, 'idle');
    assert.equal(off.dropped_reason, 'root removed it');
    const shown = (await api(`/projects/${project.id}/merge_requests/${mr.iid}`)).body;
    assert.deepEqual([shown.merge_when_pipeline_succeeds, shown.merge_user], [false, null]);
  });

  it('merge immediately: past the train where the project allows it (skip_merged), the cars behind are rebuilt on it', async () => {
    const skipper = await openOnTrain('hotel');
    const behind = await openOnTrain('india');
    const before = await pipelineOf(behind.iid);
    const refused = await api(`/projects/${project.id}/merge_requests/${skipper.iid}/merge`, { method: 'PUT', json: { skip_merge_train: true } });
    expectStatus(refused, 405);
    expectStatus(await setTrains({ merge_trains_skip_train_allowed: true }), 200);
    expectStatus(await api(`/projects/${project.id}/merge_requests/${skipper.iid}/merge`, { method: 'PUT', json: { skip_merge_train: true } }), 200);
    const skipped = await car(skipper.iid);
    assert.equal(skipped.status, 'skip_merged');
    assert.ok(skipped.merged_at);
    const rebuilt = await pipelineOf(behind.iid, before.id);
    expectStatus(await api(`/projects/${project.id}/repository/files/hotel.txt?ref=${rebuilt.sha}`), 200);
    expectStatus(await api(carPath(behind.iid), { method: 'DELETE' }), 204);
  });

  it('callers without the role: anonymous 401, Reporter 403, a Developer may not merge into the protected default branch (401)', async () => {
    await commitTo(project.id, 'juliett', { 'juliett.txt': 'juliett\n' });
    const mr = await openMergeRequest(project.id, 'juliett', 'Juliett');
    expectStatus(await api(carPath(mr.iid), { method: 'POST', token: developer.token, json: {} }), 401);
    expectStatus(await api(trains(), { token: null }), 401);
    expectStatus(await api(trains(), { token: reporter.token }), 403);
    expectStatus(await api(carPath(1), { method: 'POST', token: reporter.token, json: {} }), 403);
  });
});

async function openOnTrain(name: string) {
  await commitTo(project.id, name, { [`${name}.txt`]: `${name}\n` });
  const mr = await openMergeRequest(project.id, name, name);
  expectStatus(await api(carPath(mr.iid), { method: 'POST', json: {} }), 201);
  return mr;
}
