import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { consoleGroupExportState, consoleGroupPlaceholders } from '../../../shared/src/console-group-transfer.ts';
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

const read = async <T>(route: 'transfer' | 'placeholders', shape: z.ZodType<T>) => {
  const res = await api(`/api/console/groups/${group.id}/${route}`);
  expectStatus(res, 200);
  return expectShape(shape, res.body);
};
const exportState = () => read('transfer', consoleGroupExportState);
const placeholders = () => read('placeholders', consoleGroupPlaceholders);
const until = <T>(get: () => Promise<T>, check: (t: T) => boolean, what: string) => waitFor(async () => ((t) => (check(t) ? t : undefined))(await get()), what);

describe('GET /api/console/groups/:id/transfer and /placeholders', () => {
  it('transfer answers the export alone: none, then queued, then written (when, its size, downloadable) as the download answers it', async () => {
    const none = await exportState();
    assert.deepEqual(none, { export: null }, 'the export alone, no placeholders');
    expectStatus(await api(`/groups/${group.id}/export`, { method: 'POST' }), 202);
    const done = await until(exportState, (t) => t.export?.status === 'finished', 'the export');
    const e = done.export!;
    assert.equal(e.downloadable, true);
    assert.ok(e.finished_at && Date.parse(e.finished_at) <= Date.now());
    const download = await api(`/groups/${group.id}/export/download`);
    expectStatus(download, 200);
    assert.equal(Number(download.headers.get('content-length')), e.file_size);
  });

  it('placeholders answers the placeholders alone: pending with who they were, then reassigned with the user who took over', async () => {
    const before = await placeholders();
    assert.deepEqual(Object.keys(before).sort(), ['placeholders', 'placeholders_total'], 'the placeholders alone, no export');
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
    const after = await until(placeholders, (t) => t.placeholders.some((p) => p.status === 'completed'), 'the reassignment');
    // Pending first, then reassigned; the one reassigned names its user.
    assert.deepEqual(
      after.placeholders.map((p) => [p.source_user_identifier, p.status, p.reassigned_to?.username ?? null]),
      [
        ['1', 'pending_reassignment', null],
        ['42', 'completed', assignee.user.username],
      ],
    );
  });

  it('each route, as the group export and the CSV of placeholders: a Maintainer 403, someone outside the private group 404, anonymous 401', async () => {
    const maintainer = (await userWithRole(group.id, 40)).token;
    const outsider = (await buildUser()).token;
    for (const route of ['transfer', 'placeholders']) {
      const path = `/api/console/groups/${group.id}/${route}`;
      expectStatus(await api(path, { token: maintainer }), 403);
      expectStatus(await api(path, { token: outsider }), 404);
      expectStatus(await api(path, { token: null }), 401);
    }
    // The platform's own routes for the same rights answer alike.
    expectStatus(await api(`/groups/${group.id}/export/download`, { token: maintainer }), 403);
    expectStatus(await api(`/groups/${group.id}/placeholder_reassignments`, { token: maintainer }), 403);
  });
});
