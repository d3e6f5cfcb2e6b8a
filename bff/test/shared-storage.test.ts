import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb, type Db } from '../src/db/index.ts';
import { IDENTITY, readIdentity } from '../src/services/instance/identity.ts';
import { checkRepositoriesStorage, readStorageMarker, STORAGE_MARKER } from '../src/services/git/storage.ts';
import { cloneAs } from './git-client.ts';
import { callInstance, sharedInstallation, stopInstance, type Instance, type SharedInstallation } from './instances.ts';

/**
 * Instances of one installation, as on machines of their own: real server processes on one
 * database, each with its own data directory, and one repositories directory that all of them
 * mount. On SQLite the database is a file in the data directory, so there they share it (two
 * processes on one file); on PostgreSQL (GATEHOUSE_TEST_PG) each has its own.
 */
const TOKEN = `shared-storage-token-${crypto.randomBytes(6).toString('hex')}`;
const ROOT = { username: 'root' };
const MIGRATIONS = fs.readdirSync(fileURLToPath(new URL('../src/db/migrations/', import.meta.url))).filter((f) => /^\d{3}_[a-z0-9_]+\.ts$/.test(f));
const onPostgres = Boolean(process.env.GATEHOUSE_TEST_PG);

let installation: SharedInstallation;
let db: Db;
let a: Instance;
let b: Instance;
let shared: string;
/** An instance's own data directory (the installation's on SQLite). */
const dataDirOf = (name: string) => (onPostgres ? path.join(installation.dataDir, name) : installation.dataDir);
const instanceEnv = (name: string) => ({ GATEHOUSE_DATA_DIR: dataDirOf(name), GATEHOUSE_REPOSITORIES_DIR: shared });
const call = (url: string, p: string, method = 'GET', body?: unknown) => callInstance(url, TOKEN, method, p, body);

before(async () => {
  if (!onPostgres) console.log('shared-storage: GATEHOUSE_TEST_PG is unset, so the instances share one SQLite file and data directory (each has its own only on PostgreSQL)');
  installation = await sharedInstallation('shared-storage', TOKEN);
  shared = path.join(installation.dataDir, 'shared-repositories');
  // Both at the same moment, on a database nothing has migrated yet.
  const started = await Promise.allSettled([installation.start(instanceEnv('a')), installation.start(instanceEnv('b'))]);
  const up = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  if (up.length < 2) {
    await Promise.all(up.map((i) => stopInstance(i.child)));
    throw (started.find((s) => s.status === 'rejected') as PromiseRejectedResult).reason;
  }
  [a, b] = up as [Instance, Instance];
  db = openDb({ databaseUrl: installation.databaseUrl, sqliteFile: installation.sqliteFile, poolSize: 2 });
});

after(async () => {
  await db?.destroy();
  await installation?.close();
});

async function projectWithCommit(through: Instance, name: string): Promise<{ id: number; path_with_namespace: string; sha: string }> {
  const group = await call(a.url, '/groups', 'POST', { name, path: `${name}-${crypto.randomBytes(3).toString('hex')}` });
  assert.equal(group.status, 201, group.text);
  const project = await call(a.url, '/projects', 'POST', { name: 'site', namespace_id: group.body.id });
  assert.equal(project.status, 201, project.text);
  const client = await cloneAs(through.url, project.body.path_with_namespace, ROOT, TOKEN);
  try {
    const pushed = await client.pushCommit('main', { 'README.md': `# ${name}\n` }, 'First commit');
    assert.ok(pushed.ok, pushed.out);
    return { ...project.body, sha: pushed.sha };
  } finally {
    client.remove();
  }
}

