import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { ConfigError } from '../../config.ts';
import { migrate, openDb, type Db } from '../../db/index.ts';
import { checkSecretKey, IDENTITY, readIdentity } from '../instance/identity.ts';
import { ensureRepository, repositoryPath, RepositoryMissingError } from './repositories.ts';
import { checkRepositoriesStorage, establishStorageIdentity, readStorageMarker, repositoriesStorageProbe, STORAGE_MARKER } from './storage.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-storage-'));
let n = 0;
const freshDir = () => path.join(root, `repositories-${++n}`);

async function freshDb(): Promise<Db> {
  const db = openDb({ sqliteFile: ':memory:' });
  await migrate(db);
  // Projects alone, without their groups and creators.
  await sql`pragma foreign_keys = off`.execute(db);
  return db;
}

async function addProject(db: Db, id: number, repositoryCreated = 0): Promise<void> {
  const at = new Date().toISOString();
  await db
    .insertInto('projects')
    .values({ id, name: `p${id}`, path: `p${id}`, namespace_id: 1, path_with_namespace: `g/p${id}`, description: null, visibility: 'private', default_branch: null, topics: '[]', creator_id: 1, created_at: at, last_activity_at: at, repository_created: repositoryCreated })
    .execute();
}

const created = async (db: Db, id: number) => (await db.selectFrom('projects').select('repository_created').where('id', '=', id).executeTakeFirstOrThrow()).repository_created;

after(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the storage identity of the repositories directory', () => {
  let db: Db;
  before(async () => {
    db = await freshDb();
  });
  after(() => db.destroy());

  it('is written by the first start on a new database, into the marker and the database, and found again', async () => {
    const dir = freshDir();
    const first = await establishStorageIdentity(db, dir);
    assert.equal(first.recorded, true);
    assert.match(first.id, /^[0-9a-f]{32}$/);
    assert.equal(readStorageMarker(dir), first.id);
    assert.equal(await readIdentity(db, IDENTITY.repositoriesStorage), first.id);
    assert.deepEqual(await establishStorageIdentity(db, dir), { id: first.id, recorded: false });
  });

  it('refuses a directory without the marker, or with another, naming the directory and the id, and writes nothing there', async () => {
    const id = (await readIdentity(db, IDENTITY.repositoriesStorage))!;
    const empty = freshDir();
    await assert.rejects(establishStorageIdentity(db, empty), (e: Error) => {
      assert.ok(e instanceof ConfigError);
      assert.ok(e.message.includes(empty) && e.message.includes(id) && e.message.includes('GATEHOUSE_REPOSITORIES_DIR'), e.message);
      assert.ok(e.message.includes(`no ${STORAGE_MARKER}`), e.message);
      return true;
    });
    assert.equal(fs.existsSync(empty), false);
    const other = freshDir();
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, STORAGE_MARKER), 'ab'.repeat(16));
    await assert.rejects(establishStorageIdentity(db, other), (e: Error) => e instanceof ConfigError && e.message.includes('abababab') && e.message.includes(other));
  });

  it('of starts at once on a new database: one directory agrees on one id; with two directories one of them is refused', async () => {
    const together = await freshDb();
    const dir = freshDir();
    const ids = await Promise.all([1, 2, 3].map(() => establishStorageIdentity(together, dir)));
    assert.equal(new Set(ids.map((r) => r.id)).size, 1);
    assert.equal(readStorageMarker(dir), ids[0]!.id);
    await together.destroy();

    const apart = await freshDb();
    const outcomes = await Promise.allSettled([establishStorageIdentity(apart, freshDir()), establishStorageIdentity(apart, freshDir())]);
    assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
    await apart.destroy();
  });

  it('of an upgraded installation: the directory’s marker is adopted and the projects whose repositories are there are recorded as made', async () => {
    const upgraded = await freshDb();
    const dir = freshDir();
    await addProject(upgraded, 1);
    await addProject(upgraded, 2);
    await ensureRepository(upgraded, dir, { id: 1 });
    await upgraded.updateTable('projects').set({ repository_created: 0 }).execute();
    fs.writeFileSync(path.join(dir, STORAGE_MARKER), `${'cd'.repeat(16)}\n`);
    assert.deepEqual(await establishStorageIdentity(upgraded, dir), { id: 'cd'.repeat(16), recorded: true });
    assert.equal(await created(upgraded, 1), 1);
    assert.equal(await created(upgraded, 2), 0);
    await upgraded.destroy();
  });
});

