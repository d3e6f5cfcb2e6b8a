import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { issueLink, linkedIssue } from '../../../shared/src/issue-links.ts';
import { buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { expectPlatformSchema } from '../../test/platform-schemas.ts';

let server: TestServer;
let project: { id: number };
let other: { id: number };
let reporter: Awaited<ReturnType<typeof userWithRole>>;
let guest: Awaited<ReturnType<typeof userWithRole>>;
/** Issues: a and b in the project, c in another project of which the guest is not a member. */
const iss = {} as Record<'a' | 'b' | 'c', { id: number; iid: number }>;

before(async () => {
  server = await startTestServer();
  const group = await buildGroup();
  project = await buildProject(group.id);
  const otherGroup = await buildGroup();
  other = await buildProject(otherGroup.id);
  reporter = await userWithRole(group.id, 20);
  guest = await userWithRole(group.id, 10);
  await api(`/projects/${other.id}/members`, { method: 'POST', json: { user_id: reporter.user.id, access_level: 20 } });
  const open = async (p: { id: number }, title: string) => {
    const res = await api(`/projects/${p.id}/issues`, { method: 'POST', json: { title } });
    expectStatus(res, 201);
    return { id: res.body.id as number, iid: res.body.iid as number };
  };
  iss.a = await open(project, 'A');
  iss.b = await open(project, 'B');
  iss.c = await open(other, 'C');
});
after(() => server.close());

const links = (i: { iid: number }, p = project) => `/projects/${p.id}/issues/${i.iid}/links`;
/** The platform's schema of a link, with the issues' users given the avatar URL the platform always has. */
const platformShape = (body: unknown) => expectPlatformSchema('public_api/v4/issue_link.json', JSON.parse(JSON.stringify(body).replace(/"avatar_url":null/g, '"avatar_url":"https://avatar.invalid/a.png"')));

describe('POST /projects/:id/issues/:issue_iid/links', () => {
  it('as a Reporter of both projects: links across projects; is_blocked_by is stored as blocks reversed', async () => {
    const res = await api(links(iss.a), { method: 'POST', token: reporter.token, json: { target_project_id: other.id, target_issue_iid: iss.c.iid, link_type: 'is_blocked_by' } });
    expectStatus(res, 201);
    const l = expectShape(issueLink, res.body);
    assert.deepEqual([l.source_issue.id, l.target_issue.id, l.link_type], [iss.c.id, iss.a.id, 'blocks']);
    platformShape(res.body);
    const rel = await api(links(iss.a), { method: 'POST', token: reporter.token, form: { target_project_id: String(project.id), target_issue_iid: String(iss.b.iid) } });
    expectStatus(rel, 201);
    assert.equal(rel.body.link_type, 'relates_to');
  });

  it('a duplicate (either way round): 409; itself: 400; a Guest: 403; an issue that is not there: 404', async () => {
    const dup = await api(links(iss.b), { method: 'POST', token: reporter.token, json: { target_project_id: project.id, target_issue_iid: iss.a.iid } });
    expectStatus(dup, 409);
    assert.deepEqual(dup.body, { message: 'Issue(s) already assigned' });
    expectStatus(await api(links(iss.a), { method: 'POST', token: reporter.token, json: { target_project_id: project.id, target_issue_iid: iss.a.iid } }), 400);
    expectStatus(await api(links(iss.a), { method: 'POST', token: guest.token, json: { target_project_id: project.id, target_issue_iid: iss.b.iid } }), 403);
    expectStatus(await api(links(iss.a), { method: 'POST', token: reporter.token, json: { target_project_id: project.id, target_issue_iid: 98765 } }), 404);
    const bad = await api(links(iss.a), { method: 'POST', token: reporter.token, json: { target_project_id: project.id, target_issue_iid: iss.b.iid, link_type: 'duplicates' } });
    expectStatus(bad, 400);
  });
});

describe('GET /projects/:id/issues/:issue_iid/links[/:issue_link_id]', () => {
  it('lists the linked issues by link creation, each type seen from the issue asked about', async () => {
    const res = await api(links(iss.a), { token: reporter.token });
    expectStatus(res, 200);
    const list = expectShape(z.array(linkedIssue), res.body);
    assert.deepEqual(list.map((i) => [i.id, i.link_type]), [[iss.c.id, 'is_blocked_by'], [iss.b.id, 'relates_to']]);
    const fromC = expectShape(z.array(linkedIssue), (await api(links(iss.c, other), { token: reporter.token })).body);
    assert.deepEqual(fromC.map((i) => [i.id, i.link_type]), [[iss.a.id, 'blocks']]);
  });

  it('hides the issues the caller may not read', async () => {
    const res = await api(links(iss.a), { token: guest.token });
    expectStatus(res, 200);
    assert.deepEqual(res.body.map((i: { id: number }) => i.id), [iss.b.id]);
    const toC = (await api(links(iss.a), { token: reporter.token })).body[0].issue_link_id;
    expectStatus(await api(`${links(iss.a)}/${toC}`, { token: guest.token }), 404);
    const one = await api(`${links(iss.a)}/${toC}`, { token: reporter.token });
    expectStatus(one, 200);
    assert.equal(expectShape(issueLink, one.body).link_type, 'blocks');
    // A link of another issue is not found, in the platform's words for a missing record.
    const elsewhere = await api(`${links(iss.b)}/${toC}`, { token: reporter.token });
    expectStatus(elsewhere, 404);
    assert.deepEqual(elsewhere.body, { message: '404 Not found' });
  });
});

describe('DELETE /projects/:id/issues/:issue_iid/links/:issue_link_id', () => {
  it('removes the two-way link and answers both sides; a Guest: 403', async () => {
    const [, rel] = (await api(links(iss.a), { token: reporter.token })).body as { issue_link_id: number }[];
    expectStatus(await api(`${links(iss.b)}/${rel.issue_link_id}`, { method: 'DELETE', token: guest.token }), 403);
    const res = await api(`${links(iss.b)}/${rel.issue_link_id}`, { method: 'DELETE', token: reporter.token });
    expectStatus(res, 200);
    const l = expectShape(issueLink, res.body);
    assert.deepEqual([l.source_issue.id, l.target_issue.id, l.link_type], [iss.a.id, iss.b.id, 'relates_to']);
    assert.deepEqual((await api(links(iss.b), { token: reporter.token })).body, []);
  });
});
