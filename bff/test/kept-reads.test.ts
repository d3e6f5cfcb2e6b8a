import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import pg from 'pg';
import { callInstance, sharedInstallation, type Instance, type SharedInstallation } from './instances.ts';
import { tableChangesOf, openDb, pgConnection, type Db } from '../src/db/index.ts';
import { WATCHED_TABLES } from '../src/db/table-changes.ts';
import { actorForToken } from '../src/services/access/authentication.ts';
import { findGroupWithLevel } from '../src/services/groups/groups.ts';
import { flags } from '../src/services/instance/features.ts';

/**
 * What a token may do, and what a group shows and to whom, is read anew after every change,
 * on every instance of an installation, although on PostgreSQL each instance keeps what it
 * read (token lookups, groups with the caller's role, a group's projects: a round trip each
 * otherwise): two real server processes on one database, the change made through one, the
 * result read through both.
 */
const ROOT = `lookups-root-token-${crypto.randomBytes(6).toString('hex')}`;
let installation: SharedInstallation;
let a: Instance;
let b: Instance;

const call = (instance: Instance, method: string, path: string, token: string, body?: unknown) => callInstance(instance.url, token, method, path, body);

/** A user with a token (api scope), used on both instances so that each keeps its lookup. */
async function userWithToken(name: string) {
  const user = (await call(a, 'POST', '/users', ROOT, { email: `${name}@example.com`, username: name, name, password: 'lookup-password-1', skip_confirmation: true })).body;
  const token = (await call(a, 'POST', `/users/${user.id}/personal_access_tokens`, ROOT, { name: 'ci', scopes: ['api'] })).body;
  for (const instance of [a, b, a, b]) assert.equal((await call(instance, 'GET', '/user', token.token)).status, 200);
  return { user, token };
}

/** How long the instance took to answer `status` for the token, polling; fails after 2 s. */
async function until(instance: Instance, token: string, check: (r: { status: number; body: { is_admin?: boolean } }) => boolean): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 2000) {
    if (check(await call(instance, 'GET', '/user', token))) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail('the other instance still answered from what it knew before the change');
}

before(async () => {
  installation = await sharedInstallation('token-lookups', ROOT);
  a = await installation.start();
  b = await installation.start();
});
after(() => installation.close());

describe('a token changed through one instance', () => {
  it('is refused at once by that instance, and by the other as soon as it hears of it, once revoked', async () => {
    const { token } = await userWithToken('revoked-one');
    assert.equal((await call(a, 'DELETE', `/personal_access_tokens/${token.id}`, ROOT)).status, 204);
    assert.equal((await call(a, 'GET', '/user', token.token)).status, 401);
    const ms = await until(b, token.token, (r) => r.status === 401);
    assert.ok(ms < 2000);
  });

  it('is refused once its user is blocked, and its user shows as administrator once made one', async () => {
    const { user, token } = await userWithToken('blocked-one');
    assert.equal((await call(a, 'PUT', `/users/${user.id}`, ROOT, { admin: true })).status, 200);
    assert.equal((await call(a, 'GET', '/user', token.token)).body.is_admin, true);
    await until(b, token.token, (r) => r.body.is_admin === true);
    assert.equal((await call(a, 'POST', `/users/${user.id}/block`, ROOT)).status, 201);
    assert.equal((await call(a, 'GET', '/user', token.token)).status, 401);
    await until(b, token.token, (r) => r.status === 401);
  });

  it('is refused once rotated, the new one taken', async () => {
    const { token } = await userWithToken('rotated-one');
    const rotated = await call(b, 'POST', `/personal_access_tokens/${token.id}/rotate`, ROOT);
    assert.equal(rotated.status, 200);
    assert.equal((await call(b, 'GET', '/user', token.token)).status, 401);
    await until(a, token.token, (r) => r.status === 401);
    assert.equal((await call(a, 'GET', '/user', rotated.body.token)).status, 200);
  });
});

