import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { z } from 'zod';
import { routes } from '../src/api/index.ts';
import { addMember, buildGroup, buildProject, buildUser, expectStatus, request as api, routeKey, startTestServer, type TestServer } from './harness.ts';
import { insertFindings } from './export-fixtures.ts';
import { mergeRequest, mergeRequestBasic, mergeRequestChanges, mergeRequestDiff } from '../../shared/src/merge-requests.ts';
import { issue } from '../../shared/src/issues.ts';
import { linkedIssue, issueLink } from '../../shared/src/issue-links.ts';
import { burndownEvent } from '../../shared/src/burndown.ts';
import { activityEvent } from '../../shared/src/events.ts';
import { epic, resourceStateEvent as epicStateEvent } from '../../shared/src/epics.ts';
import { resourceStateEvent } from '../../shared/src/resource-state-events.ts';
import { vulnerability, vulnerabilityDetail } from '../../shared/src/vulnerabilities.ts';
import { snippet } from '../../shared/src/snippets.ts';
import { note } from '../../shared/src/notes.ts';
import { branch, commit } from '../../shared/src/branches.ts';
import { commitDetail, commitListItem } from '../../shared/src/commits.ts';

/**
 * The authorisation matrix's "through another route" part. A thing refused to a caller on its
 * own route (a merge request, code, a confidential issue, a vulnerability, an epic…) must not
 * reach them through any other route that can show it: lists that span projects, milestones,
 * burndowns, linked issues, activity feeds. The table below says, for each kind of thing, its own
 * route and every other route that can show it; each caller whom the own route refuses is
 * checked on all the others, and a member who may see the thing is checked to see it on every
 * one of them (so a row whose path no longer reaches the thing fails rather than passes). The
 * last test holds the table complete: every GET route answering one of the schemas these things
 * are shown in must be named in a row.
 */

interface Made {
  marker: string;
  ids: Record<string, number | string>;
}
/** How a route is reached for a thing: its key in the route table and the path for the thing made. */
interface Via {
  route: string;
  path: (m: Made) => string;
}
interface Exposure {
  thing: string;
  /** The callers (of CALLERS) the thing's own route refuses. */
  refusedTo: CallerName[];
  make: () => Promise<Made>;
  /** Whether an answer shows the thing (its marker, or its id where the answer carries no text of it). */
  shows?: (m: Made, text: string, body: unknown) => boolean;
  own: Via;
  others: Via[];
  /** The response schemas this thing is shown in. */
  schemas: z.ZodType[];
}

let server: TestServer;
/** Private group and project; a public group with a public and a private project. */
const fx = {} as { group: { id: number }; project: { id: number }; open: { id: number }; openProject: { id: number }; closedProject: { id: number }; milestone: number; openMilestone: number; projectMilestone: number; openProjectMilestone: number; rootId: number };
/** The callers, each with a credential made before the tests run; the Developer (of both groups) is the member who may see every thing. */
const CALLERS = [
  { name: 'anonymous' },
  { name: 'a signed-in non-member' },
  { name: 'a Guest', level: 10 },
  { name: 'a Reporter', level: 20 },
  { name: 'a Developer', level: 30, insider: true },
  { name: 'an administrator', admin: true },
] as const;
type Caller = (typeof CALLERS)[number] & { level?: number; insider?: boolean; admin?: boolean };
type CallerName = (typeof CALLERS)[number]['name'];
const tokens = new Map<string, string | null>();
const mark = (what: string) => `zz${what}${crypto.randomBytes(4).toString('hex')}`;

async function ok(path: string, init: Parameters<typeof api>[1], status: number) {
  const res = await api(path, init);
  expectStatus(res, status);
  return res.body;
}

/** The activity feeds that can show a thing of a project: the project's, its author's (root's) and a member's own with scope=all. */
const feeds = (project: (m: Made) => number): Via[] => [
  { route: 'GET /projects/:id/events', path: (m) => `/projects/${project(m)}/events?per_page=100` },
  { route: 'GET /users/:user_id/events', path: () => `/users/${fx.rootId}/events?per_page=100` },
  { route: 'GET /events', path: () => '/events?scope=all&per_page=100' },
];
const inEventsAs = (type: string) => (m: Made, text: string, body: unknown) =>
  text.includes(m.marker) || (Array.isArray(body) && body.some((e: { target_type?: string; target_id?: number }) => e.target_type === type && e.target_id === m.ids.target));

