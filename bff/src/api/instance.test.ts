import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, openDb } from '../db/index.ts';
import { instanceOverview as overviewOf } from '../services/instance/instance.ts';
import { instanceOverview } from '../../../shared/src/instance.ts';
import { buildGroup, buildUser, expectShape, expectStatus, request as api, startTestServer, type TestServer } from '../../test/harness.ts';
import { nowIso } from '../util/time.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ GATEHOUSE_SIGNIN_MAX_FAILURES: '7', GATEHOUSE_SESSION_HOURS: '3' });
});
after(() => server.close());

const overview = async (token: string | null = server.rootToken) => api('/api/console/instance', { token });

describe('GET /api/console/instance', () => {
  it('tells an administrator the version, the database and the counts, which follow what is created', async () => {
    const before = expectShape(instanceOverview, (await overview()).body);
    assert.equal(before.version, JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version);
    assert.equal(before.database, server.engine === 'postgres' ? 'postgresql' : 'sqlite');
    const u = await buildUser();
    await buildGroup({ token: u.token });
    await api(`/users/${u.user.id}/block`, { method: 'POST' });
    const res = await overview();
    expectStatus(res, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const after = expectShape(instanceOverview, res.body);
    assert.equal(after.counts.users, before.counts.users + 1);
    assert.equal(after.counts.groups, before.counts.groups + 1);
    assert.equal(after.counts.blocked_users, before.counts.blocked_users + 1);
    assert.equal(after.counts.admins, before.counts.admins);
  });

  it('shows the job queue: failed jobs with the newest failure, and how late the oldest due job is', async () => {
    // A database of its own, with no workers to run what is inserted.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-instance-'));
    const db = openDb({ sqliteFile: path.join(dir, 'db.sqlite') });
    try {
      await migrate(db);
      const empty = await overviewOf(db);
      assert.deepEqual(empty.jobs, { pending: 0, running: 0, failed: 0, oldest_due_at: null, last_failure: null });
      const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
      const job = { payload: '{}', attempts: 0, max_attempts: 3, locked_by: null, locked_until: null, last_error: null, unique_key: null, created_at: hourAgo, updated_at: hourAgo };
      await db
        .insertInto('jobs')
        .values([
          { ...job, kind: 'a', state: 'failed', run_at: hourAgo, attempts: 3, last_error: 'receiver said 500', updated_at: nowIso() },
          { ...job, kind: 'b', state: 'failed', run_at: hourAgo, attempts: 3, last_error: 'older failure' },
          { ...job, kind: 'c', state: 'pending', run_at: hourAgo },
          { ...job, kind: 'd', state: 'pending', run_at: new Date(Date.now() + 3_600_000).toISOString() },
        ])
        .execute();
      const body = await overviewOf(db);
      assert.deepEqual(body.jobs, { pending: 2, running: 0, failed: 2, oldest_due_at: hourAgo, last_failure: { kind: 'a', error: 'receiver said 500', at: body.jobs.last_failure!.at } });
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows the sign-in limits the configuration sets', async () => {
    const body = expectShape(instanceOverview, (await overview()).body);
    assert.deepEqual(body.sign_in, { max_failures_per_user: 7, max_failures_per_address: 35, window_minutes: 10, session_hours: 3 });
  });

  it('is for administrators: 403 for anyone else, 401 anonymously', async () => {
    const u = await buildUser();
    expectStatus(await overview(u.token), 403);
    expectStatus(await overview(null), 401);
  });
});