/** Polls the instance until `check` holds for its answer to GET `path` as `token`; fails after 2 s. */
async function untilRead(instance: Instance, path: string, token: string, check: (r: { status: number; body: any }) => boolean): Promise<void> {
  const started = performance.now();
  while (performance.now() - started < 2000) {
    if (check(await call(instance, 'GET', path, token))) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`the instance still answered GET ${path} from what it knew before the change`);
}

describe('a group changed through one instance', () => {
  let group: { id: number };
  let member: { user: { id: number }; token: { token: string } };
  before(async () => {
    group = (await call(a, 'POST', '/groups', ROOT, { name: 'Kept group', path: 'kept-group', visibility: 'private' })).body;
    member = await userWithToken('group-reader');
  });
  const read = (instance: Instance, token: string) => call(instance, 'GET', `/groups/${group.id}`, token);

  it('shows its new name at once on that instance, and on the other as soon as it hears of it', async () => {
    for (const instance of [a, b, a, b]) assert.equal((await read(instance, ROOT)).body.name, 'Kept group');
    assert.equal((await call(a, 'PUT', `/groups/${group.id}`, ROOT, { name: 'Renamed group' })).status, 200);
    assert.equal((await read(a, ROOT)).body.name, 'Renamed group');
    await untilRead(b, `/groups/${group.id}`, ROOT, (r) => r.body.name === 'Renamed group');
  });

  it('opens to a member once added, shows them its settings once Owner, and closes once they are removed', async () => {
    for (const instance of [a, b]) assert.equal((await read(instance, member.token.token)).status, 404);
    assert.equal((await call(a, 'POST', `/groups/${group.id}/members`, ROOT, { user_id: member.user.id, access_level: 30 })).status, 201);
    assert.equal((await read(a, member.token.token)).status, 200);
    await untilRead(b, `/groups/${group.id}`, member.token.token, (r) => r.status === 200 && r.body.runners_token === undefined);
    assert.equal((await call(b, 'PUT', `/groups/${group.id}/members/${member.user.id}`, ROOT, { access_level: 50 })).status, 200);
    assert.ok('runners_token' in (await read(b, member.token.token)).body);
    await untilRead(a, `/groups/${group.id}`, member.token.token, (r) => 'runners_token' in r.body);
    assert.equal((await call(a, 'DELETE', `/groups/${group.id}/members/${member.user.id}`, ROOT)).status, 204);
    assert.equal((await read(a, member.token.token)).status, 404);
    await untilRead(b, `/groups/${group.id}`, member.token.token, (r) => r.status === 404);
  });

  it('lists a project created in it, and drops it once deleted', async () => {
    for (const instance of [a, b]) assert.deepEqual((await read(instance, ROOT)).body.projects, []);
    const project = (await call(b, 'POST', '/projects', ROOT, { name: 'Kept project', namespace_id: group.id })).body;
    assert.deepEqual((await read(b, ROOT)).body.projects.map((p: { id: number }) => p.id), [project.id]);
    await untilRead(a, `/groups/${group.id}`, ROOT, (r) => r.body.projects.length === 1);
    assert.equal((await call(b, 'DELETE', `/projects/${project.id}`, ROOT)).status, 202);
    await untilRead(a, `/groups/${group.id}`, ROOT, (r) => r.body.projects.length === 0);
  });
});