const EXPOSURES: Exposure[] = [
  {
    thing: 'a merge request of a private project',
    refusedTo: ['anonymous', 'a signed-in non-member', 'a Guest'],
    make: async () => {
      const marker = mark('mr');
      const p = fx.project.id;
      const topic = await ok(`/projects/${p}/repository/commits`, { method: 'POST', json: { branch: `topic-${marker}`, start_branch: 'main', commit_message: 'topic', actions: [{ action: 'create', file_path: 'topic.txt', content: marker }] } }, 201);
      const mr = await ok(`/projects/${p}/merge_requests`, { method: 'POST', json: { source_branch: `topic-${marker}`, target_branch: 'main', title: `Title ${marker}`, description: marker, milestone_id: fx.milestone } }, 201);
      await ok(`/projects/${p}/merge_requests/${mr.iid}`, { method: 'PUT', json: { state_event: 'close' } }, 200);
      await ok(`/projects/${p}/merge_requests/${mr.iid}`, { method: 'PUT', json: { state_event: 'reopen' } }, 200);
      const event = (await ok(`/projects/${p}/merge_requests/${mr.iid}/resource_state_events`, {}, 200))[0];
      return { marker, ids: { iid: mr.iid, target: mr.id, event: event.id, sha: topic.id } };
    },
    shows: (m, text, body) => inEventsAs('MergeRequest')(m, text, body) || (Array.isArray(body) ? body : [body]).some((e: { resource_type?: string; resource_id?: number }) => e?.resource_type === 'MergeRequest' && e.resource_id === m.ids.target),
    own: { route: 'GET /projects/:id/merge_requests/:merge_request_iid', path: (m) => `/projects/${fx.project.id}/merge_requests/${m.ids.iid}` },
    others: [
      { route: 'GET /projects/:id/merge_requests', path: () => `/projects/${fx.project.id}/merge_requests` },
      { route: 'GET /projects/:id/merge_requests/:merge_request_iid/changes', path: (m) => `/projects/${fx.project.id}/merge_requests/${m.ids.iid}/changes` },
      { route: 'GET /projects/:id/merge_requests/:merge_request_iid/diffs', path: (m) => `/projects/${fx.project.id}/merge_requests/${m.ids.iid}/diffs` },
      { route: 'GET /projects/:id/repository/commits/:sha/diff', path: (m) => `/projects/${fx.project.id}/repository/commits/${m.ids.sha}/diff` },
      { route: 'GET /projects/:id/merge_requests/:merge_request_iid/resource_state_events', path: (m) => `/projects/${fx.project.id}/merge_requests/${m.ids.iid}/resource_state_events` },
      { route: 'GET /projects/:id/merge_requests/:merge_request_iid/resource_state_events/:resource_state_event_id', path: (m) => `/projects/${fx.project.id}/merge_requests/${m.ids.iid}/resource_state_events/${m.ids.event}` },
      { route: 'GET /groups/:id/merge_requests', path: () => `/groups/${fx.group.id}/merge_requests?per_page=100` },
      { route: 'GET /groups/:id/milestones/:milestone_id/merge_requests', path: () => `/groups/${fx.group.id}/milestones/${fx.milestone}/merge_requests?per_page=100` },
      ...feeds(() => fx.project.id),
    ],
    schemas: [mergeRequestBasic, mergeRequest, mergeRequestChanges, mergeRequestDiff, resourceStateEvent, activityEvent],
  },
  {
    thing: 'a comment on a merge request of a private project',
    refusedTo: ['anonymous', 'a signed-in non-member', 'a Guest'],
    make: async () => {
      const marker = mark('mrnote');
      const p = fx.project.id;
      await ok(`/projects/${p}/repository/commits`, { method: 'POST', json: { branch: `c-${marker}`, start_branch: 'main', commit_message: 'c', actions: [{ action: 'create', file_path: 'c.txt', content: 'c' }] } }, 201);
      const mr = await ok(`/projects/${p}/merge_requests`, { method: 'POST', json: { source_branch: `c-${marker}`, target_branch: 'main', title: 'Commented' } }, 201);
      const n = await ok(`/projects/${p}/merge_requests/${mr.iid}/notes`, { method: 'POST', json: { body: `Body ${marker}` } }, 201);
      return { marker, ids: { iid: mr.iid, note: n.id } };
    },
    own: { route: 'GET /projects/:id/merge_requests/:merge_request_iid/notes/:note_id', path: (m) => `/projects/${fx.project.id}/merge_requests/${m.ids.iid}/notes/${m.ids.note}` },
    others: [{ route: 'GET /projects/:id/merge_requests/:merge_request_iid/notes', path: (m) => `/projects/${fx.project.id}/merge_requests/${m.ids.iid}/notes` }, ...feeds(() => fx.project.id)],
    schemas: [note, activityEvent],
  },
  {
    thing: 'the code of a private project (its commits, branches and pushes)',
    refusedTo: ['anonymous', 'a signed-in non-member', 'a Guest'],
    make: async () => {
      const marker = mark('code');
      const p = fx.project.id;
      const made = await ok(`/projects/${p}/repository/commits`, { method: 'POST', json: { branch: `b-${marker}`, start_branch: 'main', commit_message: `Commit ${marker}`, actions: [{ action: 'create', file_path: `${marker}.txt`, content: marker }] } }, 201);
      const mr = await ok(`/projects/${p}/merge_requests`, { method: 'POST', json: { source_branch: `b-${marker}`, target_branch: 'main', title: 'Carries the code' } }, 201);
      return { marker, ids: { sha: made.id, branch: `b-${marker}`, iid: mr.iid } };
    },
    own: { route: 'GET /projects/:id/repository/commits/:sha', path: (m) => `/projects/${fx.project.id}/repository/commits/${m.ids.sha}` },
    others: [
      { route: 'GET /projects/:id/repository/commits', path: (m) => `/projects/${fx.project.id}/repository/commits?ref_name=${m.ids.branch}` },
      { route: 'GET /projects/:id/repository/branches', path: () => `/projects/${fx.project.id}/repository/branches?per_page=100` },
      { route: 'GET /projects/:id/repository/branches/:branch', path: (m) => `/projects/${fx.project.id}/repository/branches/${m.ids.branch}` },
      { route: 'GET /projects/:id/repository/compare', path: (m) => `/projects/${fx.project.id}/repository/compare?from=main&to=${m.ids.branch}` },
      { route: 'GET /projects/:id/repository/commits/:sha/diff', path: (m) => `/projects/${fx.project.id}/repository/commits/${m.ids.sha}/diff` },
      { route: 'GET /projects/:id/merge_requests/:merge_request_iid/commits', path: (m) => `/projects/${fx.project.id}/merge_requests/${m.ids.iid}/commits` },
      ...feeds(() => fx.project.id),
    ],
    schemas: [commit, commitListItem, commitDetail, branch, activityEvent],
  },
  {
    thing: 'a confidential issue of a public project',
    refusedTo: ['anonymous', 'a signed-in non-member', 'a Guest'],
    make: async () => {
      const marker = mark('conf');
      const p = fx.openProject.id;
      const secret = await ok(`/projects/${p}/issues`, { method: 'POST', json: { title: `Secret ${marker}`, confidential: true, milestone_id: fx.openMilestone } }, 201);
      const plain = await ok(`/projects/${p}/issues`, { method: 'POST', json: { title: 'Plain' } }, 201);
      await ok(`/projects/${p}/issues/${plain.iid}/links`, { method: 'POST', json: { target_project_id: p, target_issue_iid: secret.iid } }, 201);
      const link = (await ok(`/projects/${p}/issues/${plain.iid}/links`, {}, 200))[0].issue_link_id;
      await ok(`/projects/${p}/issues/${secret.iid}`, { method: 'PUT', json: { state_event: 'close' } }, 200);
      const event = (await ok(`/projects/${p}/issues/${secret.iid}/resource_state_events`, {}, 200))[0];
      return { marker, ids: { iid: secret.iid, target: secret.id, plain: plain.iid, link, event: event.id } };
    },
    shows: (m, text, body) =>
      inEventsAs('Issue')(m, text, body) || (Array.isArray(body) ? body : [body]).some((e: { issue_id?: number; resource_type?: string; resource_id?: number }) => e?.issue_id === m.ids.target || (e?.resource_type === 'Issue' && e.resource_id === m.ids.target)),
    own: { route: 'GET /projects/:id/issues/:issue_iid', path: (m) => `/projects/${fx.openProject.id}/issues/${m.ids.iid}` },
    others: [
      { route: 'GET /projects/:id/issues', path: () => `/projects/${fx.openProject.id}/issues?per_page=100` },
      { route: 'GET /groups/:id/issues', path: () => `/groups/${fx.open.id}/issues?per_page=100` },
      { route: 'GET /groups/:id/milestones/:milestone_id/issues', path: () => `/groups/${fx.open.id}/milestones/${fx.openMilestone}/issues?per_page=100` },
      { route: 'GET /groups/:id/milestones/:milestone_id/burndown_events', path: () => `/groups/${fx.open.id}/milestones/${fx.openMilestone}/burndown_events` },
      { route: 'GET /projects/:id/issues/:issue_iid/links', path: (m) => `/projects/${fx.openProject.id}/issues/${m.ids.plain}/links` },
      { route: 'GET /projects/:id/issues/:issue_iid/links/:issue_link_id', path: (m) => `/projects/${fx.openProject.id}/issues/${m.ids.plain}/links/${m.ids.link}` },
      { route: 'GET /projects/:id/issues/:issue_iid/resource_state_events', path: (m) => `/projects/${fx.openProject.id}/issues/${m.ids.iid}/resource_state_events` },
      { route: 'GET /projects/:id/issues/:issue_iid/resource_state_events/:resource_state_event_id', path: (m) => `/projects/${fx.openProject.id}/issues/${m.ids.iid}/resource_state_events/${m.ids.event}` },
      ...feeds(() => fx.openProject.id),
    ],
    schemas: [issue, linkedIssue, issueLink, burndownEvent, resourceStateEvent, activityEvent],
  },
  {
    thing: 'a merge request of a private project, on a milestone of its project',
    refusedTo: ['anonymous', 'a signed-in non-member', 'a Guest'],
    make: async () => {
      const marker = mark('pmr');
      const p = fx.project.id;
      await ok(`/projects/${p}/repository/commits`, { method: 'POST', json: { branch: `pm-${marker}`, start_branch: 'main', commit_message: 'pm', actions: [{ action: 'create', file_path: 'pm.txt', content: 'pm' }] } }, 201);
      const mr = await ok(`/projects/${p}/merge_requests`, { method: 'POST', json: { source_branch: `pm-${marker}`, target_branch: 'main', title: `Planned ${marker}`, milestone_id: fx.projectMilestone } }, 201);
      return { marker, ids: { iid: mr.iid } };
    },
    own: { route: 'GET /projects/:id/merge_requests/:merge_request_iid', path: (m) => `/projects/${fx.project.id}/merge_requests/${m.ids.iid}` },
    others: [{ route: 'GET /projects/:id/milestones/:milestone_id/merge_requests', path: () => `/projects/${fx.project.id}/milestones/${fx.projectMilestone}/merge_requests?per_page=100` }],
    schemas: [mergeRequestBasic],
  },
  {
    thing: 'a confidential issue of a public project, on a milestone of its project',
    refusedTo: ['anonymous', 'a signed-in non-member', 'a Guest'],
    make: async () => {
      const marker = mark('pconf');
      const made = await ok(`/projects/${fx.openProject.id}/issues`, { method: 'POST', json: { title: `Planned secret ${marker}`, confidential: true, milestone_id: fx.openProjectMilestone } }, 201);
      return { marker, ids: { iid: made.iid, target: made.id } };
    },
    shows: (m, text, body) => text.includes(m.marker) || (Array.isArray(body) && body.some((e: { issue_id?: number }) => e.issue_id === m.ids.target)),
    own: { route: 'GET /projects/:id/issues/:issue_iid', path: (m) => `/projects/${fx.openProject.id}/issues/${m.ids.iid}` },
    others: [
      { route: 'GET /projects/:id/milestones/:milestone_id/issues', path: () => `/projects/${fx.openProject.id}/milestones/${fx.openProjectMilestone}/issues?per_page=100` },
      { route: 'GET /projects/:id/milestones/:milestone_id/burndown_events', path: () => `/projects/${fx.openProject.id}/milestones/${fx.openProjectMilestone}/burndown_events` },
    ],
    schemas: [issue, burndownEvent],
  },
  {
    thing: 'an issue of a private project in a public group',
    refusedTo: ['anonymous', 'a signed-in non-member'],
    make: async () => {
      const marker = mark('closed');
      const made = await ok(`/projects/${fx.closedProject.id}/issues`, { method: 'POST', json: { title: `Inside ${marker}`, milestone_id: fx.openMilestone, weight: 3 } }, 201);
      return { marker, ids: { iid: made.iid, target: made.id } };
    },
    shows: (m, text, body) => inEventsAs('Issue')(m, text, body) || (Array.isArray(body) && body.some((e: { issue_id?: number }) => e.issue_id === m.ids.target)),
    own: { route: 'GET /projects/:id/issues/:issue_iid', path: (m) => `/projects/${fx.closedProject.id}/issues/${m.ids.iid}` },
    others: [
      { route: 'GET /groups/:id/issues', path: () => `/groups/${fx.open.id}/issues?per_page=100` },
      { route: 'GET /groups/:id/milestones/:milestone_id/issues', path: () => `/groups/${fx.open.id}/milestones/${fx.openMilestone}/issues?per_page=100` },
      { route: 'GET /groups/:id/milestones/:milestone_id/burndown_events', path: () => `/groups/${fx.open.id}/milestones/${fx.openMilestone}/burndown_events` },
      ...feeds(() => fx.closedProject.id),
    ],
    schemas: [issue, burndownEvent, activityEvent],
  },
  {
    thing: 'an internal comment on an issue of a public project',
    refusedTo: ['anonymous', 'a signed-in non-member', 'a Guest'],
    make: async () => {
      const marker = mark('internal');
      const p = fx.openProject.id;
      const i = await ok(`/projects/${p}/issues`, { method: 'POST', json: { title: 'Open' } }, 201);
      const n = await ok(`/projects/${p}/issues/${i.iid}/notes`, { method: 'POST', json: { body: `Internal ${marker}`, internal: true } }, 201);
      return { marker, ids: { iid: i.iid, note: n.id } };
    },
    own: { route: 'GET /projects/:id/issues/:issue_iid/notes/:note_id', path: (m) => `/projects/${fx.openProject.id}/issues/${m.ids.iid}/notes/${m.ids.note}` },
    others: [{ route: 'GET /projects/:id/issues/:issue_iid/notes', path: (m) => `/projects/${fx.openProject.id}/issues/${m.ids.iid}/notes` }, ...feeds(() => fx.openProject.id)],
    schemas: [note, activityEvent],
  },
  {
    thing: 'a vulnerability of a private project',
    refusedTo: ['anonymous', 'a signed-in non-member', 'a Guest', 'a Reporter'],
    make: async () => {
      const marker = mark('vuln');
      const identifiers = JSON.stringify([{ type: 'cwe', name: 'CWE-95', value: '95', url: 'https://cwe.mitre.org/data/definitions/95.html' }]);
      await insertFindings(server.running.db, fx.project.id, 1, { title: `Finding ${marker}`, identifiers });
      const v = await server.running.db.selectFrom('vulnerabilities').select('id').where('title', '=', `Finding ${marker}`).executeTakeFirstOrThrow();
      await ok(`/vulnerabilities/${v.id}/confirm`, { method: 'POST' }, 201);
      // The Developer's security dashboard holds the project, so its report shows the finding too.
      const onDashboard = await api('/security/dashboard/projects', { method: 'POST', json: { project_id: fx.project.id }, token: tokens.get('a Developer')! });
      assert.ok([200, 201].includes(onDashboard.status), `dashboard: ${onDashboard.status} ${onDashboard.text}`);
      return { marker, ids: { target: v.id } };
    },
    shows: inEventsAs('Vulnerability'),
    own: { route: 'GET /vulnerabilities/:id', path: (m) => `/vulnerabilities/${m.ids.target}` },
    others: [
      { route: 'GET /projects/:id/vulnerabilities', path: () => `/projects/${fx.project.id}/vulnerabilities?per_page=100` },
      { route: 'GET /api/console/groups/:id/vulnerabilities', path: () => `/api/console/groups/${fx.group.id}/vulnerabilities?per_page=100` },
      { route: 'GET /api/console/security/vulnerabilities', path: () => '/api/console/security/vulnerabilities?per_page=100' },
      ...feeds(() => fx.project.id),
    ],
    schemas: [vulnerability, vulnerabilityDetail, activityEvent],
  },
  {
    thing: 'a confidential epic of a public group',
    refusedTo: ['anonymous', 'a signed-in non-member', 'a Guest'],
    make: async () => {
      const marker = mark('epic');
      // The server's first epic: its id and its iid are one, whichever the state-event routes take.
      const e = await ok(`/groups/${fx.open.id}/epics`, { method: 'POST', json: { title: `Epic ${marker}`, confidential: true } }, 201);
      assert.equal(e.id, e.iid, 'the epic must be the server’s first');
      await ok(`/groups/${fx.open.id}/epics/${e.iid}`, { method: 'PUT', json: { state_event: 'close' } }, 200);
      const event = (await ok(`/groups/${fx.open.id}/epics/${e.iid}/resource_state_events`, {}, 200))[0];
      return { marker, ids: { iid: e.iid, target: e.id, event: event.id } };
    },
    shows: (m, text, body) => text.includes(m.marker) || (Array.isArray(body) ? body : [body]).some((e: { resource_type?: string; resource_id?: number }) => e?.resource_type === 'Epic' && e.resource_id === m.ids.target),
    own: { route: 'GET /groups/:id/epics/:epic_iid', path: (m) => `/groups/${fx.open.id}/epics/${m.ids.iid}` },
    others: [
      { route: 'GET /groups/:id/epics', path: () => `/groups/${fx.open.id}/epics?per_page=100` },
      { route: 'GET /groups/:id/epics/:epic_id/resource_state_events', path: (m) => `/groups/${fx.open.id}/epics/${m.ids.iid}/resource_state_events` },
      { route: 'GET /groups/:id/epics/:epic_id/resource_state_events/:resource_state_event_id', path: (m) => `/groups/${fx.open.id}/epics/${m.ids.iid}/resource_state_events/${m.ids.event}` },
    ],
    schemas: [epic, epicStateEvent],
  },
  {
    thing: 'a private snippet of a public project (and comments on it)',
    refusedTo: ['anonymous', 'a signed-in non-member'],
    make: async () => {
      const marker = mark('snip');
      const p = fx.openProject.id;
      const s = await ok(`/projects/${p}/snippets`, { method: 'POST', json: { title: `Snippet ${marker}`, visibility: 'private', files: [{ file_path: 'notes.txt', content: marker }] } }, 201);
      const n = await ok(`/projects/${p}/snippets/${s.id}/notes`, { method: 'POST', json: { body: `Comment ${marker}` } }, 201);
      return { marker, ids: { snippet: s.id, note: n.id } };
    },
    own: { route: 'GET /projects/:id/snippets/:snippet_id', path: (m) => `/projects/${fx.openProject.id}/snippets/${m.ids.snippet}` },
    others: [
      { route: 'GET /projects/:id/snippets', path: () => `/projects/${fx.openProject.id}/snippets?per_page=100` },
      { route: 'GET /projects/:id/snippets/:snippet_id/raw', path: (m) => `/projects/${fx.openProject.id}/snippets/${m.ids.snippet}/raw` },
      { route: 'GET /projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw', path: (m) => `/projects/${fx.openProject.id}/snippets/${m.ids.snippet}/files/main/notes.txt/raw` },
      { route: 'GET /projects/:id/snippets/:snippet_id/notes', path: (m) => `/projects/${fx.openProject.id}/snippets/${m.ids.snippet}/notes` },
      { route: 'GET /projects/:id/snippets/:snippet_id/notes/:note_id', path: (m) => `/projects/${fx.openProject.id}/snippets/${m.ids.snippet}/notes/${m.ids.note}` },
      ...feeds(() => fx.openProject.id),
    ],
    schemas: [snippet, note, activityEvent],
  },
];

