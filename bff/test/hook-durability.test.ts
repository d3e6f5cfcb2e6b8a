import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startReceiver, type Receiver } from './receiver.ts';
import { callInstance, sharedInstallation, stopInstance as stop, type SharedInstallation } from './instances.ts';

/**
 * Deliveries survive a crash, and several instances share the work: real server processes
 * (killed with SIGKILL mid-run), one database, a real receiver that answers slowly.
 */
const TOKEN = `durable-root-token-${crypto.randomBytes(6).toString('hex')}`;
let installation: SharedInstallation;
let receiver: Receiver;

async function call(url: string, p: string, method = 'GET', body?: unknown) {
  const res = await callInstance(url, TOKEN, method, p, body);
  assert.ok(res.status < 300, `${method} ${p}: ${res.status} ${res.text}`);
  return res.body;
}

/** A group whose hook subscribes to subgroup events, then `n` subgroups: n events. */
async function fireEvents(url: string, n: number) {
  const group = await call(url, '/groups', 'POST', { name: 'Durable', path: `durable-${crypto.randomBytes(3).toString('hex')}` });
  const hook = await call(url, `/groups/${group.id}/hooks`, 'POST', { url: `${receiver.url}/deliveries`, push_events: false, subgroup_events: true });
  for (let i = 0; i < n; i++) await call(url, '/groups', 'POST', { name: `Sub ${i}`, path: `sub-${i}`, parent_id: group.id });
  return { ...group, hookId: hook.id as number };
}

/** The Idempotency-Keys of the hook's logged deliveries, once `count` are logged (logs are written shortly after). */
async function loggedKeys(url: string, group: { id: number; hookId: number }, count: number): Promise<string[]> {
  const until = Date.now() + 10_000;
  for (;;) {
    const logs = (await call(url, `/groups/${group.id}/hooks/${group.hookId}/events?per_page=100`)) as { request_headers: Record<string, string> }[];
    if (logs.length >= count || Date.now() > until) return logs.map((l) => l.request_headers['Idempotency-Key']).sort();
    await new Promise((r) => setTimeout(r, 100));
  }
}

const uniqueKeys = () => new Set(receiver.requests.map((r) => String(r.headers['idempotency-key'])));

before(async () => {
  installation = await sharedInstallation('durable', TOKEN, { GATEHOUSE_HOOK_TIMEOUT_SECONDS: '1' });
  receiver = await startReceiver();
  const first = await installation.start();
  await call(first.url, '/application/settings', 'PUT', { allow_local_requests_from_web_hooks_and_services: true });
  await stop(first.child);
});

after(async () => {
  await receiver.close();
  await installation.close();
});

describe('webhook deliveries', () => {
  it('survive a server killed mid-run: every event arrives, retries carry the same Idempotency-Key', async () => {
    receiver.requests.length = 0;
    // One worker keeps 8 deliveries in flight and the receiver takes 0.5 s for each: 40 events
    // take five rounds, so the kill lands with some delivered, some on their way, some queued.
    receiver.respond(200, { delayMs: 500 });
    const slow = { GATEHOUSE_WORKERS: '1', GATEHOUSE_HOOK_TIMEOUT_SECONDS: '3' };
    const events = 40;
    // The events are queued by a server without workers, so that making them (40 API calls, slow
    // on a loaded machine) is over before any delivery is held. Fired from the server that then
    // delivers, held deliveries waited out their 3 s timeout while the test still made subgroups:
    // four failures in a row rest the hook (as on the platform), and the restarted server then
    // rightly sent nothing (full runs 14, 16 and 17 stopped at 9 or 11 of 40).
    const queuer = await installation.start({ ...slow, GATEHOUSE_WORKERS: '0' });
    const group = await fireEvents(queuer.url, events);
    await stop(queuer.child);
    // Killed with deliveries on their way: from the third delivery's arrival, answers wait until
    // after the kill. The worker's 8 in flight then wait too (for 3 s, their timeout), so the kill
    // lands mid-run however slowly this test reaches it on a loaded machine (CI once saw all 40
    // arrive between a check for a delivery in flight and the hold that followed it).
    receiver.holdFrom(3);
    const a = await installation.start(slow);
    await receiver.waitFor(3, 60_000);
    await installation.crash(a);
    receiver.release();
    const before = uniqueKeys().size;
    assert.ok(before < events, `the kill came too late to test anything (${before} of ${events} delivered)`);
    const b = await installation.start(slow);
    try {
      // A ceiling, not an expectation (alone, all arrive within seconds): under npm test's load the
      // restarted server's start, the killed one's 11 s leases and 37 deliveries have taken over 40 s
      // (runs 14 and 16 stopped at 9 of 40).
      const until = Date.now() + 120_000;
      while (uniqueKeys().size < events && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      assert.equal(uniqueKeys().size, events, 'every event is delivered after the restart');
      // Each event delivered once, or again with the same key when the kill cut its first try short.
      const perKey = new Map<string, number>();
      for (const r of receiver.requests) perKey.set(String(r.headers['idempotency-key']), (perKey.get(String(r.headers['idempotency-key'])) ?? 0) + 1);
      assert.ok([...perKey.values()].every((n) => n <= 2), 'no event was delivered more than twice');
      // A retry carries the platform's header names beside the spec's, with the same values as
      // its first try (receivers written for the platform recognise it by X-Gitlab-Event-UUID).
      for (const r of receiver.requests) {
        for (const name of ['event', 'webhook-uuid', 'instance', 'event-uuid']) assert.equal(r.headers[`x-gitlab-${name}`], r.headers[`x-service-${name}`], `X-Gitlab-${name}`);
      }
      const retried = [...perKey].filter(([, n]) => n === 2).map(([key]) => receiver.requests.filter((r) => r.headers['idempotency-key'] === key));
      assert.ok(retried.length > 0, 'the deliveries in flight at the kill were retried');
      for (const [first, again] of retried) assert.equal(again.headers['x-gitlab-event-uuid'], first.headers['x-gitlab-event-uuid']);
      const subgroups = new Set(receiver.requests.map((r) => r.json.full_path));
      assert.equal(subgroups.size, events);
      // Every event logged exactly once: a delivery the kill cut off before its log row was
      // written ran again, and a logged one did not.
      assert.deepEqual(await loggedKeys(b.url, group, events), [...uniqueKeys()].sort());
    } finally {
      await stop(b.child);
    }
  });

  it('are shared by several instances on one database without double delivery', async () => {
    receiver.requests.length = 0;
    receiver.respond(200, { delayMs: 20 });
    const a = await installation.start();
    const b = await installation.start();
    try {
      const events = 30;
      const group = await fireEvents(a.url, events);
      // Only this group's events count: a retry left over from the crash test may still arrive.
      const ours = () => receiver.requests.filter((r) => String(r.json?.full_path).startsWith(`${group.full_path}/`));
      const until = Date.now() + 90_000; // a ceiling: alone they arrive in about a second
      while (ours().length < events && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(ours().length, events, 'each event exactly once');
      assert.equal(new Set(ours().map((r) => r.headers['idempotency-key'])).size, events);
      assert.deepEqual(await loggedKeys(a.url, group, events), ours().map((r) => String(r.headers['idempotency-key'])).sort());
    } finally {
      await Promise.all([stop(a.child), stop(b.child)]);
    }
  });
});
