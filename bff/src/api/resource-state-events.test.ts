import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { resourceStateEvent } from '../../../shared/src/resource-state-events.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, type TestServer } from '../../test/harness.ts';

let server: TestServer;
let project: { id: number };

before(async () => {
  server = await startTestServer();
  project = await buildProject((await buildGroup()).id);
});
after(async () => {
  await server.close();
});

describe('GET /projects/:id/issues/:issue_iid/resource_state_events', () => {
  it('is empty for an issue never closed, then one event per close and reopen, oldest first', async () => {
    const iid = (await api(`/projects/${project.id}/issues`, { method: 'POST', json: { title: 'Stateful' } })).body.iid;
    const base = `/projects/${project.id}/issues/${iid}/resource_state_events`;
    assert.deepEqual((await api(base)).body, []);
    for (const state_event of ['close', 'reopen', 'close']) expectStatus(await api(`/projects/${project.id}/issues/${iid}`, { method: 'PUT', json: { state_event } }), 200);
    // Closing what is already closed records nothing.
    expectStatus(await api(`/projects/${project.id}/issues/${iid}`, { method: 'PUT', json: { state_event: 'close' } }), 200);
    const res = await api(base);
    expectStatus(res, 200);
    const events = expectShape(z.array(resourceStateEvent), res.body);
    assert.deepEqual(events.map((e) => e.state), ['closed', 'opened', 'closed']);
    assert.ok(events.every((e) => e.resource_type === 'Issue' && e.user?.username === 'root'));
    const one = await api(`${base}/${events[1].id}`);
    expectStatus(one, 200);
    assert.deepEqual(one.body, events[1]);
    expectStatus(await api(`${base}/987654`), 404);
    expectStatus(await api(`/projects/${project.id}/issues/98765/resource_state_events`), 404);
  });
});