const made = new Map<string, Made>();

before(async () => {
  server = await startTestServer({ GATEHOUSE_WORKERS: '0' });
  fx.rootId = (await ok('/user', {}, 200)).id;
  fx.group = await buildGroup();
  fx.project = await buildProject(fx.group.id);
  fx.open = await buildGroup({ visibility: 'public' });
  fx.openProject = await buildProject(fx.open.id, { visibility: 'public' });
  fx.closedProject = await buildProject(fx.open.id);
  await ok(`/projects/${fx.project.id}/repository/commits`, { method: 'POST', json: { branch: 'main', commit_message: 'First', actions: [{ action: 'create', file_path: 'README.md', content: 'readme\n' }] } }, 201);
  fx.milestone = (await ok(`/groups/${fx.group.id}/milestones`, { method: 'POST', json: { title: 'Private plan' } }, 201)).id;
  fx.openMilestone = (await ok(`/groups/${fx.open.id}/milestones`, { method: 'POST', json: { title: 'Public plan' } }, 201)).id;
  fx.projectMilestone = (await ok(`/projects/${fx.project.id}/milestones`, { method: 'POST', json: { title: 'Private project plan' } }, 201)).id;
  fx.openProjectMilestone = (await ok(`/projects/${fx.openProject.id}/milestones`, { method: 'POST', json: { title: 'Public project plan' } }, 201)).id;
  for (const c of CALLERS as readonly Caller[]) {
    if (c.name === 'anonymous') {
      tokens.set(c.name, null);
      continue;
    }
    const u = await buildUser({ admin: c.admin });
    for (const g of [fx.group, fx.open]) if (c.level) await addMember('groups', g.id, u.user.id, c.level);
    tokens.set(c.name, u.token);
  }
  for (const e of EXPOSURES) made.set(e.thing, await e.make());
});
after(() => server.close());

