import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { hookEvent, hookHealth, type HookEvent, type HookHealth } from '../../../shared/src/hooks.ts';
import { addMember, buildUser, expectShape, expectStatus, request as api, startTestServer, type TestServer } from '../../test/harness.ts';
import { hookOwner } from '../../test/hook-fixtures.ts';
import { startReceiver, type Receiver } from '../../test/receiver.ts';
import { MAX_COUNT } from '../db/pagination.ts';

let server: TestServer;
let receiver: Receiver;
/** A port nothing listens on: deliveries there are refused. */
let refusedUrl: string;
before(async () => {
  server = await startTestServer({ GATEHOUSE_HOOK_TIMEOUT_SECONDS: '1' });
  receiver = await startReceiver();
  const gone = await startReceiver();
  refusedUrl = `${gone.url}/gone`;
  await gone.close();
  expectStatus(await api('/application/settings', { method: 'PUT', json: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
});
after(async () => {
  await receiver.close();
  await server.close();
});

type Owner = Awaited<ReturnType<typeof hookOwner>>;

const healthPath = (o: Owner, query = '') => `/api/console${o.base}/health${query}`;

async function makeHook(o: Owner, url: string): Promise<number> {
  const res = await api(o.base, { method: 'POST', token: o.admin.token, json: { url, push_events: true } });
  expectStatus(res, 201);
  return res.body.id;
}

/**
 * Test deliveries, each answered by the receiver with the status given (0: too slowly, and the
 * delivery times out); the test answers 201 for a 2xx only. A hook at refusedUrl fails each.
 */
async function deliver(o: Owner, hookId: number, statuses: number[]) {
  for (const status of statuses) {
    receiver.respond(status || 200, { delayMs: status ? 0 : 1500 });
    const res = await api(`${o.base}/${hookId}/test/push_events`, { method: 'POST', token: o.admin.token });
    const reached = (await api(`${o.base}/${hookId}`, { token: o.admin.token })).body.url !== refusedUrl;
    expectStatus(res, reached && status >= 200 && status < 300 ? 201 : 422);
  }
  receiver.respond(200);
}

async function health(o: Owner, query = ''): Promise<HookHealth[]> {
  const res = await api(healthPath(o, query), { token: o.admin.token });
  expectStatus(res, 200);
  return expectShape(z.array(hookHealth), res.body);
}

/** What the hook's events log says: its count (X-Total, absent past 10,000) and first record, unfiltered or by status. */
async function logSays(o: Owner, hookId: number, status?: string): Promise<{ total: number | null; first: HookEvent | null }> {
  const res = await api(`${o.base}/${hookId}/events?per_page=1${status ? `&status=${status}` : ''}`, { token: o.admin.token });
  expectStatus(res, 200);
  const [first] = expectShape(z.array(hookEvent), res.body);
  const total = res.headers.get('x-total');
  return { total: total === null ? null : Number(total), first: first ?? null };
}

/** The figures the health column showed when it asked the log three times per hook. */
async function fromTheLog(o: Owner, hookId: number): Promise<HookHealth> {
  const [all, client, server] = await Promise.all([logSays(o, hookId), logSays(o, hookId, 'client_failure'), logSays(o, hookId, 'server_failure')]);
  const failures = [client.first, server.first].filter((e): e is HookEvent => e !== null);
  const lastFailure = failures.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id)[0] ?? null;
  return {
    hook_id: hookId,
    total: all.total,
    failed: client.total === null || server.total === null ? null : client.total + server.total,
    latest: all.first,
    last_failure: lastFailure,
  };
}

/** The SQL statements that read the delivery log while `work` runs, counted on the server's own database. */
async function logQueriesDuring(work: () => Promise<unknown>): Promise<number> {
  const executor = server.running.db.getExecutor();
  const original = executor.executeQuery.bind(executor);
  let count = 0;
  executor.executeQuery = ((...args: Parameters<typeof original>) => {
    if (args[0].sql.includes('web_hook_logs')) count++;
    return original(...args);
  }) as typeof executor.executeQuery;
  try {
    await work();
  } finally {
    executor.executeQuery = original;
  }
  return count;
}

for (const scope of ['groups', 'projects'] as const) {
  describe(`GET /api/console/${scope}/:id/hooks/health`, () => {
    describe(`as ${scope === 'groups' ? 'an Owner' : 'a Maintainer'}`, () => {
      it("gives each hook the figures of its own events log: counts, failures of both kinds, the newest delivery and the newest failure", async () => {
        const o = await hookOwner(scope);
        const quiet = await makeHook(o, `${receiver.url}/quiet`);
        const mixed = await makeHook(o, `${receiver.url}/mixed`);
        const healthy = await makeHook(o, `${receiver.url}/healthy`);
        const refused = await makeHook(o, refusedUrl);
        // Client failures (404, 410), server failures (503, a timeout), and a success last.
        await deliver(o, mixed, [200, 404, 503, 0, 410, 200]);
        await deliver(o, healthy, [200, 201]);
        await deliver(o, refused, [200]);

        const answer = await health(o);
        assert.deepEqual(
          answer.map((h) => h.hook_id),
          [quiet, mixed, healthy, refused],
          'every hook, in the order of the list',
        );
        for (const h of answer) assert.deepEqual(h, await fromTheLog(o, h.hook_id), `hook ${h.hook_id}`);

        const [q, m, ok, r] = answer;
        assert.deepEqual(q, { hook_id: quiet, total: 0, failed: 0, latest: null, last_failure: null });
        assert.deepEqual([m.total, m.failed, m.latest?.response_status, m.last_failure?.response_status], [6, 4, '200', '410']);
        assert.deepEqual([ok.total, ok.failed, ok.last_failure], [2, 0, null]);
        assert.deepEqual([r.total, r.failed, r.latest?.response_status], [1, 1, 'internal error']);
        assert.equal(r.latest?.id, r.last_failure?.id);
        assert.match(r.last_failure?.internal_error_message ?? '', /refused/i);
        // Presented as the log presents a delivery: the token redacted, the payload as JSON.
        assert.equal(m.latest?.request_headers['X-Service-Event'], 'Push Hook');
        assert.equal((m.latest?.request_data as { object_kind?: string }).object_kind, 'push');
      });

      it('reads the log in the same number of statements for one hook as for many, and pages like the list', async () => {
        const one = await hookOwner(scope);
        await deliver(one, await makeHook(one, `${receiver.url}/one`), [200, 500]);
        const many = await hookOwner(scope);
        const ids: number[] = [];
        for (let i = 0; i < 5; i++) {
          ids.push(await makeHook(many, `${receiver.url}/many${i}`));
          await deliver(many, ids[i], [200, 404]);
        }
        const forOne = await logQueriesDuring(() => health(one));
        const forMany = await logQueriesDuring(() => health(many));
        assert.ok(forOne > 0, 'the counter sees the statements');
        assert.equal(forMany, forOne, `${forOne} statements for one hook, ${forMany} for five`);
        assert.ok(forMany <= 2, `${forMany} statements read the log`);

        const first = await api(healthPath(many, '?per_page=2'), { token: many.admin.token });
        expectStatus(first, 200);
        assert.deepEqual(first.body.map((h: HookHealth) => h.hook_id), ids.slice(0, 2));
        assert.equal(first.headers.get('x-total'), '5');
        const rest = await health(many, '?per_page=2&page=3');
        assert.deepEqual(rest.map((h) => h.hook_id), ids.slice(4));
        assert.deepEqual(rest[0], await fromTheLog(many, ids[4]));
      });
    });

    describe('without the role', () => {
      it(`answers 403 to a ${scope === 'groups' ? 'Maintainer' : 'Developer'}, as listing the hooks does`, async () => {
        const o = await hookOwner(scope);
        const weaker = await buildUser();
        if (scope === 'groups') await addMember('groups', o.group.id, weaker.user.id, 40);
        else await addMember('projects', o.id, weaker.user.id, 30);
        expectStatus(await api(o.base, { token: weaker.token }), 403);
        expectStatus(await api(healthPath(o), { token: weaker.token }), 403);
      });
      it('answers 401 without a credential', async () => {
        const o = await hookOwner(scope);
        expectStatus(await api(healthPath(o), { token: null }), 401);
      });
    });

    describe(`for an unknown ${scope === 'groups' ? 'group' : 'project'}`, () => {
      it('answers 404, also to a caller who cannot see it', async () => {
        const o = await hookOwner(scope);
        const what = scope === 'groups' ? 'Group' : 'Project';
        const stranger = await buildUser();
        for (const res of [await api(`/api/console/${scope}/999999999/hooks/health`, { token: server.rootToken }), await api(healthPath(o), { token: stranger.token })]) {
          expectStatus(res, 404);
          assert.deepEqual(res.body, { message: `404 ${what} Not Found` });
        }
      });
    });

    describe('with invalid parameters', () => {
      it('answers 400 for a page that is not a number', async () => {
        const o = await hookOwner(scope);
        expectStatus(await api(healthPath(o, '?per_page=many'), { token: o.admin.token }), 400);
      });
    });
  });
}

describe('GET /api/console/groups/:id/hooks/health past 10,000 deliveries', () => {
  it('stops counting where the log stops counting: null past 10,000, the newest records still named', async () => {
    const o = await hookOwner('groups');
    const busy = await makeHook(o, `${receiver.url}/busy`);
    await deliver(o, busy, [200]);
    const [template] = (await api(`${o.base}/${busy}/events`, { token: o.admin.token })).body as HookEvent[];
    const row = await server.running.db.selectFrom('web_hook_logs').selectAll().where('id', '=', template.id).executeTakeFirstOrThrow();
    // Older than the test delivery, within the week: MAX_COUNT server failures (one delivery
    // more than the log counts in all), and 3 client failures.
    const base = Date.now() - 3_600_000;
    const copies = Array.from({ length: MAX_COUNT + 3 }, (_, i) => {
      const { id: _id, ...rest } = row;
      return { ...rest, response_status: i < 3 ? '404' : '500', created_at: new Date(base - i * 1000).toISOString() };
    });
    for (let i = 0; i < copies.length; i += 500) await server.running.db.insertInto('web_hook_logs').values(copies.slice(i, i + 500)).execute();

    const [h] = await health(o);
    assert.deepEqual(h, await fromTheLog(o, busy));
    assert.equal(h.total, null, 'more deliveries than the log counts');
    assert.equal(h.failed, MAX_COUNT + 3, 'each kind of failure counted up to 10,000');
    assert.equal(h.latest?.id, template.id);
    assert.equal(h.last_failure?.response_status, '404');

    await server.running.db.insertInto('web_hook_logs').values({ ...copies[5], created_at: new Date(base - 10 * 86_400_000).toISOString() }).execute();
    await server.running.db.insertInto('web_hook_logs').values({ ...copies[5], created_at: new Date(base - 1).toISOString() }).execute();
    const [past] = await health(o);
    assert.equal(past.failed, null, 'server failures past 10,000');
    assert.deepEqual(past, await fromTheLog(o, busy));
  });
});