describe('the groups list, changed through one instance', () => {
  /** The names in the list as the instance answers it (administrator, all groups by name), and its X-Total. */
  const list = async (instance: Instance, token: string, query = '') => {
    const res = await fetch(`${instance.url}/api/v4/groups?per_page=100&search=listed${query}`, { headers: { 'PRIVATE-TOKEN': token } });
    const body = (await res.json()) as { name: string }[];
    return { status: res.status, names: body.map((g) => g.name), total: res.headers.get('x-total') };
  };
  async function untilList(instance: Instance, token: string, check: (r: Awaited<ReturnType<typeof list>>) => boolean): Promise<void> {
    const started = performance.now();
    while (performance.now() - started < 2000) {
      if (check(await list(instance, token))) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.fail('the instance still listed the groups as they were before the change');
  }

  it('shows a group created, renamed and deleted through the other, its count with it', async () => {
    for (const instance of [a, b, a, b]) assert.deepEqual((await list(instance, ROOT)).names, []);
    const group = (await call(a, 'POST', '/groups', ROOT, { name: 'Listed one', path: 'listed-one', visibility: 'private' })).body;
    assert.deepEqual(await list(a, ROOT), { status: 200, names: ['Listed one'], total: '1' });
    await untilList(b, ROOT, (r) => r.total === '1' && r.names[0] === 'Listed one');
    assert.equal((await call(b, 'PUT', `/groups/${group.id}`, ROOT, { name: 'Listed renamed' })).status, 200);
    assert.deepEqual((await list(b, ROOT)).names, ['Listed renamed']);
    await untilList(a, ROOT, (r) => r.names[0] === 'Listed renamed');
    const second = (await call(b, 'POST', '/groups', ROOT, { name: 'Listed two', path: 'listed-two', visibility: 'private' })).body;
    await untilList(a, ROOT, (r) => r.total === '2');
    // A page past the end still carries the count.
    const past = await fetch(`${a.url}/api/v4/groups?per_page=1&page=5&search=listed`, { headers: { 'PRIVATE-TOKEN': ROOT } });
    assert.equal(past.headers.get('x-total'), '2');
    assert.deepEqual(await past.json(), []);
    assert.equal((await call(a, 'DELETE', `/groups/${second.id}`, ROOT)).status, 202);
    await untilList(b, ROOT, (r) => r.total === '1' && r.names.length === 1);
  });

  it('opens a private group to a member once added, and closes it once they are removed', async () => {
    const member = await userWithToken('list-reader');
    const group = (await call(a, 'POST', '/groups', ROOT, { name: 'Listed private', path: 'listed-private', visibility: 'private' })).body;
    for (const instance of [a, b, a, b]) assert.equal((await list(instance, member.token.token)).names.includes('Listed private'), false);
    assert.equal((await call(a, 'POST', `/groups/${group.id}/members`, ROOT, { user_id: member.user.id, access_level: 30 })).status, 201);
    assert.equal((await list(a, member.token.token)).names.includes('Listed private'), true);
    await untilList(b, member.token.token, (r) => r.names.includes('Listed private'));
    assert.equal((await call(b, 'DELETE', `/groups/${group.id}/members/${member.user.id}`, ROOT)).status, 204);
    assert.equal((await list(b, member.token.token)).names.includes('Listed private'), false);
    await untilList(a, member.token.token, (r) => !r.names.includes('Listed private'));
  });
});

describe('a feature flag set through one instance', () => {
  /** Polls until the instance's answer to the call passes `check`; fails after 2 s. */
  async function untilCall(instance: Instance, method: string, path: string, body: unknown, check: (status: number) => boolean): Promise<void> {
    const started = performance.now();
    while (performance.now() - started < 2000) {
      if (check((await call(instance, method, path, ROOT, body)).status)) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.fail(`the instance still answered ${method} ${path} by the flag as it was before the change`);
  }

  it('takes effect at once on that instance, and on the other as soon as it hears of it; reset, likewise', async () => {
    const group = (await call(a, 'POST', '/groups', ROOT, { name: 'Flagged', path: 'flagged' })).body;
    const project = (await call(a, 'POST', '/projects', ROOT, { name: 'flagged', namespace_id: group.id })).body;
    const exportPath = `/security/projects/${project.id}/vulnerability_exports`;
    const pdf = (instance: Instance) => call(instance, 'POST', exportPath, ROOT, { export_format: 'pdf' });
    for (const instance of [a, b, a, b]) assert.equal((await pdf(instance)).status, 400, 'off by default: each instance keeps that');
    assert.equal((await call(a, 'POST', '/features/vulnerabilities_pdf_export', ROOT, { value: true, project: project.path_with_namespace })).status, 201);
    assert.equal((await pdf(a)).status, 201);
    // On the other, the flag lets the export through: the one just started is still in progress (429) or done (201).
    await untilCall(b, 'POST', exportPath, { export_format: 'pdf' }, (status) => status !== 400);
    assert.equal((await call(b, 'DELETE', '/features/vulnerabilities_pdf_export', ROOT)).status, 204);
    assert.equal((await pdf(b)).status, 400);
    await untilCall(a, 'POST', exportPath, { export_format: 'pdf' }, (status) => status === 400);
  });
});

describe('the reads an instance keeps on PostgreSQL', { skip: process.env.GATEHOUSE_TEST_PG ? false : 'PostgreSQL only: its notices and its triggers' }, () => {
  let db: Db;
  let raw: pg.Client;
  let plaintext: string;
  let tokenId: number;
  before(async () => {
    db = openDb({ databaseUrl: installation.databaseUrl });
    raw = new pg.Client(pgConnection(installation.databaseUrl!));
    await raw.connect();
    const made = await userWithToken('kept-one');
    plaintext = made.token.token;
    tokenId = made.token.id;
    const started = performance.now();
    while (!tableChangesOf(db)!.live && performance.now() - started < 5000) await new Promise((r) => setTimeout(r, 10));
  });
  after(async () => {
    await raw.end();
    await db.destroy();
  });

  it('are kept: a change that sends no notice is not seen until one comes', async () => {
    assert.equal(typeof (await actorForToken(db, plaintext)), 'object');
    // As an operator's script with triggers off (a replica's role): the row changes, no notice is sent.
    await raw.query('set session_replication_role = replica');
    await raw.query('update personal_access_tokens set revoked = 1 where id = $1', [tokenId]);
    await raw.query('set session_replication_role = default');
    assert.equal(typeof (await actorForToken(db, plaintext)), 'object', 'the kept lookup answers');
    await raw.query('notify gatehouse_auth');
    const started = performance.now();
    let result = await actorForToken(db, plaintext);
    while (result !== 'revoked' && performance.now() - started < 2000) {
      await new Promise((r) => setTimeout(r, 5));
      result = await actorForToken(db, plaintext);
    }
    assert.equal(result, 'revoked');
  });

  it('a write of this process counts the moment it returns', async () => {
    await raw.query('update personal_access_tokens set revoked = 0 where id = $1', [tokenId]);
    let result = await actorForToken(db, plaintext);
    for (let i = 0; i < 200 && typeof result !== 'object'; i++) {
      await new Promise((r) => setTimeout(r, 10));
      result = await actorForToken(db, plaintext);
    }
    assert.equal(typeof result, 'object');
    await db.updateTable('personal_access_tokens').set({ revoked: 1 }).where('id', '=', tokenId).execute();
    assert.equal(await actorForToken(db, plaintext), 'revoked');
  });

  /**
   * Until this process has heard every notice of `table` sent so far: notices come in the order
   * their transactions committed, so once ours is heard, so are those of the writes before it
   * (another instance's, whose notice could otherwise land after a read and unkeep it).
   */
  async function heardUpTo(table: string) {
    const changes = tableChangesOf(db)!;
    const before = changes.generationOf([table]) ?? 0;
    await raw.query(`notify gatehouse_changes, '${table}'`);
    const started = performance.now();
    while ((changes.generationOf([table]) ?? 0) <= before && performance.now() - started < 5000) await new Promise((r) => setTimeout(r, 5));
  }

  it('a group read is kept until a notice names its table, and a write of this process counts the moment it returns', async () => {
    const { id } = (await call(a, 'POST', '/groups', ROOT, { name: 'Kept in process', path: 'kept-in-process' })).body;
    await heardUpTo('groups');
    const name = async () => (await findGroupWithLevel(db, String(id), 1))?.group.name;
    assert.equal(await name(), 'Kept in process');
    await raw.query('set session_replication_role = replica');
    await raw.query("update groups set name = 'Changed unheard' where id = $1", [id]);
    await raw.query('set session_replication_role = default');
    assert.equal(await name(), 'Kept in process', 'the kept read answers');
    await raw.query("notify gatehouse_changes, 'groups'");
    const started = performance.now();
    while ((await name()) !== 'Changed unheard' && performance.now() - started < 2000) await new Promise((r) => setTimeout(r, 5));
    assert.equal(await name(), 'Changed unheard');
    await db.updateTable('groups').set({ name: 'Changed here' }).where('id', '=', id).execute();
    assert.equal(await name(), 'Changed here');
  });

  it('a feature flag read is kept until a notice names its table, and a write of this process counts the moment it returns', async () => {
    const name = 'web_hook_event_resend_api_endpoint_rate_limit';
    assert.equal(await flags.enabled(db, name), true, 'not set: its default');
    await raw.query('set session_replication_role = replica');
    await raw.query("insert into features (name, boolean_value, created_at, updated_at) values ($1, 0, 'now', 'now')", [name]);
    await raw.query('set session_replication_role = default');
    assert.equal(await flags.enabled(db, name), true, 'the kept read answers');
    await raw.query("notify gatehouse_changes, 'features'");
    const started = performance.now();
    while ((await flags.enabled(db, name)) && performance.now() - started < 2000) await new Promise((r) => setTimeout(r, 5));
    assert.equal(await flags.enabled(db, name), false);
    await db.deleteFrom('features').where('name', '=', name).execute();
    assert.equal(await flags.enabled(db, name), true);
  });

  it('a read keeps at most 10,000 rows: the oldest answer goes first', async () => {
    const { id } = (await call(a, 'POST', '/groups', ROOT, { name: 'Kept longest', path: 'kept-longest' })).body;
    await heardUpTo('groups');
    const name = async () => (await findGroupWithLevel(db, String(id), 1))?.group.name;
    assert.equal(await name(), 'Kept longest');
    await raw.query('set session_replication_role = replica');
    await raw.query("update groups set name = 'Changed unheard' where id = $1", [id]);
    await raw.query('set session_replication_role = default');
    assert.equal(await name(), 'Kept longest', 'kept');
    // 10,000 other answers (no group: a row each, as the limit counts them) push it out.
    for (let i = 0; i < 10_000; i++) await findGroupWithLevel(db, String(1_000_000 + i), 1);
    assert.equal(await name(), 'Changed unheard', 'read again once no longer kept');
  });

  it('a write in a transaction counts again when it commits: a read made meanwhile is not kept past the commit', async () => {
    const { id } = (await call(a, 'POST', '/groups', ROOT, { name: 'Before commit', path: 'before-commit' })).body;
    const name = async () => (await findGroupWithLevel(db, String(id), 1))?.group.name;
    assert.equal(await name(), 'Before commit');
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('groups').set({ name: 'After commit' }).where('id', '=', id).execute();
      // Another connection reads the committed row, under the generation the write raised.
      assert.equal(await name(), 'Before commit');
      assert.equal(await name(), 'Before commit');
    });
    assert.equal(await name(), 'After commit');
  });

  it('every watched table has its triggers, and no other table has any', async () => {
    const { rows } = await raw.query<{ table: string }>(
      "select distinct event_object_table as table from information_schema.triggers where trigger_name like '%\\_changed' or trigger_name like '%\\_auth\\_%'",
    );
    assert.deepEqual(rows.map((r) => r.table).sort(), [...WATCHED_TABLES].sort());
  });

  it('the triggers send a notice for a change that matters, none for a mark of use', async () => {
    const heard: string[] = [];
    raw.on('notification', (n) => heard.push(n.payload ?? ''));
    await raw.query('listen gatehouse_auth');
    await raw.query("update personal_access_tokens set last_used_at = '2026-01-01T00:00:00.000Z' where id = $1", [tokenId]);
    await raw.query("update users set last_sign_in_at = '2026-01-01T00:00:00.000Z' where username = 'kept-one'");
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(heard, []);
    await raw.query("update personal_access_tokens set name = 'renamed' where id = $1", [tokenId]);
    await raw.query("update users set name = 'Renamed' where username = 'kept-one'");
    await raw.query('delete from personal_access_tokens where id = $1', [tokenId]);
    const started = performance.now();
    while (heard.length < 3 && performance.now() - started < 2000) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(heard, ['personal_access_tokens', 'users', 'personal_access_tokens']);
    assert.equal(await actorForToken(db, plaintext), 'unknown');
  });
});
