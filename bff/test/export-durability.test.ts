import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openDb, type Db } from '../src/db/index.ts';
import { insertFindings } from './export-fixtures.ts';
import { parseCsv } from '../src/services/security/exports/csv-read.ts';
import { callInstance, sharedInstallation, type SharedInstallation } from './instances.ts';

/**
 * An export survives its server: a real server process is killed (SIGKILL) while it writes an
 * export, another one starts on the same database, and the export is finished, whole.
 */
const TOKEN = `export-durable-token-${crypto.randomBytes(6).toString('hex')}`;
const FINDINGS = 50_000;
let installation: SharedInstallation;
let db: Db;

const call = (url: string, p: string, method = 'GET', body?: unknown) => callInstance(url, TOKEN, method, p, body);

before(async () => {
  installation = await sharedInstallation('export-durable', TOKEN);
});

after(async () => {
  await db?.destroy();
  await installation.close();
});

describe('a vulnerability export', () => {
  it('is finished, whole, by the next server when its server is killed while writing it', async () => {
    const a = await installation.start();
    const group = JSON.parse((await call(a.url, '/groups', 'POST', { name: 'Durable', path: `durable-${crypto.randomBytes(3).toString('hex')}` })).text);
    const project = JSON.parse((await call(a.url, '/projects', 'POST', { name: 'site', namespace_id: group.id })).text);
    // The findings go straight into the server's database (the test reads and writes it too).
    db = openDb({ databaseUrl: installation.databaseUrl, sqliteFile: installation.sqliteFile, poolSize: 2 });
    await insertFindings(db, project.id, FINDINGS);
    const made = await call(a.url, `/security/projects/${project.id}/vulnerability_exports`, 'POST', {});
    assert.equal(made.status, 201, made.text);
    const id = JSON.parse(made.text).id as number;
    // Killed once it is seen running.
    for (;;) {
      const row = await db.selectFrom('exports').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      assert.notEqual(row.status, 'finished', 'the export finished before the kill: nothing was tested');
      if (row.status === 'running') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await installation.crash(a);
    const cut = await db.selectFrom('exports').select(['status', 'file_key', 'file_path']).where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(cut.status, 'running');
    assert.equal(cut.file_key, null, 'no file is published before it is whole');
    assert.equal(cut.file_path, null);
    const key = `exports/${id}.csv`;
    const published = () => db.selectFrom('stored_files').select('complete').where('key', '=', key).execute();
    assert.deepEqual(
      (await published()).filter((f) => f.complete === 1),
      [],
      'nothing of it in the file store is readable',
    );

    const b = await installation.start();
    const until = Date.now() + 60_000;
    let status = 0;
    while (Date.now() < until) {
      status = (await call(b.url, `/security/vulnerability_exports/${id}`)).status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 200, 'the export is finished after the restart');
    const file = await call(b.url, `/security/vulnerability_exports/${id}/download`);
    assert.equal(file.status, 200);
    assert.equal(parseCsv(file.text).length, 1 + FINDINGS);
    assert.deepEqual(await published(), [{ complete: 1 }], 'the killed run’s unfinished put is gone');
    const dir = path.join(installation.dataDir, 'files');
    const leftovers = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')) : [];
    assert.deepEqual(leftovers, [], 'the killed run’s temporary file is gone');
  });
});