describe('instances on one database and one repositories directory', () => {
  it('started at the same moment on a new database, both come up, with each migration run once and one storage identity', async () => {
    const ran = (await db.selectFrom('kysely_migration' as never).select('name' as never).execute()) as { name: string }[];
    assert.deepEqual(ran.map((r) => r.name).sort(), MIGRATIONS.map((f) => f.replace(/\.ts$/, '')).sort());
    const id = await readIdentity(db, IDENTITY.repositoriesStorage);
    assert.match(id ?? '', /^[0-9a-f]{32}$/);
    assert.equal(readStorageMarker(shared), id);
    assert.match((await readIdentity(db, IDENTITY.secretKey)) ?? '', /^[0-9a-f]{64}$/);
    for (const instance of [a, b]) assert.equal((await call(instance.url, '/user')).status, 200);
  });

  it('a project made through one takes a push through the other, and clones with that commit through the first', async () => {
    const project = await projectWithCommit(b, 'pushed-through-b');
    const clone = await cloneAs(a.url, project.path_with_namespace, ROOT, TOKEN);
    try {
      assert.equal((await clone.git(['rev-parse', 'HEAD'])).out.trim(), project.sha);
      assert.equal(fs.readFileSync(path.join(clone.dir, 'README.md'), 'utf8'), '# pushed-through-b\n');
    } finally {
      clone.remove();
    }
    const tree = await call(a.url, `/projects/${project.id}/repository/tree`);
    assert.equal(tree.status, 200, tree.text);
    assert.deepEqual(tree.body.map((e: { name: string }) => e.name), ['README.md']);
    assert.ok(fs.existsSync(path.join(shared, `${project.id}.git`, 'HEAD')));
    if (onPostgres) for (const own of ['a', 'b']) assert.equal(fs.existsSync(path.join(dataDirOf(own), 'repositories')), false, `no repository under ${own}'s own data directory`);
  });

  it('a repository that was made but is missing answers an error, never an empty clone, and the storage check reports it', async () => {
    const project = await projectWithCommit(a, 'lost');
    const before = await checkRepositoriesStorage(db, { repositoriesDir: shared });
    assert.equal(before.ok, true, before.detail);
    const dir = path.join(shared, `${project.id}.git`);
    fs.rmSync(dir, { recursive: true });

    await assert.rejects(cloneAs(b.url, project.path_with_namespace, ROOT, TOKEN), (e: Error) => {
      assert.match(e.message, /missing from the server's storage/);
      return true;
    });
    const tree = await call(a.url, `/projects/${project.id}/repository/tree`);
    assert.equal(tree.status, 500, tree.text);
    assert.deepEqual(tree.body, { message: '500 Internal Server Error' });
    assert.equal(fs.existsSync(dir), false, 'no new empty repository was made');
    // The project reads as it was, not as a new empty one.
    const shown = await call(b.url, `/projects/${project.id}`);
    assert.equal(shown.status, 200, shown.text);
    assert.equal(shown.body.empty_repo, false);

    const check = await checkRepositoriesStorage(db, { repositoriesDir: shared });
    assert.equal(check.ok, false);
    assert.deepEqual(check.missing, [project.id]);
    // /-/readiness tells it but keeps the instance in: every instance shares the directory.
    const ready = await fetch(`${b.url}/-/readiness`);
    const body = (await ready.json()) as Record<string, [{ status: string; message?: string }]>;
    assert.equal(ready.status, 200, JSON.stringify(body));
    assert.equal(body.repositories_storage_check[0].status, 'ok');
    assert.match(body.repositories_storage_check[0].message ?? '', /1 of \d+ repositories checked are missing/);
    assert.equal(body.file_store_check[0].status, 'ok');
  });

  it('an instance whose repositories directory loses its identity (storage unmounted) is taken out: /-/readiness answers 503 naming the directory', async () => {
    const marker = path.join(shared, STORAGE_MARKER);
    const kept = fs.readFileSync(marker);
    fs.rmSync(marker);
    try {
      const ready = await fetch(`${a.url}/-/readiness`);
      const body = (await ready.json()) as Record<string, [{ status: string; message?: string }]>;
      assert.equal(ready.status, 503, JSON.stringify(body));
      assert.equal(body.status as unknown, 'failed');
      assert.equal(body.repositories_storage_check[0].status, 'failed');
      assert.ok(body.repositories_storage_check[0].message?.includes(shared), JSON.stringify(body));
      assert.equal(body.db_check[0].status, 'ok');
    } finally {
      fs.writeFileSync(marker, kept);
    }
    assert.equal((await fetch(`${a.url}/-/readiness`)).status, 200);
  });

  it('an instance whose repositories directory does not hold the storage identity refuses to start, naming the directory', async () => {
    const id = (await readIdentity(db, IDENTITY.repositoriesStorage))!;
    const empty = path.join(installation.dataDir, 'elsewhere');
    const refused = await installation.startRefused({ GATEHOUSE_DATA_DIR: dataDirOf('c'), GATEHOUSE_REPOSITORIES_DIR: empty });
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.ok(refused.stderr.includes(`the repositories directory ${empty} is not the installation's`), refused.stderr);
    assert.ok(refused.stderr.includes(id) && refused.stderr.includes('point GATEHOUSE_REPOSITORIES_DIR at that directory'), refused.stderr);
    assert.equal(fs.existsSync(path.join(empty, STORAGE_MARKER)), false, 'the refused directory got no marker');

    const other = path.join(installation.dataDir, 'other-installation');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, STORAGE_MARKER), `${'0'.repeat(32)}\n`);
    const mismatched = await installation.startRefused({ GATEHOUSE_DATA_DIR: dataDirOf('c'), GATEHOUSE_REPOSITORIES_DIR: other });
    assert.equal(mismatched.code, 2, mismatched.stdout + mismatched.stderr);
    assert.ok(mismatched.stderr.includes(other) && mismatched.stderr.includes(`holds "${'0'.repeat(32)}"`), mismatched.stderr);
  });

  it('an instance with another secret key refuses to start, saying to set the same key on every instance', async () => {
    const other = await installation.startRefused({ ...instanceEnv('d'), GATEHOUSE_SECRET_KEY: 'another-secret-key-that-no-other-instance-has' });
    assert.equal(other.code, 2, other.stdout + other.stderr);
    assert.ok(other.stderr.includes('Set the same GATEHOUSE_SECRET_KEY on every instance'), other.stderr);
    // Without one, it generates a key of its own into its data directory: refused as well.
    const generated = await installation.startRefused({ ...instanceEnv('e'), GATEHOUSE_SECRET_KEY: '' });
    assert.equal(generated.code, 2, generated.stdout + generated.stderr);
    assert.ok(generated.stderr.includes(`${dataDirOf('e')}/secret.key (GATEHOUSE_SECRET_KEY is not set)`), generated.stderr);
  });
});
