import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { callInstance, sharedInstallation, stopInstance, type SharedInstallation } from './instances.ts';

/**
 * Merge trains survive a crash and share one database: real server processes on one database
 * and one repositories directory, one killed (SIGKILL) after it moved the target branch and
 * before it recorded the merge, and two driving the same train at once. The target branch
 * must end with exactly the cars that passed, in train order, each merged and recorded once.
 */
const TOKEN = `train-root-token-${crypto.randomBytes(6).toString('hex')}`;
let installation: SharedInstallation;
const start = (extra: Record<string, string> = {}) => installation.start(extra);

async function call(url: string, p: string, method = 'GET', body?: unknown) {
  const res = await callInstance(url, TOKEN, method, p, body);
  assert.ok(res.status < 300, `${method} ${p}: ${res.status} ${res.text}`);
  return res.body;
}

async function until<T>(probe: () => Promise<T | undefined | false>, what: string, limitMs = 60_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Car {
  iid: number;
  pipeline: { id: number; sha: string; ref: string; status: string } | null;
  status: string;
}

/** A project with trains enabled, a first commit on main, and `names` merge requests on its train, in that order. */
async function trainOf(url: string, names: string[], addVia: string[] = [url]) {
  const group = await call(url, '/groups', 'POST', { name: 'Trains', path: `trains-${crypto.randomBytes(3).toString('hex')}` });
  const project = await call(url, '/projects', 'POST', { name: 'Rails', namespace_id: group.id });
  const commit = (branch: string, file: string, start?: string) =>
    call(url, `/projects/${project.id}/repository/commits`, 'POST', { branch, ...(start ? { start_branch: start } : {}), commit_message: `Add ${file}`, actions: [{ action: 'create', file_path: file, content: `${file}\n` }] });
  await commit('main', 'README.md');
  await call(url, `/projects/${project.id}`, 'PUT', { merge_trains_enabled: true });
  const iids: number[] = [];
  for (const n of names) {
    await commit(n, `${n}.txt`, 'main');
    const mr = await call(url, `/projects/${project.id}/merge_requests`, 'POST', { source_branch: n, target_branch: 'main', title: `Feature ${n}` });
    iids.push(mr.iid);
  }
  // Added one right after another (through each instance in turn): their builds are jobs that either instance may run.
  for (const [i, iid] of iids.entries()) await call(addVia[i % addVia.length], `/projects/${project.id}/merge_trains/merge_requests/${iid}`, 'POST', {});
  return { project: project as { id: number }, iids };
}

const car = (url: string, projectId: number, iid: number): Promise<Car> => call(url, `/projects/${projectId}/merge_trains/merge_requests/${iid}`);
/** The car's train pipeline once it has one other than `not`. */
const pipelineOf = (url: string, projectId: number, iid: number, not?: number) =>
  until(async () => {
    const c = await car(url, projectId, iid);
    return c.status === 'fresh' && c.pipeline && c.pipeline.id !== not ? c.pipeline : undefined;
  }, `a train pipeline for !${iid}`);
const report = (url: string, projectId: number, p: { sha: string; ref: string }, state: string) => call(url, `/projects/${projectId}/statuses/${p.sha}`, 'POST', { state, ref: p.ref, name: 'train-ci' });
const mergeRequest = (url: string, projectId: number, iid: number) => call(url, `/projects/${projectId}/merge_requests/${iid}`);
const mainHead = async (url: string, projectId: number) => (await call(url, `/projects/${projectId}/repository/branches/main`)).commit.id as string;
const firstParents = async (url: string, projectId: number) => (await call(url, `/projects/${projectId}/repository/commits?ref_name=main&first_parent=true&per_page=100`)) as { id: string; title: string }[];

/** Every record of the merges: push activity on main (past the first commit), "merged" state events per merge request. */
async function recordsOf(url: string, projectId: number, iids: number[], first: string) {
  const pushes = ((await call(url, `/projects/${projectId}/events?action=pushed&per_page=100`)) as { push_data: { ref: string; commit_to: string } }[]).filter((e) => e.push_data.ref === 'main' && e.push_data.commit_to !== first);
  const merged = new Map<number, number>();
  for (const iid of iids) merged.set(iid, ((await call(url, `/projects/${projectId}/merge_requests/${iid}/resource_state_events`)) as { state: string }[]).filter((e) => e.state === 'merged').length);
  return { pushedTo: pushes.map((p) => p.push_data.commit_to).sort(), merged };
}

before(async () => {
  installation = await sharedInstallation('trains', TOKEN);
});

after(() => installation.close());

describe('a merge train', () => {
  it('survives a server killed between moving the target branch and recording the merge: the cars that passed, in order, each once', async () => {
    // This instance waits 30 s after each move of a target branch: the kill lands there (the
    // test kills it as soon as it sees main move; 4 s proved too short on a loaded machine).
    const a = await start({ GATEHOUSE_TEST_TRAIN_PAUSE_MS: '30000' });
    const { project, iids } = await trainOf(a.url, ['alpha', 'bravo', 'charlie']);
    const [p1, p2, p3] = await Promise.all(iids.map((iid) => pipelineOf(a.url, project.id, iid)));
    await report(a.url, project.id, p2, 'failed');
    await report(a.url, project.id, p3, 'success');
    await report(a.url, project.id, p1, 'success');
    // The first car's train commit is on main: the run is paused before recording it. Killed there,
    // with nothing recorded yet (asked of the paused instance itself: the next one may take the
    // train up, once the dead run's lock ran out, before the test's first request reaches it).
    await until(async () => (await mainHead(a.url, project.id)) === p1.sha, 'main to move to the first car');
    assert.equal((await mergeRequest(a.url, project.id, iids[0])).state, 'opened', 'the kill came too late to test anything');
    await installation.crash(a);

    const b = await start();
    try {
      assert.equal(await mainHead(b.url, project.id), p1.sha);
      // The new instance takes the train up (once the dead run's lock ran out) and records the merge.
      await until(async () => (await mergeRequest(b.url, project.id, iids[0])).state === 'merged', 'the first car recorded as merged');
      // The failed car, now at the head, leaves with its reason; the one behind is rebuilt without it.
      const dropped = await until(async () => {
        const c = await car(b.url, project.id, iids[1]);
        return c.status === 'idle' ? c : undefined;
      }, 'the failed car to be dropped');
      assert.equal(dropped.pipeline?.status, 'failed');
      const rebuilt = await pipelineOf(b.url, project.id, iids[2], p3.id);
      await report(b.url, project.id, rebuilt, 'success');
      await until(async () => (await mergeRequest(b.url, project.id, iids[2])).state === 'merged', 'the third car merged');

      assert.equal((await mergeRequest(b.url, project.id, iids[1])).state, 'opened');
      const log = await firstParents(b.url, project.id);
      assert.deepEqual(
        log.map((c) => c.title),
        ["Merge branch 'charlie' into 'main'", "Merge branch 'alpha' into 'main'", 'Add README.md'],
      );
      assert.deepEqual([log[0].id, log[1].id], [rebuilt.sha, p1.sha]);
      const records = await recordsOf(b.url, project.id, iids, log[2].id);
      assert.deepEqual(records.pushedTo, [p1.sha, rebuilt.sha].sort(), 'each merge pushed to main exactly once');
      assert.deepEqual([...records.merged.values()], [1, 0, 1], 'each merged merge request has one merged event');
    } finally {
      await stopInstance(b.child);
    }
  });

  it('driven by two instances at once stays in train order: statuses posted to both, all together, in reverse order', async () => {
    const a = await start();
    const b = await start();
    try {
      const names = ['one', 'two', 'three', 'four', 'five'];
      const { project, iids } = await trainOf(a.url, names, [a.url, b.url]);
      const pipelines = await Promise.all(iids.map((iid) => pipelineOf(b.url, project.id, iid)));
      // Last car first, alternating instances, all at once: both instances' workers run the train.
      await Promise.all(
        pipelines
          .map((p, i) => ({ p, url: i % 2 ? a.url : b.url }))
          .reverse()
          .map(({ p, url }) => report(url, project.id, p, 'success')),
      );
      await until(async () => (await mergeRequest(a.url, project.id, iids[iids.length - 1])).state === 'merged', 'the last car merged');
      for (const iid of iids) assert.equal((await mergeRequest(b.url, project.id, iid)).state, 'merged');
      const log = await firstParents(a.url, project.id);
      assert.deepEqual(
        log.map((c) => c.title),
        [...names.map((n) => `Merge branch '${n}' into 'main'`).reverse(), 'Add README.md'],
      );
      // Nobody rebuilt a car behind another's back: each merged at the train commit its pipeline passed on.
      assert.deepEqual(log.slice(0, names.length).map((c) => c.id), pipelines.map((p) => p.sha).reverse());
      // Each car built once by one run: one train pipeline per car, none left behind by a second run building it too.
      for (const iid of iids) {
        const built = (await call(a.url, `/projects/${project.id}/pipelines?ref=${encodeURIComponent(`refs/merge-requests/${iid}/train`)}&per_page=100`)) as { id: number }[];
        assert.equal(built.length, 1, `!${iid} has one train pipeline`);
      }
      const records = await recordsOf(a.url, project.id, iids, log[names.length].id);
      assert.deepEqual(records.pushedTo, pipelines.map((p) => p.sha).sort(), 'each merge pushed to main exactly once');
      assert.deepEqual([...records.merged.values()], names.map(() => 1));
    } finally {
      await Promise.all([stopInstance(a.child), stopInstance(b.child)]);
    }
  });
});
