import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { epic, EPIC_DESCRIPTION_MAX, resourceStateEvent } from '../../../shared/src/epics.ts';
import { buildGroup, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';

let server: TestServer;
let top: { id: number; full_path: string };
let sub: { id: number; full_path: string };
let reporter: Awaited<ReturnType<typeof userWithRole>>;
let guest: Awaited<ReturnType<typeof userWithRole>>;
let owner: Awaited<ReturnType<typeof userWithRole>>;

before(async () => {
  server = await startTestServer();
  top = await buildGroup();
  sub = await buildGroup({ parent_id: top.id });
  reporter = await userWithRole(top.id, 20);
  guest = await userWithRole(top.id, 10);
  owner = await userWithRole(top.id, 50);
});
after(() => server.close());

const create = (groupId: number, json: object, token?: string | null) => api(`/groups/${groupId}/epics`, { method: 'POST', json, token });
const created = async (groupId: number, json: object, token?: string) => {
  const res = await create(groupId, json, token);
  expectStatus(res, 201);
  return expectShape(epic, res.body);
};
const titles = async (groupId: number, query: string, token?: string | null) => {
  const res = await api(`/groups/${groupId}/epics${query}`, { token });
  expectStatus(res, 200);
  return expectShape(z.array(epic), res.body).map((e) => e.title);
};

describe('POST /groups/:id/epics', () => {
  it('creates an epic as a Reporter, numbered in its group, with fixed dates and references', async () => {
    const a = await created(top.id, { title: 'Roadmap', description: 'The plan', start_date_is_fixed: true, start_date_fixed: '2026-01-05', due_date_fixed: '2026-03-31' }, reporter.token);
    assert.equal(a.group_id, top.id);
    assert.equal(a.state, 'opened');
    assert.equal(a.author?.id, reporter.user.id);
    assert.equal(a.start_date, '2026-01-05');
    assert.equal(a.due_date, null, 'a due date that is not fixed is derived, and nothing derives it');
    assert.equal(a.due_date_fixed, '2026-03-31');
    assert.equal(a.start_date_is_fixed, true);
    assert.equal(a.due_date_is_fixed, false);
    assert.deepEqual(a.references, { short: `&${a.iid}`, relative: `&${a.iid}`, full: `${top.full_path}&${a.iid}` });
    assert.equal(a.web_url, `${server.url}/groups/${top.full_path}/-/epics/${a.iid}`);
    assert.equal(a.start_date_from_inherited_source, null, 'a Reporter may edit, so sees the derived dates');
    const b = await created(top.id, { title: 'Second', confidential: true }, reporter.token);
    assert.equal(b.iid, a.iid + 1);
    assert.equal(b.confidential, true);
    const other = await created(sub.id, { title: 'In the subgroup', parent_id: a.id }, reporter.token);
    assert.equal(other.iid, 1, 'iids count per group');
    assert.equal(other.parent_id, a.id);
    assert.equal(other.parent_iid, a.iid);
    assert.equal(other._links.parent, `${server.url}/api/v4/groups/${top.id}/epics/${a.iid}`);
  });

  it('takes created_at from owners and administrators only', async () => {
    const byOwner = await created(top.id, { title: 'Imported', created_at: '2020-02-02T10:00:00Z' }, owner.token);
    assert.equal(byOwner.created_at, '2020-02-02T10:00:00.000Z');
    const byReporter = await created(top.id, { title: 'Not imported', created_at: '2020-02-02T10:00:00Z' }, reporter.token);
    assert.notEqual(byReporter.created_at.slice(0, 4), '2020');
  });

  it('refuses bad input with 400 and creates nothing', async () => {
    const before = (await titles(top.id, '?per_page=100')).length;
    expectStatus(await create(top.id, {}), 400);
    expectStatus(await create(top.id, { title: '   ' }), 400);
    // At the platform's limit a description is taken; one character more is refused by name.
    const longest = await create((await buildGroup()).id, { title: 'Longest', description: 'd'.repeat(EPIC_DESCRIPTION_MAX) });
    expectStatus(longest, 201);
    assert.equal(longest.body.description.length, EPIC_DESCRIPTION_MAX);
    const tooLong = await create(top.id, { title: 'x', description: 'd'.repeat(EPIC_DESCRIPTION_MAX + 1) });
    expectStatus(tooLong, 400);
    assert.ok(tooLong.body.message.description, JSON.stringify(tooLong.body).slice(0, 200));
    expectStatus(await create(top.id, { title: 'x', start_date_fixed: '2026-02-30' }), 400);
    expectStatus(await create(top.id, { title: 'x', start_date_fixed: '2026-05-01', due_date_fixed: '2026-04-01' }), 400);
    const elsewhere = await created((await buildGroup()).id, { title: 'Elsewhere' });
    const res = await create(top.id, { title: 'x', parent_id: elsewhere.id });
    expectStatus(res, 400);
    assert.ok(res.body.message.parent_id);
    assert.equal((await titles(top.id, '?per_page=100')).length, before);
  });

  it('refuses a Guest (403), a non-member of the private group (404) and an anonymous caller (401)', async () => {
    expectStatus(await create(top.id, { title: 'x' }, guest.token), 403);
    const stranger = await userWithRole(top.id, 0);
    expectStatus(await create(top.id, { title: 'x' }, stranger.token), 404);
    expectStatus(await create(top.id, { title: 'x' }, null), 401);
    expectStatus(await create(999999999, { title: 'x' }), 404);
  });
});

describe('GET /groups/:id/epics', () => {
  let g: { id: number; full_path: string };
  let child: { id: number; full_path: string };
  before(async () => {
    g = await buildGroup();
    child = await buildGroup({ parent_id: g.id });
    const other = await userWithRole(g.id, 30);
    await created(g.id, { title: 'Alpha launch', description: 'rocket' });
    await created(g.id, { title: 'Beta', description: 'the second' }, other.token);
    const closing = await created(g.id, { title: 'Gamma closed' });
    expectStatus(await api(`/groups/${g.id}/epics/${closing.iid}`, { method: 'PUT', json: { state_event: 'close' } }), 200);
    await created(child.id, { title: 'Delta in child' });
    await created(g.id, { title: 'Secret', confidential: true });
  });

  it('lists the group’s and its subgroups’ epics, newest first, each referenced from the group asked', async () => {
    const res = await api(`/groups/${g.id}/epics`);
    expectStatus(res, 200);
    const list = expectShape(z.array(epic), res.body);
    assert.deepEqual(list.map((e) => e.title), ['Secret', 'Delta in child', 'Gamma closed', 'Beta', 'Alpha launch']);
    assert.equal(res.headers.get('x-total'), '5');
    const delta = list.find((e) => e.title === 'Delta in child')!;
    assert.equal(delta.references.relative, `${child.full_path}&1`);
    const fromChild = expectShape(z.array(epic), (await api(`/groups/${child.id}/epics`)).body);
    assert.deepEqual(fromChild.map((e) => e.references.relative), ['&1']);
    assert.deepEqual(await titles(child.id, '?include_ancestor_groups=true&state=opened&order_by=title&sort=asc'), ['Alpha launch', 'Beta', 'Delta in child', 'Secret']);
    assert.deepEqual(await titles(g.id, '?include_descendant_groups=false&order_by=title&sort=asc'), ['Alpha launch', 'Beta', 'Gamma closed', 'Secret']);
  });

  it('filters by state, author, not[author], search and dates', async () => {
    assert.deepEqual(await titles(g.id, '?state=closed'), ['Gamma closed']);
    assert.equal((await titles(g.id, '?state=all')).length, 5);
    assert.deepEqual(await titles(g.id, '?search=ROCKET'), ['Alpha launch']);
    const beta = expectShape(z.array(epic), (await api(`/groups/${g.id}/epics?search=second`)).body)[0];
    assert.deepEqual(await titles(g.id, `?author_id=${beta.author!.id}`), ['Beta']);
    assert.deepEqual(await titles(g.id, `?author_username=${beta.author!.username.toUpperCase()}`), ['Beta']);
    assert.deepEqual(await titles(g.id, `?not[author_id]=${beta.author!.id}&order_by=title&sort=asc`), ['Alpha launch', 'Delta in child', 'Gamma closed', 'Secret']);
    assert.equal((await titles(g.id, `?not[author_username]=${beta.author!.username}`)).length, 4);
    assert.deepEqual(await titles(g.id, '?created_after=2999-01-01T00:00:00Z'), []);
    assert.equal((await titles(g.id, '?created_before=2999-01-01T00:00:00Z&updated_after=2000-01-01T00:00:00Z')).length, 5);
    // The spec's date filters are inclusive: an epic created or updated at the very instant named is in.
    const gamma = expectShape(z.array(epic), (await api(`/groups/${g.id}/epics?search=Gamma`)).body)[0];
    const at = (name: string, value: string) => `${name}=${encodeURIComponent(value)}`;
    assert.ok((await titles(g.id, `?${at('created_after', gamma.created_at)}`)).includes('Gamma closed'));
    assert.ok((await titles(g.id, `?${at('created_before', gamma.created_at)}`)).includes('Gamma closed'));
    assert.ok((await titles(g.id, `?${at('updated_after', gamma.updated_at)}`)).includes('Gamma closed'));
    assert.ok((await titles(g.id, `?${at('updated_before', gamma.updated_at)}`)).includes('Gamma closed'));
    assert.deepEqual(await titles(g.id, '?updated_before=2000-01-01T00:00:00Z'), []);
    expectStatus(await api(`/groups/${g.id}/epics?state=gone`), 400);
    expectStatus(await api(`/groups/${g.id}/epics?order_by=weight`), 400);
    expectStatus(await api(`/groups/${g.id}/epics?created_after=yesterday`), 400);
  });

  it('filters by the caller’s own reaction: my_reaction_emoji None, Any or a name (an alias counts)', async () => {
    const r = await userWithRole(g.id, 20);
    const list = expectShape(z.array(epic), (await api(`/groups/${g.id}/epics`)).body);
    const id = (title: string) => list.find((e) => e.title === title)!.id;
    // Reactions on epics come from the platform's epic award endpoints, which the spec does not list: written here as those would.
    const now = new Date().toISOString();
    await server.running.db
      .insertInto('award_emoji')
      .values([
        { name: 'thumbsup', user_id: r.user.id, awardable_type: 'Epic', awardable_id: id('Beta'), created_at: now, updated_at: now },
        { name: 'rocket', user_id: r.user.id, awardable_type: 'Epic', awardable_id: id('Alpha launch'), created_at: now, updated_at: now },
      ])
      .execute();
    assert.deepEqual(await titles(g.id, '?my_reaction_emoji=Any&order_by=title&sort=asc', r.token), ['Alpha launch', 'Beta']);
    assert.deepEqual(await titles(g.id, '?my_reaction_emoji=%2B1', r.token), ['Beta']);
    assert.deepEqual(await titles(g.id, '?my_reaction_emoji=None&order_by=title&sort=asc', r.token), ['Delta in child', 'Gamma closed', 'Secret']);
    // Someone else's reactions are not the caller's.
    assert.deepEqual(await titles(g.id, '?my_reaction_emoji=Any'), []);
    assert.equal((await titles(g.id, '?my_reaction_emoji=None')).length, 5);
  });

  it('shows confidential epics to Reporters and up only, to readers of the group, anonymous ones of a public group included', async () => {
    const r = await userWithRole(g.id, 20);
    const gu = await userWithRole(g.id, 10);
    assert.ok((await titles(g.id, '', r.token)).includes('Secret'));
    const seen = await titles(g.id, '', gu.token);
    assert.equal(seen.length, 4);
    assert.ok(!seen.includes('Secret'));
    const stranger = await userWithRole(g.id, 0);
    expectStatus(await api(`/groups/${g.id}/epics`, { token: stranger.token }), 404);
    // The platform authenticates every epic call but GET: an anonymous caller is told what anyone is of a private group.
    expectStatus(await api(`/groups/${g.id}/epics`, { token: null }), 404);
    const open = await buildGroup({ visibility: 'public' });
    await created(open.id, { title: 'Public plan' });
    await created(open.id, { title: 'Hidden plan', confidential: true });
    assert.deepEqual(await titles(open.id, '', stranger.token), ['Public plan']);
    assert.deepEqual(await titles(open.id, '', null), ['Public plan']);
  });
});

describe('GET /groups/:id/epics/:epic_iid', () => {
  it('answers the epic, 404 for an unknown iid and for a confidential one a Guest may not see', async () => {
    const e = await created(top.id, { title: 'Single', confidential: true });
    const res = await api(`/groups/${top.id}/epics/${e.iid}`, { token: reporter.token });
    expectStatus(res, 200);
    const got = expectShape(epic, res.body);
    assert.equal(got.id, e.id);
    assert.equal(got.subscribed, false);
    const asGuest = await api(`/groups/${top.id}/epics/${e.iid}`, { token: guest.token });
    expectStatus(asGuest, 404);
    assert.equal(asGuest.body.message, '404 Epic Not Found');
    expectStatus(await api(`/groups/${top.id}/epics/999999`), 404);
    expectStatus(await api(`/groups/${top.id}/epics/abc`), 404);
  });
  it('answers an anonymous caller a public group’s epic, and 404 for a confidential one or one of a private group', async () => {
    const open = await buildGroup({ visibility: 'public' });
    const plain = await created(open.id, { title: 'Open plan' });
    const hidden = await created(open.id, { title: 'Closed doors', confidential: true });
    const res = await api(`/groups/${open.id}/epics/${plain.iid}`, { token: null });
    expectStatus(res, 200);
    assert.equal(expectShape(epic, res.body).title, 'Open plan');
    const confidential = await api(`/groups/${open.id}/epics/${hidden.iid}`, { token: null });
    expectStatus(confidential, 404);
    assert.equal(confidential.body.message, '404 Epic Not Found');
    const closed = await created(top.id, { title: 'Private plan' });
    const private_ = await api(`/groups/${top.id}/epics/${closed.iid}`, { token: null });
    expectStatus(private_, 404);
    assert.equal(private_.body.message, '404 Group Not Found');
    // Writing still needs a signed-in caller.
    expectStatus(await create(open.id, { title: 'Anonymous' }, null), 401);
  });
  it('hides derived dates and color from those who may not edit', async () => {
    const open = await buildGroup({ visibility: 'public' });
    const e = await created(open.id, { title: 'Public' });
    const g = await userWithRole(open.id, 10);
    const got = expectShape(epic, (await api(`/groups/${open.id}/epics/${e.iid}`, { token: g.token })).body);
    assert.equal('start_date_from_inherited_source' in got, false);
    assert.equal('color' in got, false);
  });
});

describe('PUT /groups/:id/epics/:epic_iid', () => {
  it('edits, closes and reopens, recording an activity event for each state change', async () => {
    const e = await created(top.id, { title: 'Moving' }, reporter.token);
    const put = (json: object, token?: string) => api(`/groups/${top.id}/epics/${e.iid}`, { method: 'PUT', json, token });
    const edited = await put({ title: 'Moved', due_date_is_fixed: true, due_date_fixed: '2026-12-24' }, reporter.token);
    expectStatus(edited, 200);
    assert.equal(edited.body.title, 'Moved');
    assert.equal(edited.body.due_date, '2026-12-24');
    const closed = await put({ state_event: 'close' }, reporter.token);
    assert.equal(closed.body.state, 'closed');
    assert.ok(closed.body.closed_at);
    const again = await put({ state_event: 'close' }, reporter.token);
    assert.equal(again.body.closed_at, closed.body.closed_at, 'closing a closed epic changes nothing');
    const reopened = await put({ state_event: 'reopen' }, reporter.token);
    assert.equal(reopened.body.state, 'opened');
    assert.equal(reopened.body.closed_at, null);
    const rows = await server.running.db.selectFrom('events').select(['action_name', 'group_id', 'project_id']).where('target_type', '=', 'Epic').where('target_id', '=', e.id).orderBy('id').execute();
    assert.deepEqual(rows.map((r) => r.action_name), ['opened', 'closed', 'reopened']);
    assert.ok(rows.every((r) => r.group_id === top.id && r.project_id === null));
    const events = await api(`/groups/${top.id}/epics/${e.id}/resource_state_events`, { token: guest.token });
    expectStatus(events, 200);
    const states = expectShape(z.array(resourceStateEvent), events.body);
    assert.deepEqual(states.map((s) => [s.state, s.resource_type, s.resource_id, s.user?.id]), [['closed', 'Epic', e.id, reporter.user.id], ['opened', 'Epic', e.id, reporter.user.id]]);
    const one = await api(`/groups/${top.id}/epics/${e.id}/resource_state_events/${states[1].id}`);
    expectStatus(one, 200);
    assert.equal(one.body.state, 'opened');
    expectStatus(await api(`/groups/${top.id}/epics/${e.id}/resource_state_events/999999999`), 404);
    const never = await created(top.id, { title: 'Never closed' });
    assert.deepEqual((await api(`/groups/${top.id}/epics/${never.id}/resource_state_events`)).body, [], 'creation is not a state event');
    expectStatus(await api(`/groups/${top.id}/epics/${never.id}/resource_state_events/${states[0].id}`), 404);
    const own = await api('/events?per_page=100', { token: reporter.token });
    assert.ok(!own.body.some((ev: { target_type: string | null }) => ev.target_type === 'Epic'), 'the events API leaves epic events out');
  });

  it('state events address the epic by its id, as the platform’s routes do (epic_id), not by its iid', async () => {
    const g = await buildGroup();
    // Epics of another group first, so that the id and the iid of an epic of g differ.
    for (const title of ['a', 'b', 'c']) await created(top.id, { title });
    const e = await created(g.id, { title: 'Addressed by id' });
    assert.notEqual(e.id, e.iid);
    expectStatus(await api(`/groups/${g.id}/epics/${e.iid}`, { method: 'PUT', json: { state_event: 'close' } }), 200);
    const byId = await api(`/groups/${g.id}/epics/${e.id}/resource_state_events`);
    expectStatus(byId, 200);
    const states = expectShape(z.array(resourceStateEvent), byId.body);
    assert.deepEqual(states.map((s) => [s.state, s.resource_type, s.resource_id]), [['closed', 'Epic', e.id]]);
    expectStatus(await api(`/groups/${g.id}/epics/${e.id}/resource_state_events/${states[0].id}`), 200);
    const byIid = await api(`/groups/${g.id}/epics/${e.iid}/resource_state_events`);
    expectStatus(byIid, 404);
    assert.deepEqual(byIid.body, { message: '404 Epic Not Found' });
    expectStatus(await api(`/groups/${g.id}/epics/${e.iid}/resource_state_events/${states[0].id}`), 404);
    // An epic of a subgroup through its ancestor (the platform's epic finder includes descendants), not the other way round.
    const child = await buildGroup({ parent_id: g.id });
    const below = await created(child.id, { title: 'Below' });
    expectStatus(await api(`/groups/${g.id}/epics/${below.id}/resource_state_events`), 200);
    expectStatus(await api(`/groups/${child.id}/epics/${e.id}/resource_state_events`), 404);
    // A confidential epic stays hidden from a Guest, by id as by iid.
    const secret = await created(g.id, { title: 'Secret', confidential: true });
    const guestOfG = await userWithRole(g.id, 10);
    expectStatus(await api(`/groups/${g.id}/epics/${secret.id}/resource_state_events`, { token: guestOfG.token }), 404);
    expectStatus(await api(`/groups/${g.id}/epics/${e.id}/resource_state_events`, { token: guestOfG.token }), 200);
  });

  it('refuses a parent that would make a cycle, a Guest (403), bad input (400)', async () => {
    const parent = await created(top.id, { title: 'Parent' });
    const childEpic = await created(top.id, { title: 'Child', parent_id: parent.id });
    const res = await api(`/groups/${top.id}/epics/${parent.iid}`, { method: 'PUT', json: { parent_id: childEpic.id } });
    expectStatus(res, 400);
    assert.ok(res.body.message.parent_id);
    expectStatus(await api(`/groups/${top.id}/epics/${parent.iid}`, { method: 'PUT', json: { title: 'x' }, token: guest.token }), 403);
    expectStatus(await api(`/groups/${top.id}/epics/${parent.iid}`, { method: 'PUT', json: { state_event: 'explode' } }), 400);
    expectStatus(await api(`/groups/${top.id}/epics/${parent.iid}`, { method: 'PUT', json: { title: '' } }), 400);
    expectStatus(await api(`/groups/${top.id}/epics/999999`, { method: 'PUT', json: { title: 'x' } }), 404);
    const same = await api(`/groups/${top.id}/epics/${parent.iid}`);
    assert.equal(same.body.title, 'Parent');
  });
});

describe('labels of epics', () => {
  it('sets labels by title (new titles become group labels), filters by labels and not[labels], shows details', async () => {
    const g = await buildGroup();
    const a = await created(g.id, { title: 'A', labels: 'backend,urgent' });
    assert.deepEqual(a.labels, ['backend', 'urgent']);
    await created(g.id, { title: 'B', labels: ['backend'] });
    await created(g.id, { title: 'C' });
    assert.deepEqual(await titles(g.id, '?labels=backend&order_by=title&sort=asc'), ['A', 'B']);
    assert.deepEqual(await titles(g.id, '?labels=backend,urgent'), ['A']);
    assert.deepEqual(await titles(g.id, '?not[labels]=urgent&order_by=title&sort=asc'), ['B', 'C']);
    const detailed = expectShape(z.array(epic), (await api(`/groups/${g.id}/epics?with_labels_details=true&labels=urgent`)).body);
    assert.deepEqual((detailed[0].labels as { name: string }[]).map((l) => l.name), ['backend', 'urgent']);
    const put = await api(`/groups/${g.id}/epics/${a.iid}`, { method: 'PUT', json: { add_labels: 'docs', remove_labels: 'urgent' } });
    expectStatus(put, 200);
    assert.deepEqual(put.body.labels, ['backend', 'docs']);
    const replaced = await api(`/groups/${g.id}/epics/${a.iid}`, { method: 'PUT', json: { labels: '' } });
    assert.deepEqual(replaced.body.labels, []);
  });
});