describe('a repository that was made', () => {
  it('is made once and recorded; missing later, it is an error rather than a new empty repository, and the storage check names it', async () => {
    const db = await freshDb();
    const dir = freshDir();
    await establishStorageIdentity(db, dir);
    await addProject(db, 7);
    await addProject(db, 8);
    const made = await ensureRepository(db, dir, { id: 7 });
    assert.equal(made, repositoryPath(dir, { id: 7 }));
    assert.equal(await created(db, 7), 1);
    assert.deepEqual(await checkRepositoriesStorage(db, { repositoriesDir: dir }), { ok: true, detail: `storage identity ${readStorageMarker(dir)}; 1 repositories checked` });

    fs.rmSync(made, { recursive: true });
    await assert.rejects(ensureRepository(db, dir, { id: 7 }), (e: Error) => e instanceof RepositoryMissingError && e.projectId === 7 && e.message.includes(made));
    assert.equal(fs.existsSync(made), false);
    const check = await checkRepositoriesStorage(db, { repositoriesDir: dir });
    assert.equal(check.ok, false);
    assert.deepEqual(check.missing, [7]);
    assert.match(check.detail, /1 of 1 repositories checked are missing/);
    // A project whose repository was never made still gets one on first use.
    assert.ok(fs.existsSync(path.join(await ensureRepository(db, dir, { id: 8 }), 'HEAD')));

    fs.rmSync(path.join(dir, STORAGE_MARKER));
    const lost = await checkRepositoriesStorage(db, { repositoriesDir: dir });
    assert.equal(lost.ok, false);
    assert.match(lost.detail, /holds no \.gatehouse-storage-id/);
    await db.destroy();
  });
});

describe('the readiness probe of the storage', () => {
  it('checks the identity at every probe, and looks at the repositories at most once per interval', async () => {
    const db = await freshDb();
    const dir = freshDir();
    await establishStorageIdentity(db, dir);
    await addProject(db, 7);
    const made = await ensureRepository(db, dir, { id: 7 });
    const sweeps: number[][] = [];
    const interval = 200;
    const probe = repositoriesStorageProbe(db, { repositoriesDir: dir }, (found) => sweeps.push(found.missing ?? []), interval);
    assert.equal((await probe()).ok, true);
    fs.rmSync(made, { recursive: true });
    // Within the interval the last look stands, and nothing more is logged.
    assert.equal((await probe()).ok, true);
    assert.deepEqual(sweeps, [[]]);
    // The identity is not cached: a lost marker is seen at once.
    const marker = fs.readFileSync(path.join(dir, STORAGE_MARKER));
    fs.rmSync(path.join(dir, STORAGE_MARKER));
    assert.match((await probe()).detail, /holds no \.gatehouse-storage-id/);
    fs.writeFileSync(path.join(dir, STORAGE_MARKER), marker);
    await new Promise((resolve) => setTimeout(resolve, interval + 20));
    const later = await probe();
    assert.equal(later.ok, false);
    assert.deepEqual(later.missing, [7]);
    assert.deepEqual(sweeps, [[], [7]]);
    await db.destroy();
  });
});

describe('the secret key', () => {
  it('is recorded by its fingerprint; another key is refused with what to do', async () => {
    const db = await freshDb();
    await checkSecretKey(db, 'f'.repeat(64), { secretKeySet: true, dataDir: '/data/a' });
    await checkSecretKey(db, 'f'.repeat(64), { secretKeySet: false, dataDir: '/data/b' });
    assert.equal(await readIdentity(db, IDENTITY.secretKey), 'f'.repeat(64));
    await assert.rejects(checkSecretKey(db, 'e'.repeat(64), { secretKeySet: false, dataDir: '/data/c' }), (e: Error) => {
      assert.ok(e instanceof ConfigError);
      assert.ok(e.message.includes('/data/c/secret.key') && e.message.includes('Set the same GATEHOUSE_SECRET_KEY on every instance'), e.message);
      return true;
    });
    await db.destroy();
  });
});
