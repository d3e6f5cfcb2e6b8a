import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { consoleGroupTransfer, type ConsoleGroupTransfer } from '../../../shared/src/console-group-transfer.ts';
import { buildUser, expectShape, expectStatus, request as api, startTestServer, userWithRole, type TestServer } from '../../test/harness.ts';
import { importArchive, importedGroup, platformArchiveEntries, tarGz, waitFor } from '../../test/group-archive-fixtures.ts';
import { parseCsv } from '../services/security/exports/csv-read.ts';

let server: TestServer;
let group: Awaited<ReturnType<typeof importedGroup>>;

/** The platform's archive imported once: its members 42 (Moriah) and 1 (root there) become placeholders. */
before(async () => {
  server = await startTestServer();
  const path = `console-transfer-${process.pid}`;
  expectStatus(await importArchive(await tarGz(platformArchiveEntries(`${(await buildUser()).user.username}@example.com`)), { name: 'Console transfer', path }), 202);
  group = await importedGroup(path);
  assert.equal(group.import_status, 'finished');
});
after(() => server.close());

const transfer = async (token?: string | null) => {
  const res = await api(`/api/console/groups/${group.id}/transfer`, { token });
  expectStatus(res, 200);
  return expectShape(consoleGroupTransfer, res.body);
};
const until = (check: (t: ConsoleGroupTransfer) => boolean, what: string) => waitFor(async () => ((t) => (check(t) ? t : undefined))(await transfer()), what);

describe('GET /api/console/groups/:id/transfer', () => {
  it('the export: none, then queued, then written (when, its size, downloadable) as the download answers it', async () => {
    assert.equal((await transfer()).export, null);
    expectStatus(await api(`/groups/${group.id}/export`, { method: 'POST' }), 202);
    const done = await until((t) => t.export?.status === 'finished', 'the export');
    const e = done.export!;
    assert.equal(e.downloadable, true);
    assert.ok(e.finished_at && Date.parse(e.finished_at) <= Date.now());
    const download = await api(`/groups/${group.id}/export/download`);
    expectStatus(download, 200);
    assert.equal(Number(download.headers.get('content-length')), e.file_size);
  });

  it('the placeholders: pending with who they were, then reassigned with the user who took over', async () => {
    const before = await transfer();
    assert.equal(before.placeholders_total, 2);
    assert.deepEqual(
      before.placeholders.map((p) => [p.source_user_identifier, p.source_username, p.status, p.reassigned_to]).sort(),
      [
        ['1', 'root', 'pending_reassignment', null],
        ['42', 'reported_user_15', 'pending_reassignment', null],
      ],
    );
    const assignee = await buildUser();
    const rows = parseCsv((await api(`/groups/${group.id}/placeholder_reassignments`)).text);
    const moriah = rows.find((r) => r[2] === '42')!;
    const form = new FormData();
    form.append('file', new Blob([[rows[0], [...moriah.slice(0, 5), assignee.user.username, '']].map((r) => r.join(',')).join('\n')], { type: 'text/csv' }), 'filled.csv');
    expectStatus(await api(`/groups/${group.id}/placeholder_reassignments`, { method: 'POST', multipart: form }), 201);
    const after = await until((t) => t.placeholders.some((p) => p.status === 'completed'), 'the reassignment');
    // Pending first, then reassigned; the one reassigned names its user.
    assert.deepEqual(
      after.placeholders.map((p) => [p.source_user_identifier, p.status, p.reassigned_to?.username ?? null]),
      [
        ['1', 'pending_reassignment', null],
        ['42', 'completed', assignee.user.username],
      ],
    );
  });

  it('a Maintainer: 403; someone outside the private group: 404; anonymous: 401', async () => {
    expectStatus(await api(`/api/console/groups/${group.id}/transfer`, { token: (await userWithRole(group.id, 40)).token }), 403);
    expectStatus(await api(`/api/console/groups/${group.id}/transfer`, { token: (await buildUser()).token }), 404);
    expectStatus(await api(`/api/console/groups/${group.id}/transfer`, { token: null }), 401);
  });
});
