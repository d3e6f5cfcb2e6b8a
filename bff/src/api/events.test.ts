import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { sql } from 'kysely';
import { activityEvent } from '../../../shared/src/events.ts';
import { addMember, buildGroup, buildProject, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { fillRepository } from '../../test/repository-fixture.ts';
import { insertFindings } from '../../test/export-fixtures.ts';
import { ACTION_NAMES, TARGET_TYPES, renumberAuthorEvents } from '../services/planning/events.ts';
import { EVENT_ACTIONS, EVENT_TARGET_TYPES, type EventListQuery } from '../../../shared/src/events.ts';

let server: TestServer;
let group: { id: number };
let project: { id: number };
let main: string[];
let developer: Awaited<ReturnType<typeof userWithRole>>;
const events = z.array(activityEvent);

before(async () => {
  server = await startTestServer();
  group = await buildGroup();
  project = await buildProject(group.id);
  developer = await userWithRole(group.id, 30);
  ({ main } = await fillRepository(project.id));
  const res = await api(`/projects/${project.id}/repository/commits`, {
    method: 'POST',
    token: developer.token,
    json: { branch: 'topic', start_branch: 'main', commit_message: 'Topic work\n\nwith a body', actions: [{ action: 'create', file_path: 'topic.txt', content: 'x\n' }] },
  });
  expectStatus(res, 201);
});
after(() => server.close());

const list = async (path: string, token?: string | null) => {
  const res = await api(path, { token });
  expectStatus(res, 200);
  return { res, body: expectShape(events, res.body) };
};

describe('GET /projects/:id/events', () => {
  it('lists pushes made through the API, newest first, with push_data and the author', async () => {
    const { res, body } = await list(`/projects/${project.id}/events`);
    assert.equal(res.headers.get('x-total'), '5');
    assert.deepEqual(body.map((e) => e.action_name), ['pushed', 'pushed', 'pushed', 'pushed', 'pushed']);
    const [topic, feature, , , first] = body;
    assert.equal(topic.author_id, developer.user.id);
    assert.equal(topic.author_username, developer.user.username);
    assert.equal(topic.author?.username, developer.user.username);
    assert.deepEqual(topic.push_data, { commit_count: 1, action: 'created', ref_type: 'branch', commit_from: null, commit_to: topic.push_data!.commit_to, ref: 'topic', commit_title: 'Topic work', ref_count: null });
    assert.equal(feature.push_data?.ref, 'feature');
    assert.deepEqual({ ...first.push_data, commit_title: first.push_data?.commit_title }, { commit_count: 1, action: 'created', ref_type: 'branch', commit_from: null, commit_to: main[0], ref: 'main', commit_title: 'Initial commit', ref_count: null });
    assert.equal(body[2].push_data?.commit_from, main[1]);
    assert.equal(body[2].push_data?.action, 'pushed');
    assert.equal(topic.project_id, project.id);
    assert.equal(topic.title, null);
    assert.equal(topic.target_type, null);
  });

  it('sorts ascending, filters by action, target type and dates (the days named excluded)', async () => {
    const asc = (await list(`/projects/${project.id}/events?sort=asc`)).body;
    const desc = (await list(`/projects/${project.id}/events`)).body;
    assert.deepEqual(asc.map((e) => e.id), desc.map((e) => e.id).reverse());
    assert.equal((await list(`/projects/${project.id}/events?action=pushed`)).body.length, 5);
    assert.equal((await list(`/projects/${project.id}/events?action=commented`)).body.length, 0);
    assert.equal((await list(`/projects/${project.id}/events?target_type=issue`)).body.length, 0);
    const day = desc[0].created_at.slice(0, 10);
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const prev = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    assert.equal((await list(`/projects/${project.id}/events?before=${day}`)).body.length, 0);
    assert.equal((await list(`/projects/${project.id}/events?after=${day}`)).body.length, 0);
    assert.equal((await list(`/projects/${project.id}/events?before=${next}&after=${prev}`)).body.length, 5);
  });

  it('pages by the events’ numbers in their project exactly as an offset would', async () => {
    const other = await buildProject(group.id);
    const at = new Date().toISOString();
    // One insert per row, as writers make them: the trigger numbers each.
    for (let i = 0; i < 45; i++) {
      await server.running.db.insertInto('events').values({ project_id: other.id, group_id: null, author_id: developer.user.id, action_name: 'pushed', target_type: null, target_id: null, push_data: null, created_at: at }).execute();
    }
    const all = (await server.running.db.selectFrom('events').select('id').where('project_id', '=', other.id).orderBy('id', 'desc').execute()).map((r) => r.id);
    for (const [page, sort] of [[1, 'desc'], [3, 'desc'], [2, 'asc'], [3, 'asc'], [4, 'desc']] as const) {
      const { res, body } = await list(`/projects/${other.id}/events?page=${page}&per_page=20&sort=${sort}`);
      const ordered = sort === 'desc' ? all : [...all].reverse();
      assert.deepEqual(body.map((e) => e.id), ordered.slice((page - 1) * 20, page * 20), `page ${page} ${sort}`);
      assert.equal(res.headers.get('x-total'), '45');
      assert.equal(res.headers.get('x-total-pages'), '3');
      assert.equal(res.headers.get('x-next-page'), page < 3 ? String(page + 1) : '');
    }
  });

  it('answers each filter with the rows an offset over the filtered events gives, page by page, in both orders', async () => {
    // Every stored action name and target type, over five days, one insert per row as writers make them.
    const names = [...new Set(Object.values(ACTION_NAMES).flat())].concat('something else');
    const types = [null, ...new Set(Object.values(TARGET_TYPES).flat())];
    const start = Date.parse('2025-03-10T20:00:00.000Z');
    const seed = async (projectId: number, at: (i: number) => string, author_id = developer.user.id) => {
      for (let i = 0; i < 70; i++) {
        const [action_name, target_type] = [names[i % names.length], types[(i * 7) % types.length]];
        await server.running.db.insertInto('events').values({ project_id: projectId, group_id: null, author_id, action_name, target_type, target_id: null, push_data: null, created_at: at(i) }).execute();
      }
    };
    const ordered = await buildProject(group.id);
    await seed(ordered.id, (i) => new Date(start + i * 1.5 * 3_600_000).toISOString());
    // Dates out of their written order (an import): its date filters read by offset.
    const shuffled = await buildProject(group.id);
    await seed(shuffled.id, (i) => new Date(start + ((i * 37) % 70) * 1.5 * 3_600_000).toISOString());

    const unordered = (await server.running.db.selectFrom('event_dates_unordered').select('project_id').where('project_id', 'in', [ordered.id, shuffled.id]).execute()).map((r) => r.project_id);
    assert.deepEqual(unordered, [shuffled.id], 'the project whose dates were written out of order is marked');

    const days = ['2025-03-09', '2025-03-11', '2025-03-12', '2025-03-14', '2025-03-20'];
    const filters = [
      ...EVENT_ACTIONS.map((a) => ({ action: a })),
      ...EVENT_TARGET_TYPES.map((t) => ({ target_type: t })),
      ...days.flatMap((d) => [{ after: d }, { before: d }]),
      { after: '2025-03-11', before: '2025-03-13' },
      { after: '2025-03-13', before: '2025-03-12' },
      { action: 'created' as const, target_type: 'issue' as const },
      { action: 'pushed' as const, after: '2025-03-11' },
    ];
    for (const p of [ordered, shuffled]) {
      for (const f of filters) {
        // What the filter meant before it had numbers: the rows it names, newest first, by offset.
        let expected = server.running.db.selectFrom('events').select('id').where('project_id', '=', p.id);
        if ('action' in f && f.action) expected = expected.where('action_name', 'in', ACTION_NAMES[f.action]);
        if ('target_type' in f && f.target_type) expected = expected.where('target_type', 'in', TARGET_TYPES[f.target_type]);
        if ('before' in f && f.before) expected = expected.where('created_at', '<', `${f.before}T00:00:00.000Z`);
        if ('after' in f && f.after) expected = expected.where('created_at', '>', `${f.after}T23:59:59.999Z`);
        const want = (await expected.orderBy('id', 'desc').execute()).map((r) => r.id);
        const query = new URLSearchParams(f as Record<string, string>).toString();
        for (const sort of ['desc', 'asc'] as const) {
          const all = sort === 'desc' ? want : [...want].reverse();
          for (let page = 1; page <= Math.max(1, Math.ceil(all.length / 4)) + 1; page++) {
            const { res, body } = await list(`/projects/${p.id}/events?${query}&sort=${sort}&per_page=4&page=${page}`);
            assert.deepEqual(body.map((e) => e.id), all.slice((page - 1) * 4, page * 4), `${query} ${sort} page ${page} of project ${p.id}`);
            assert.equal(res.headers.get('x-total'), String(all.length), `${query} total`);
          }
        }
      }
    }
    // The author's lists take the same filters across both projects: GET /users/:id/events as an
    // administrator (ranges of the author's numbers, migration 036) and GET /events as the author
    // (read by offset, each row checked), in both orders.
    // One of each kind of filter, for the states after the first.
    const someFilters = [{}, { action: 'pushed' as const }, { target_type: 'note' as const }, { after: '2025-03-11' }, { before: '2025-03-14' }, { after: '2025-03-11', before: '2025-03-13' }, { action: 'created' as const, target_type: 'issue' as const }];
    const authorLists = async (author: { user: { id: number }; token: string }, label: string, which: Partial<Pick<EventListQuery, 'action' | 'target_type' | 'before' | 'after'>>[], asAuthor: boolean) => {
      // What the author may read of their own (the read rule hides some kinds from a Developer).
      const own: number[] = [];
      for (let page = 1; ; page++) {
        const { body } = await list(`/events?per_page=100&page=${page}`, author.token);
        own.push(...body.map((e) => e.id));
        if (body.length < 100) break;
      }
      const everything = (await server.running.db.selectFrom('events').select('id').where('author_id', '=', author.user.id).where('project_id', 'is not', null).orderBy('id', 'desc').execute()).map((r) => r.id);
      assert.deepEqual(own, everything.filter((id) => own.includes(id)), `${label}: the author's own, newest first`);
      assert.ok(own.length >= 20 && own.length < everything.length, `${label}: the author reads ${own.length} of their own ${everything.length} (some kinds are hidden from a Developer)`);
      for (const f of which) {
        let expected = server.running.db.selectFrom('events').select('id').where('author_id', '=', author.user.id).where('project_id', 'is not', null);
        if (f.action) expected = expected.where('action_name', 'in', ACTION_NAMES[f.action]);
        if (f.target_type) expected = expected.where('target_type', 'in', TARGET_TYPES[f.target_type]);
        if (f.before) expected = expected.where('created_at', '<', `${f.before}T00:00:00.000Z`);
        if (f.after) expected = expected.where('created_at', '>', `${f.after}T23:59:59.999Z`);
        const want = (await expected.orderBy('id', 'desc').execute()).map((r) => r.id);
        const query = new URLSearchParams(f as Record<string, string>).toString();
        for (const sort of ['desc', 'asc'] as const) {
          const all = sort === 'desc' ? want : [...want].reverse();
          for (const page of [1, 2, Math.ceil(all.length / 10) + 1]) {
            const lists = [[`/users/${author.user.id}/events`, undefined, all] as const, ['/events', author.token, all.filter((id) => own.includes(id))] as const];
            for (const [path, token, rows] of asAuthor ? lists : lists.slice(0, 1)) {
              const { res, body } = await list(`${path}?${query}&sort=${sort}&per_page=10&page=${page}`, token);
              assert.deepEqual(body.map((e) => e.id), rows.slice((page - 1) * 10, page * 10), `${label}: ${path} ${query} ${sort} page ${page}`);
              assert.equal(res.headers.get('x-total'), String(rows.length), `${label}: ${path} ${query} total`);
            }
          }
        }
      }
    };
    const marks = async (table: 'author_event_gaps' | 'author_event_dates_unordered', id: number) => (await server.running.db.selectFrom(table).select('author_id').where('author_id', '=', id).execute()).length;
    // The developer wrote events dated out of order (the shuffled project): their date filters read by offset.
    assert.equal(await marks('author_event_dates_unordered', developer.user.id), 1);
    await authorLists(developer, 'dates out of order', [{}, ...filters], false);
    // A second author, in the order of the dates: every filter alone is a range of their numbers.
    const writer = await userWithRole(group.id, 30);
    await seed(ordered.id, (i) => new Date(start + i * 1.5 * 3_600_000).toISOString(), writer.user.id);
    await seed(shuffled.id, (i) => new Date(start + (70 + i) * 1.5 * 3_600_000).toISOString(), writer.user.id);
    assert.equal(await marks('author_event_dates_unordered', writer.user.id), 0);
    await authorLists(writer, 'in date order', [{}, ...filters], false);
    // Deleting a project leaves gaps in both authors' numbers: their lists read by offset, until
    // housekeeping numbers their events again.
    expectStatus(await api(`/projects/${shuffled.id}`, { method: 'DELETE' }), 202);
    assert.deepEqual([await marks('author_event_gaps', developer.user.id), await marks('author_event_gaps', writer.user.id)], [1, 1]);
    await authorLists(writer, 'with gaps', someFilters, false);
    assert.ok((await renumberAuthorEvents(server.running.db)) >= 2);
    assert.deepEqual([await marks('author_event_gaps', developer.user.id), await marks('author_event_gaps', writer.user.id)], [0, 0]);
    await authorLists(writer, 'numbered again', someFilters, true);
    // A Guest, whom the read rule refuses some events, gets its rows filtered: a filter takes
    // from what the caller may see, and the numbers (which count every event) are not used.
    const guest = await userWithRole(group.id, 10);
    const visible = (await list(`/projects/${ordered.id}/events?per_page=100`, guest.token)).body;
    const everything = (await list(`/projects/${ordered.id}/events?per_page=100`)).body;
    assert.ok(visible.length < everything.length, 'the read rule hides some events from a Guest');
    for (const action of EVENT_ACTIONS) {
      const { res, body } = await list(`/projects/${ordered.id}/events?action=${action}&per_page=100`, guest.token);
      assert.deepEqual(body.map((e) => e.id), visible.filter((e) => ACTION_NAMES[action].includes(e.action_name)).map((e) => e.id), action);
      assert.equal(res.headers.get('x-total'), String(body.length));
    }
  });

  it('is readable by a Guest, without the pushes of a private project (its code is for Reporters), not by a non-member (404), and anonymously when public', async () => {
    const guest = await userWithRole(group.id, 10);
    const seen = await list(`/projects/${project.id}/events`, guest.token);
    assert.deepEqual(seen.body, [], 'branch names and commit titles are the code’s: a Guest of a private project is refused them');
    assert.equal(seen.res.headers.get('x-total'), '0');
    const reporter = await userWithRole(group.id, 20);
    assert.equal((await list(`/projects/${project.id}/events`, reporter.token)).body.length, 5);
    const stranger = await userWithRole(group.id, 0);
    expectStatus(await api(`/projects/${project.id}/events`, { token: stranger.token }), 404);
    expectStatus(await api(`/projects/${project.id}/events`, { token: null }), 404);
    const open = await buildProject((await buildGroup({ visibility: 'public' })).id, { visibility: 'public' });
    await fillRepository(open.id);
    assert.equal((await list(`/projects/${open.id}/events`, null)).body.length, 4);
  });

  it('takes tokens with read_user or api, refuses read_repository (403), and refuses bad filters (400)', async () => {
    const readUser = await userWithRole(group.id, 20, ['read_user']);
    assert.equal((await list(`/projects/${project.id}/events`, readUser.token)).body.length, 5);
    const repo = await userWithRole(group.id, 20, ['read_repository']);
    expectStatus(await api(`/projects/${project.id}/events`, { token: repo.token }), 403);
    expectStatus(await api(`/projects/${project.id}/events?action=danced`), 400);
    expectStatus(await api(`/projects/${project.id}/events?target_type=discussion_note`), 400);
    expectStatus(await api(`/projects/${project.id}/events?before=2026-02-30`), 400);
    expectStatus(await api(`/projects/${project.id}/events?sort=sideways`), 400);
    expectStatus(await api('/projects/999999999/events'), 404);
  });
});

describe('GET /users/:id/events', () => {
  it('lists a user’s events in the projects the caller may read, by id or username', async () => {
    const byId = (await list(`/users/${developer.user.id}/events`)).body;
    assert.ok(byId.length >= 1);
    assert.ok(byId.every((e) => e.author_id === developer.user.id));
    const byName = (await list(`/users/${developer.user.username}/events`)).body;
    assert.deepEqual(byName.map((e) => e.id), byId.map((e) => e.id));
    const stranger = await userWithRole(group.id, 0);
    assert.deepEqual((await list(`/users/${developer.user.id}/events`, stranger.token)).body, []);
    assert.deepEqual((await list(`/users/${developer.user.id}/events`, null)).body, []);
    const memberOfProject = await userWithRole(group.id, 0);
    await addMember('projects', project.id, memberOfProject.user.id, 20);
    const seen = (await list(`/users/${developer.user.id}/events`, memberOfProject.token)).body;
    assert.ok(seen.length >= 1 && seen.every((e) => e.project_id === project.id));
    // The developer's events here are pushes: a Guest of the project reads the project, not its code.
    const guestOfProject = await userWithRole(group.id, 0);
    await addMember('projects', project.id, guestOfProject.user.id, 10);
    assert.deepEqual((await list(`/users/${developer.user.id}/events`, guestOfProject.token)).body, []);
  });

  it('answers 404 for an unknown user', async () => {
    expectStatus(await api('/users/999999999/events'), 404);
    expectStatus(await api('/users/nobody-at-all/events'), 404);
  });
});

describe('GET /events', () => {
  it('lists the caller’s own events, and with scope=all those of all their projects', async () => {
    const own = (await list('/events', developer.token)).body;
    assert.ok(own.length >= 1 && own.every((e) => e.author_id === developer.user.id));
    const all = (await list(`/events?scope=all&per_page=100`, developer.token)).body;
    assert.ok(all.some((e) => e.author_id !== developer.user.id && e.project_id === project.id));
    const stranger = await userWithRole(group.id, 0);
    assert.deepEqual((await list('/events?scope=all', stranger.token)).body, []);
  });

  it('needs a signed-in caller (401) with read_user or api', async () => {
    expectStatus(await api('/events', { token: null }), 401);
    const readUser = await userWithRole(group.id, 30, ['read_user']);
    expectStatus(await api('/events', { token: readUser.token }), 200);
    const repo = await userWithRole(group.id, 30, ['read_repository']);
    expectStatus(await api('/events', { token: repo.token }), 403);
  });
});

describe('GET /projects/:id/events: issues and comments', () => {
  it('shows an issue’s iid and title, a comment with its note, and hides confidential targets below Reporter', async () => {
    const p = await buildProject(group.id);
    const issue = await api(`/projects/${p.id}/issues`, { method: 'POST', token: developer.token, json: { title: 'Broken login' } });
    expectStatus(issue, 201);
    const secret = await api(`/projects/${p.id}/issues`, { method: 'POST', token: developer.token, json: { title: 'Leaked key', confidential: true } });
    expectStatus(secret, 201);
    const note = await api(`/projects/${p.id}/issues/${issue.body.iid}/notes`, { method: 'POST', token: developer.token, json: { body: 'Seen it too' } });
    expectStatus(note, 201);
    expectStatus(await api(`/projects/${p.id}/issues/${secret.body.iid}/notes`, { method: 'POST', token: developer.token, json: { body: 'Rotate it' } }), 201);

    const all = (await list(`/projects/${p.id}/events`)).body;
    assert.deepEqual(all.map((e) => [e.action_name, e.target_type, e.target_title]), [
      ['commented on', 'Note', 'Leaked key'],
      ['commented on', 'Note', 'Broken login'],
      ['opened', 'Issue', 'Leaked key'],
      ['opened', 'Issue', 'Broken login'],
    ]);
    assert.equal(all[3].target_iid, issue.body.iid);
    assert.equal(all[3].target_id, issue.body.id);
    const comment = all[1];
    assert.equal(comment.target_iid, null);
    assert.equal(comment.note?.body, 'Seen it too');
    assert.equal(comment.note?.noteable_type, 'Issue');
    assert.equal(comment.note?.noteable_id, issue.body.id);
    assert.equal(comment.note?.noteable_iid, issue.body.iid);
    assert.equal(comment.note?.author.id, developer.user.id);
    assert.deepEqual((await list(`/projects/${p.id}/events?target_type=note`)).body.map((e) => e.id), [all[0].id, all[1].id]);
    assert.deepEqual((await list(`/projects/${p.id}/events?action=created`)).body.map((e) => e.id), [all[2].id, all[3].id]);
    assert.deepEqual((await list(`/projects/${p.id}/events?action=commented&target_type=issue`)).body, []);

    const guest = await userWithRole(group.id, 10);
    const seen = await list(`/projects/${p.id}/events`, guest.token);
    assert.deepEqual(seen.body.map((e) => e.target_title), ['Broken login', 'Broken login']);
    assert.equal(seen.res.headers.get('x-total'), '2');
    const byUser = (await list(`/users/${developer.user.id}/events?per_page=100`, guest.token)).body;
    assert.ok(byUser.some((e) => e.target_title === 'Broken login'));
    assert.ok(!byUser.some((e) => e.target_title === 'Leaked key'), 'a user’s events hide confidential targets from a Guest too');
  });
});

describe('events of what the caller is refused on its own route', () => {
  it('are read, on PostgreSQL, by sessions without JIT compilation (the feed\'s read rule once spent 8 s of each request compiling)', async (t) => {
    if (server.engine !== 'postgres') return t.skip('SQLite compiles nothing');
    const rows = await sql<{ jit: string }>`show jit`.execute(server.running.db);
    assert.equal(rows.rows[0].jit, 'off');
  });
  it('hides a private project’s merge requests and comments on them from a Guest, in the project’s, a user’s and the caller’s own feed', async () => {
    const p = await buildProject(group.id);
    await fillRepository(p.id);
    const mr = await api(`/projects/${p.id}/merge_requests`, { method: 'POST', token: developer.token, json: { source_branch: 'feature', target_branch: 'main', title: 'Rotate the signing key' } });
    expectStatus(mr, 201);
    expectStatus(await api(`/projects/${p.id}/merge_requests/${mr.body.iid}/notes`, { method: 'POST', token: developer.token, json: { body: 'The old key is in the logs' } }), 201);
    const guest = await userWithRole(group.id, 10);
    // The merge request's own route refuses the Guest.
    expectStatus(await api(`/projects/${p.id}/merge_requests/${mr.body.iid}`, { token: guest.token }), 403);
    const feeds = [`/projects/${p.id}/events?per_page=100`, `/users/${developer.user.id}/events?per_page=100`, '/events?scope=all&per_page=100'];
    for (const path of feeds) {
      const { body } = await list(path, guest.token);
      const here = body.filter((e) => e.project_id === p.id);
      assert.deepEqual(here, [], `${path} shows the Guest ${JSON.stringify(here.map((e) => [e.action_name, e.target_type, e.target_title, e.push_data?.ref]))}`);
    }
    const reporter = await userWithRole(group.id, 20);
    const seen = (await list(`/projects/${p.id}/events`, reporter.token)).body;
    assert.deepEqual(
      seen.filter((e) => e.target_type !== null).map((e) => [e.action_name, e.target_type, e.target_title]),
      [
        ['commented on', 'Note', 'Rotate the signing key'],
        ['opened', 'MergeRequest', 'Rotate the signing key'],
      ],
    );
    assert.equal(seen.filter((e) => e.action_name === 'pushed').length, 4, 'a Reporter reads the code, and so its pushes');
  });

  it('hides comments on a private snippet of a public project from those the snippet’s own route refuses', async () => {
    const open = await buildProject((await buildGroup({ visibility: 'public' })).id, { visibility: 'public' });
    const snippet = await api(`/projects/${open.id}/snippets`, { method: 'POST', json: { title: 'Deploy notes', visibility: 'private', files: [{ file_path: 'notes.txt', content: 'secret' }] } });
    expectStatus(snippet, 201);
    expectStatus(await api(`/projects/${open.id}/snippets/${snippet.body.id}/notes`, { method: 'POST', json: { body: 'The staging password is hunter2' } }), 201);
    expectStatus(await api(`/projects/${open.id}/snippets/${snippet.body.id}`, { token: null }), 404);
    const outsider = await userWithRole(group.id, 0);
    for (const token of [null, outsider.token]) {
      const { body } = await list(`/projects/${open.id}/events`, token);
      assert.ok(!body.some((e) => e.note?.body.includes('hunter2')), JSON.stringify(body.map((e) => e.note?.body)));
    }
    const public_ = await api(`/projects/${open.id}/snippets`, { method: 'POST', json: { title: 'Readme', visibility: 'public', files: [{ file_path: 'r.txt', content: 'r' }] } });
    expectStatus(await api(`/projects/${open.id}/snippets/${public_.body.id}/notes`, { method: 'POST', json: { body: 'Public remark' } }), 201);
    assert.ok((await list(`/projects/${open.id}/events`, null)).body.some((e) => e.note?.body === 'Public remark'), 'a public snippet’s comments stay in the feed');
  });

  it('hides vulnerability events from a Reporter, as the vulnerability report does', async () => {
    const p = await buildProject(group.id);
    const identifiers = JSON.stringify([{ type: 'cwe', name: 'CWE-95', value: '95', url: 'https://cwe.mitre.org/data/definitions/95.html' }]);
    await insertFindings(server.running.db, p.id, 1, { identifiers });
    const vulnerability = await server.running.db.selectFrom('vulnerabilities').select('id').where('project_id', '=', p.id).executeTakeFirstOrThrow();
    expectStatus(await api(`/vulnerabilities/${vulnerability.id}/confirm`, { method: 'POST' }), 201);
    const reporter = await userWithRole(group.id, 20);
    expectStatus(await api(`/projects/${p.id}/vulnerabilities`, { token: reporter.token }), 403);
    assert.deepEqual((await list(`/projects/${p.id}/events`, reporter.token)).body, []);
    assert.ok(!(await list('/events?scope=all&per_page=100', reporter.token)).body.some((e) => e.target_type === 'Vulnerability' && e.project_id === p.id));
    const dev = await userWithRole(group.id, 30);
    assert.deepEqual((await list(`/projects/${p.id}/events`, dev.token)).body.map((e) => e.target_type), ['Vulnerability']);
  });
});

describe('a list past 10,000 records', () => {
  it('is not counted, as on the platform: no X-Total, X-Total-Pages or last link, and its pages still link the next one', async () => {
    const busy = await buildProject(group.id);
    const author = await userWithRole(group.id, 30);
    const db = server.running.db;
    const count = 10_001;
    const series =
      server.engine === 'postgres'
        ? sql`SELECT n FROM generate_series(1, ${count}) AS n`
        : sql`WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${count}) SELECT n FROM s`;
    // Written as a push would write them, one row each; the triggers number them in the project.
    await sql`INSERT INTO events (project_id, author_id, action_name, push_data, created_at)
      SELECT ${busy.id}, ${author.user.id}, 'pushed to', ${JSON.stringify({ commit_count: 1, action: 'pushed', ref_type: 'branch', commit_from: null, commit_to: 'b'.repeat(40), ref: 'main', commit_title: 'step', ref_count: null })}, ${new Date().toISOString()} FROM (${series}) AS series`.execute(db);
    for (const path of [`/projects/${busy.id}/events`, `/users/${author.user.id}/events`, `/projects/${busy.id}/events?action=pushed`]) {
      const sep = path.includes('?') ? '&' : '?';
      const first = await list(`${path}${sep}per_page=100`);
      assert.equal(first.body.length, 100, path);
      const h = (name: string) => first.res.headers.get(name);
      assert.deepEqual([h('x-total'), h('x-total-pages'), h('x-page'), h('x-per-page'), h('x-next-page'), h('x-prev-page')], [null, null, '1', '100', '2', ''], path);
      const rels = [...(h('link') ?? '').matchAll(/rel="(\w+)"/g)].map((m) => m[1]);
      assert.deepEqual(rels, ['next', 'first'], path);
      // 10,001 = 100 pages of 100 and one event: the last page knows there is none after it.
      const last = await list(`${path}${sep}per_page=100&page=101`);
      assert.equal(last.body.length, 1, path);
      assert.deepEqual([last.res.headers.get('x-next-page'), last.res.headers.get('x-prev-page'), last.res.headers.get('x-total')], ['', '100', null], path);
      assert.equal(last.body[0].id, Math.max(...first.body.map((e) => e.id)) - 10_000, path);
    }
    // One event fewer than the limit's reach is counted again.
    await sql`DELETE FROM events WHERE id = (SELECT max(id) FROM events WHERE project_id = ${busy.id})`.execute(db);
    const counted = await list(`/projects/${busy.id}/events?per_page=100`);
    assert.deepEqual([counted.res.headers.get('x-total'), counted.res.headers.get('x-total-pages')], ['10000', '100']);
  });
});