const answer = async (path: string, token: string | null) => {
  const res = await api(path, { token });
  return { status: res.status, text: res.text, body: res.body as unknown };
};
const showsOf = (e: Exposure) => e.shows ?? ((m: Made, text: string) => text.includes(m.marker));

for (const e of EXPOSURES) {
  describe(`${e.thing}: ${e.own.route}`, () => {
    for (const c of CALLERS as readonly Caller[]) {
      const refused = e.refusedTo.includes(c.name);
      const title = c.insider ? `as ${c.name}: seen on its own route and through every other route of the row` : refused ? `as ${c.name}: refused on its own route, and seen through no other` : `as ${c.name}: seen on its own route`;
      it(title, async () => {
        const m = made.get(e.thing)!;
        const shows = showsOf(e);
        const token = tokens.get(c.name)!;
        const own = await answer(e.own.path(m), token);
        const seesIt = own.status === 200 && shows(m, own.text, own.body);
        assert.equal(seesIt, !refused, `${e.own.route} as ${c.name}: ${own.status} ${own.text.slice(0, 200)}`);
        if (!refused && !c.insider) return;
        for (const via of e.others) {
          const got = await answer(via.path(m), token);
          assert.ok(got.status < 500, `${via.route} as ${c.name}: ${got.status}`);
          if (c.insider) {
            // The row's path reaches the thing: a member who may see it sees it there.
            assert.ok(got.status === 200 && shows(m, got.text, got.body), `${c.name} sees ${e.thing} on its own route but not through ${via.route} (${via.path(m)}): ${got.status} ${got.text.slice(0, 300)}`);
          } else {
            assert.ok(!shows(m, got.text, got.body), `${c.name} is refused ${e.thing} on ${e.own.route} (${own.status}) but sees it through ${via.route} (${via.path(m)}): ${got.text.slice(0, 300)}`);
          }
        }
      });
    }
  });
}

describe('the table of routes that can show a thing', () => {
  const keys = new Set(routes.map(routeKey));
  it('names only routes of the table', () => {
    const unknown = EXPOSURES.flatMap((e) => [e.own, ...e.others].map((v) => v.route)).filter((k) => !keys.has(k));
    assert.deepEqual(unknown, []);
  });
  it('names every GET route that answers a schema such a thing is shown in', () => {
    const listed = new Map<z.ZodType, Set<string>>();
    for (const e of EXPOSURES) for (const s of e.schemas) for (const v of [e.own, ...e.others]) (listed.get(s) ?? listed.set(s, new Set()).get(s)!).add(v.route);
    const missing = routes.flatMap((r) => {
      if (r.method !== 'get' || !r.response) return [];
      const schema = (r.response as unknown as { element?: z.ZodType }).element ?? r.response;
      const names = listed.get(schema);
      return names && !names.has(routeKey(r)) ? [routeKey(r)] : [];
    });
    assert.deepEqual(missing, [], 'add each to the row of what it shows, as the thing’s own route or another one');
  });
});
