import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildUser, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { importArchive, importedGroup, platformArchiveEntries, tarGz, waitFor } from '../../test/group-archive-fixtures.ts';
import { parseCsv } from '../services/security/exports/csv-read.ts';

const COLUMNS = ['Source host', 'Import type', 'Source user identifier', 'Source user name', 'Source username', 'Platform username', 'Platform public email'];

let server: TestServer;
let group: Awaited<ReturnType<typeof importedGroup>>;
let reporter: Awaited<ReturnType<typeof buildUser>>;
let assignee: Awaited<ReturnType<typeof buildUser>>;

/** The platform's archive imported once: its members 42 (Moriah, author of an epic) and 1 (root there) are not users here. */
before(async () => {
  server = await startTestServer();
  const known = await buildUser();
  assignee = await buildUser();
  const path = `placeholders-${process.pid}`;
  expectStatus(await importArchive(await tarGz(platformArchiveEntries(`${known.user.username}@example.com`)), { name: 'Placeholders', path }), 202);
  group = await importedGroup(path);
  assert.equal(group.import_status, 'finished');
  reporter = await userWithRole(group.id, 20);
});
after(() => server.close());

const csvOf = async () => {
  const res = await api(`/groups/${group.id}/placeholder_reassignments`);
  expectStatus(res, 200);
  return { res, rows: parseCsv(res.text) };
};
const upload = (text: string, name = 'reassignments.csv', token?: string | null) => {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), name);
  return api(`/groups/${group.id}/placeholder_reassignments`, { method: 'POST', multipart: form, token });
};
const csvText = (rows: string[][]) => rows.map((r) => r.join(',')).join('\n') + '\n';

describe('GET /groups/:id/placeholder_reassignments', () => {
  it('as an Owner: the pending placeholders as a CSV attachment with the spec’s seven columns, the last two empty; placeholders are not members', async () => {
    const { res, rows } = await csvOf();
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`^attachment; filename="placeholder_reassignments_for_group_${group.id}_\\d+\\.csv"$`));
    assert.deepEqual(rows[0], COLUMNS);
    assert.deepEqual(
      rows.slice(1).map((r) => [r[1], r[2], r[3], r[4], r[5], r[6]]).sort(),
      [
        ['import_group_from_file', '1', 'Administrator', 'root', '', ''],
        ['import_group_from_file', '42', 'Moriah Collins', 'reported_user_15', '', ''],
      ],
    );
    assert.equal(rows[1][0], server.url);
    const members = (await api(`/groups/${group.id}/members`)).body.map((m: { username: string }) => m.username);
    assert.ok(!members.includes('reported_user_15'), `placeholders are no members: ${members}`);
  });
  it('a Reporter: 403; anonymous: 401', async () => {
    expectStatus(await api(`/groups/${group.id}/placeholder_reassignments`, { token: reporter.token }), 403);
    expectStatus(await api(`/groups/${group.id}/placeholder_reassignments`, { token: null }), 401);
  });
});

describe('POST /groups/:id/placeholder_reassignments', () => {
  it('with wrong columns, an unknown user, no .csv name: refused, and nothing changes', async () => {
    const { rows } = await csvOf();
    const moriah = rows.find((r) => r[2] === '42')!;
    const wrong = await upload(csvText([COLUMNS.slice(0, 6), moriah.slice(0, 6)]));
    expectStatus(wrong, 400);
    assert.match(wrong.body.message, /must have the columns Source host, Import type/);
    const unknown = await upload(csvText([COLUMNS, [...moriah.slice(0, 5), 'nobody-here', '']]));
    expectStatus(unknown, 400);
    assert.equal(unknown.body.message, 'Row 2 of the CSV file names an unknown user: nobody-here');
    expectStatus(await upload(csvText([COLUMNS, [...moriah.slice(0, 5), assignee.user.username, '']]), 'reassignments.txt'), 422);
    expectStatus(await upload(csvText([COLUMNS]), 'reassignments.csv', reporter.token), 403);
    expectStatus(await upload(csvText([COLUMNS]), 'reassignments.csv', null), 401);
    assert.equal((await csvOf()).rows.length, 3);
  });

  it('as an Owner: the platform’s message, then the placeholder’s contributions and membership go to the user named', async () => {
    const { rows } = await csvOf();
    const moriah = rows.find((r) => r[2] === '42')!;
    const res = await upload(csvText([COLUMNS, [...moriah.slice(0, 5), assignee.user.username, ''], rows.find((r) => r[2] === '1')!]));
    expectStatus(res, 201);
    assert.deepEqual(res.body, { message: 'The file is being processed and you will receive an email when completed.' });
    // The row leaves the pending list at once; the job then moves the membership and the contributions.
    assert.deepEqual(
      (await csvOf()).rows.slice(1).map((r) => r[2]),
      ['1'],
    );
    const member = await waitFor(async () => {
      const members: { id: number; access_level: number }[] = (await api(`/groups/${group.id}/members`)).body;
      return members.find((m) => m.id === assignee.user.id);
    }, 'the reassignment');
    assert.equal(member.access_level, 30);
    const epic = (await api(`/groups/${group.id}/epics/2`)).body;
    assert.equal(epic.author?.id, assignee.user.id);
  });
});
