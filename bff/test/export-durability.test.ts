import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb, type Db } from '../src/db/index.ts';
import { insertFindings } from './export-fixtures.ts';
import { parseCsv } from '../src/exports/csv-read.ts';
import { createSharedDatabase, dropSharedDatabase, startInstance, stopInstance as stop } from './instances.ts';

/**
 * An export survives its server: a real server process is killed (SIGKILL) while it writes an
 * export, another one starts on the same database, and the export is finished, whole.
 */
const TOKEN = `export-durable-token-${crypto.randomBytes(6).toString('hex')}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-export-durable-'));
const FINDINGS = 50_000;
let databaseUrl: string | undefined;
let db: Db;

const startServerProcess = () =>
  startInstance(TOKEN, {
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_ROOT_PASSWORD: 'durable-password',
    GATEHOUSE_SECRET_KEY: 'a-shared-secret-key-for-every-instance-of-this-test',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });

async function call(url: string, p: string, method = 'GET', body?: unknown) {
  const res = await fetch(`${url}/api/v4${p}`, { method, headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

before(async () => {
  databaseUrl = await createSharedDatabase('gatehouse_export_durable');
});

after(async () => {
  await db?.destroy();
  await dropSharedDatabase(databaseUrl);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a vulnerability export', () => {
  it('is finished, whole, by the next server when its server is killed while writing it', async () => {
    const a = await startServerProcess();
    let b: { child: ChildProcess; url: string } | undefined;
    try {
      const group = JSON.parse((await call(a.url, '/groups', 'POST', { name: 'Durable', path: `durable-${crypto.randomBytes(3).toString('hex')}` })).text);
      const project = JSON.parse((await call(a.url, '/projects', 'POST', { name: 'site', namespace_id: group.id })).text);
      // The findings go straight into the server's database (the test reads and writes it too).
      db = openDb({ databaseUrl, sqliteFile: path.join(dataDir, 'gatehouse.sqlite3'), poolSize: 2 });
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
      await stop(a.child, 'SIGKILL');
      const cut = await db.selectFrom('exports').select(['status', 'file_path']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(cut.status, 'running');
      assert.equal(cut.file_path, null, 'no file is published before it is whole');

      b = await startServerProcess();
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
      const leftovers = fs.readdirSync(path.join(dataDir, 'exports')).filter((n) => n.endsWith('.tmp'));
      assert.deepEqual(leftovers, [], 'the killed run’s temporary file is gone');
    } finally {
      await stop(a.child);
      if (b) await stop(b.child);
    }
  });
});
