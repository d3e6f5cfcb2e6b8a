import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import pg from 'pg';
import { migrate, openDb, pgConnection, type Db } from '../src/db/index.ts';
import { openFileStore, type FileStore } from '../src/files/index.ts';
import { CHUNK_BYTES } from '../src/files/database.ts';

/**
 * The file store of each engine, in the HTTP suite of that engine: the data directory beside a
 * SQLite database, or the database itself when GATEHOUSE_TEST_PG names a PostgreSQL server (a
 * throwaway database).
 */
interface Engine {
  name: string;
  db: Db;
  files: FileStore;
  dataDir: string;
  close(): Promise<void>;
}

async function sqliteEngine(): Promise<Engine> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-files-'));
  const db = openDb({ sqliteFile: path.join(dataDir, 'gatehouse.sqlite3') });
  await migrate(db);
  return {
    name: 'SQLite (the data directory)',
    db,
    files: openFileStore(db, { dataDir }),
    dataDir,
    async close() {
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function postgresEngine(adminUrl: string): Promise<Engine> {
  const name = `gatehouse_files_${crypto.randomBytes(5).toString('hex')}`;
  const admin = async (statement: string) => {
    const c = new pg.Client(pgConnection(adminUrl));
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-files-pg-'));
  const db = openDb({ databaseUrl: adminUrl.replace(/^(postgres(?:ql)?:\/\/[^/]*)\/[^?]*/, `$1/${name}`), poolSize: 4 });
  await migrate(db);
  return {
    name: 'PostgreSQL (the database)',
    db,
    files: openFileStore(db, { dataDir }),
    dataDir,
    async close() {
      await db.destroy();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `total` bytes of random data in pieces of `piece`, made as they are read; `digest()` once read. */
function randomSource(total: number, piece = 64 * 1024, failAt?: number, onChunk?: () => void) {
  const hash = crypto.createHash('sha256');
  let made = 0;
  const stream = Readable.from(
    (function* () {
      while (made < total) {
        if (failAt !== undefined && made >= failAt) throw new Error('the source failed halfway');
        const chunk = crypto.randomBytes(Math.min(piece, total - made));
        made += chunk.length;
        hash.update(chunk);
        onChunk?.();
        yield chunk;
      }
    })(),
    { objectMode: false },
  );
  return { stream, digest: () => hash.digest('hex') };
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

const storedRows = (db: Db, key: string) => db.selectFrom('stored_files').selectAll().where('key', '=', key).execute();
const filesOnDisk = (dataDir: string) => (fs.existsSync(path.join(dataDir, 'files')) ? fs.readdirSync(path.join(dataDir, 'files')) : []);

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

const engines: (() => Promise<Engine>)[] = [process.env.GATEHOUSE_TEST_PG ? () => postgresEngine(process.env.GATEHOUSE_TEST_PG!) : sqliteEngine];

for (const open of engines) {
  describe(`the file store on ${open === sqliteEngine ? 'SQLite' : 'PostgreSQL'}`, () => {
    let e: Engine;
    before(async () => {
      e = await open();
    });
    after(() => e.close());

    it(`is ${open === sqliteEngine ? 'the data directory' : 'the database'}`, () => {
      assert.equal(e.files.kind, open === sqliteEngine ? 'directory' : 'database');
    });

    it('gives back a file of several chunks byte for byte, with its size and SHA-256', async () => {
      const bytes = crypto.randomBytes(3 * 1024 * 1024 + 123);
      // In pieces that straddle the chunks' bounds.
      const pieces = Array.from({ length: Math.ceil(bytes.length / 100_000) }, (_, i) => bytes.subarray(i * 100_000, (i + 1) * 100_000));
      const put = await e.files.put('tests/three-mb.bin', Readable.from(pieces));
      const digest = crypto.createHash('sha256').update(bytes).digest('hex');
      assert.deepEqual(put, { size: bytes.length, digest });
      const got = await e.files.get('tests/three-mb.bin');
      assert.ok(got);
      assert.equal(got.size, bytes.length);
      assert.equal(got.digest, digest);
      assert.ok((await bytesOf(got.stream)).equals(bytes), 'the same bytes');
      if (e.files.kind === 'database') {
        const chunks = await e.db.selectFrom('stored_file_chunks').select('seq').where('file_id', '=', (await storedRows(e.db, 'tests/three-mb.bin'))[0]!.id).execute();
        assert.equal(chunks.length, Math.ceil(bytes.length / CHUNK_BYTES));
      } else {
        assert.equal(filesOnDisk(e.dataDir).length, 1);
      }
    });

    it('gives back an empty file, and replaces a file put again under its key', async () => {
      assert.deepEqual(await e.files.put('tests/empty', Readable.from([])), { size: 0, digest: crypto.createHash('sha256').digest('hex') });
      const empty = await e.files.get('tests/empty');
      assert.equal((await bytesOf(empty!.stream)).length, 0);
      await e.files.put('tests/again', Readable.from([Buffer.from('first')]));
      await e.files.put('tests/again', Readable.from([Buffer.from('second')]));
      assert.equal((await bytesOf((await e.files.get('tests/again'))!.stream)).toString(), 'second');
      assert.equal((await storedRows(e.db, 'tests/again')).length, 1, 'the first is gone');
    });

    it('answers null for a key it does not hold', async () => {
      assert.equal(await e.files.get('tests/never-put'), null);
    });

    it('publishes nothing when the source fails halfway, and keeps the file put before under that key', async () => {
      const before = filesOnDisk(e.dataDir).length;
      await assert.rejects(e.files.put('tests/broken', randomSource(2 * 1024 * 1024, 64 * 1024, 1024 * 1024).stream), /failed halfway/);
      assert.equal(await e.files.get('tests/broken'), null);
      assert.deepEqual(await storedRows(e.db, 'tests/broken'), [], 'no row left');
      assert.equal(filesOnDisk(e.dataDir).length, before, 'no file left, whole or temporary');
      assert.equal(Number((await e.db.selectFrom('stored_file_chunks').select((eb) => eb.fn.countAll().as('n')).where('file_id', 'not in', e.db.selectFrom('stored_files').select('id')).executeTakeFirstOrThrow()).n), 0);

      await e.files.put('tests/kept', Readable.from([Buffer.from('the good one')]));
      await assert.rejects(e.files.put('tests/kept', randomSource(1024 * 1024, 64 * 1024, 512 * 1024).stream), /failed halfway/);
      const kept = await e.files.get('tests/kept');
      assert.equal((await bytesOf(kept!.stream)).toString(), 'the good one');
    });

    it('never shows a put that did not finish (its process killed), and a later put of its key drops it', async () => {
      await e.db.insertInto('stored_files').values({ key: 'tests/killed', created_at: new Date().toISOString() }).execute();
      assert.equal(await e.files.get('tests/killed'), null);
      await e.files.put('tests/killed', Readable.from([Buffer.from('whole')]));
      const rows = await storedRows(e.db, 'tests/killed');
      assert.deepEqual(
        rows.map((r) => r.complete),
        [1],
      );
    });

    it('deletes a file (and a file already gone is fine)', async () => {
      await e.files.put('tests/doomed', randomSource(700 * 1024).stream);
      const before = filesOnDisk(e.dataDir).length;
      await e.files.delete('tests/doomed');
      assert.equal(await e.files.get('tests/doomed'), null);
      assert.deepEqual(await storedRows(e.db, 'tests/doomed'), []);
      if (e.files.kind === 'directory') assert.equal(filesOnDisk(e.dataDir).length, before - 1);
      await e.files.delete('tests/doomed');
    });

    it('purges by age: files put before the date (of a prefix, or only unfinished ones), not the others', async () => {
      const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
      for (const key of ['aged/a', 'aged/b', 'other/c', 'aged/fresh']) await e.files.put(key, Readable.from([Buffer.from(key)]));
      await e.db.updateTable('stored_files').set({ created_at: old }).where('key', 'in', ['aged/a', 'aged/b', 'other/c']).execute();
      await e.db.insertInto('stored_files').values({ key: 'aged/unfinished', created_at: old }).execute();
      const dayAgo = new Date(Date.now() - 86_400_000);
      assert.equal(await e.files.purgeOlderThan(dayAgo, { incompleteOnly: true }), 1);
      assert.deepEqual(await storedRows(e.db, 'aged/unfinished'), []);
      assert.equal(await e.files.purgeOlderThan(dayAgo, { prefix: 'aged/' }), 2);
      assert.equal(await e.files.get('aged/a'), null);
      assert.equal(await e.files.get('aged/b'), null);
      assert.ok(await e.files.get('other/c'), 'another prefix is kept');
      assert.ok(await e.files.get('aged/fresh'), 'a newer file is kept');
      assert.equal(await e.files.purgeOlderThan(dayAgo), 1);
      assert.equal(await e.files.get('other/c'), null);
    });

    it('streams a 50 MB file in and out holding a small part of it in memory', async () => {
      const total = 50 * 1024 * 1024;
      // Memory in use after a full collection: what is held, not garbage yet to go. V8's heap
      // (held exactly), and buffers (whose memory is given back by a background sweep, so a
      // sample may still count some just freed: judged by their median, their peak reported).
      const inUse = () => {
        collect();
        const m = process.memoryUsage();
        return { heap: m.heapUsed, buffers: m.arrayBuffers };
      };
      // The start, once the buffers of the tests before are swept.
      inUse();
      await new Promise((r) => setTimeout(r, 300));
      const base = inUse();
      let heapPeak = 0;
      // Per phase (put, then get): a phase that held the whole file would show it in its median.
      const buffers: number[][] = [[], []];
      let phase = 0;
      let sinceSample = 0;
      const sample = (bytes: number) => {
        sinceSample += bytes;
        if (sinceSample < 2 * 1024 * 1024) return;
        sinceSample = 0;
        const now = inUse();
        heapPeak = Math.max(heapPeak, now.heap - base.heap);
        buffers[phase]!.push(now.buffers - base.buffers);
      };
      const source = randomSource(total, 64 * 1024, undefined, () => sample(64 * 1024));
      const started = performance.now();
      const put = await e.files.put('tests/fifty-mb.bin', source.stream);
      const wrote = performance.now();
      phase = 1;
      assert.equal(put.size, total);
      const got = (await e.files.get('tests/fifty-mb.bin'))!;
      const hash = crypto.createHash('sha256');
      let read = 0;
      for await (const chunk of got.stream) {
        hash.update(chunk as Buffer);
        read += (chunk as Buffer).length;
        sample((chunk as Buffer).length);
      }
      const done = performance.now();
      assert.equal(read, total);
      assert.equal(hash.digest('hex'), source.digest());
      const mbps = (ms: number) => (50 / (ms / 1000)).toFixed(0);
      const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
      const median = Math.max(...buffers.map((b) => b.sort((x, y) => x - y)[b.length >> 1]!));
      const most = Math.max(...buffers.flat());
      console.log(
        `# ${e.name}: 50 MB put at ${mbps(wrote - started)} MB/s, got at ${mbps(done - wrote)} MB/s; held above the start: heap at most ${mb(heapPeak)}, buffers ${mb(median)} (the larger median of the put's and the get's samples), at most ${mb(most)}`,
      );
      assert.ok(heapPeak < 8 * 1024 * 1024, `the heap grew by ${mb(heapPeak)} for a 50 MB file`);
      // A store holding the whole file would show a median of 25 MB or more (a put's samples
      // growing to 50 MB, a get's at 50 MB); a loaded machine sweeps freed buffers late (11 MB seen).
      assert.ok(median < 16 * 1024 * 1024, `buffers held ${mb(median)} (median) for a 50 MB file`);
    });

    it('says it is ready', async () => {
      const check = await e.files.check();
      assert.equal(check.ok, true, check.detail);
      assert.match(check.detail, /file store/);
    });
  });
}
