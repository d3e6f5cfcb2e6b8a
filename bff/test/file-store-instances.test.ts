import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openDb, type Db } from '../src/db/index.ts';
import { CHUNK_BYTES } from '../src/files/database.ts';
import { parseCsv } from '../src/services/security/exports/csv-read.ts';
import { insertFindings } from './export-fixtures.ts';
import { callInstance, sharedInstallation, stopInstance, type SharedInstallation } from './instances.ts';

/**
 * Two server processes on one PostgreSQL database, each with a data directory of its own (as
 * on two machines; one repositories directory and one secret key, as an installation has): an
 * export written by one instance's worker downloads, byte for byte, through the other, even
 * once the writer is gone with its data directory. On SQLite there is one machine, whose
 * data directory holds the files: nothing of this applies.
 */
const admin = process.env.GATEHOUSE_TEST_PG;
const TOKEN = `file-store-token-${crypto.randomBytes(6).toString('hex')}`;
const FINDINGS = 8_000;
let installation: SharedInstallation | undefined;
let db: Db | undefined;
/** An instance's own data directory (as on a machine of its own) and the installation's repositories. */
const dataDirOf = (name: string) => path.join(installation!.dataDir, `data-${name}`);
const start = (name: string, extra: Record<string, string> = {}) =>
  installation!.start({ GATEHOUSE_DATA_DIR: dataDirOf(name), GATEHOUSE_REPOSITORIES_DIR: path.join(installation!.dataDir, 'repositories'), ...extra });

const call = (url: string, p: string, method = 'GET', body?: unknown) => callInstance(url, TOKEN, method, p, body);

async function download(url: string, p: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(`${url}/api/v4${p}`, { headers: { 'PRIVATE-TOKEN': TOKEN } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

before(async () => {
  if (admin) installation = await sharedInstallation('files-two', TOKEN);
});

after(async () => {
  await db?.destroy();
  await installation?.close();
});

describe('an export on two instances of one PostgreSQL database', { skip: !admin && 'needs PostgreSQL (GATEHOUSE_TEST_PG): on SQLite one machine holds the files' }, () => {
  it("written by one instance's worker, downloads byte for byte through the other, even with the writer and its data directory gone", async () => {
    // A works; B takes requests only (no workers), so A's worker writes the file.
    const a = await start('a');
    const b = await start('b', { GATEHOUSE_WORKERS: '0' });
    const group = (await call(a.url, '/groups', 'POST', { name: 'Two', path: `two-${crypto.randomBytes(3).toString('hex')}` })).body;
    const project = (await call(a.url, '/projects', 'POST', { name: 'site', namespace_id: group.id })).body;
    db = openDb({ databaseUrl: installation!.databaseUrl, poolSize: 2 });
    await insertFindings(db, project.id, FINDINGS);

    const made = await call(b.url, `/security/projects/${project.id}/vulnerability_exports`, 'POST', {});
    assert.equal(made.status, 201, made.text);
    const id = made.body.id as number;
    const until = Date.now() + 60_000;
    let status = 0;
    while (Date.now() < until && status !== 200) {
      status = (await call(b.url, `/security/vulnerability_exports/${id}`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 200, 'the export is finished (by A, the only instance with workers)');

    const row = await db.selectFrom('exports').select(['file_key', 'file_path', 'file_size', 'file_digest']).where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.file_path, null, 'no path on one machine');
    assert.ok(row.file_size! > 2 * CHUNK_BYTES, `a file of several chunks (${row.file_size} bytes)`);
    const stored = await db.selectFrom('stored_files').select(['id', 'size', 'digest']).where('key', '=', row.file_key!).where('complete', '=', 1).executeTakeFirstOrThrow();
    assert.equal(Number(stored.size), row.file_size);
    assert.equal(stored.digest, row.file_digest);

    const throughB = await download(b.url, `/security/vulnerability_exports/${id}/download`);
    assert.equal(throughB.status, 200);
    assert.equal(throughB.headers.get('content-length'), String(row.file_size));
    assert.match(throughB.headers.get('content-type') ?? '', /^text\/csv\b/);
    assert.match(throughB.headers.get('content-disposition') ?? '', /^attachment; filename="/);
    assert.equal(crypto.createHash('sha256').update(throughB.bytes).digest('hex'), row.file_digest, 'the bytes A wrote');
    assert.equal(parseCsv(throughB.bytes.toString('utf8')).length, 1 + FINDINGS);
    const throughA = await download(a.url, `/security/vulnerability_exports/${id}/download`);
    assert.ok(throughA.bytes.equals(throughB.bytes), 'the same bytes through either instance');

    // The writer's machine goes, with its data directory: the file is still there for B.
    await stopInstance(a.child);
    fs.rmSync(dataDirOf('a'), { recursive: true, force: true });
    const afterA = await download(b.url, `/security/vulnerability_exports/${id}/download`);
    assert.equal(afterA.status, 200);
    assert.ok(afterA.bytes.equals(throughB.bytes), 'byte-identical once A is gone');
    for (const dir of [dataDirOf('a'), dataDirOf('b')]) {
      assert.equal(fs.existsSync(path.join(dir, 'files')) || fs.existsSync(path.join(dir, 'exports')), false, `no export file in ${dir}`);
    }
  });
});
