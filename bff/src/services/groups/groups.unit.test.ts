import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDb, type Db } from '../../db/index.ts';
import { createUser } from '../access/users.ts';
import { createGroup, updateGroup } from './groups.ts';
import { createProject } from './projects.ts';
import { groupAccessLevel } from '../../policies/access.ts';
import { hit } from '../rate-limits.ts';
import type { Actor } from '../../auth/actor.ts';
import { DomainError } from '../../util/errors.ts';

// Services take plain values and a database handle: tested here without a server.
let db: Db;
before(async () => {
  db = openDb({ sqliteFile: ':memory:' });
  await migrate(db);
});
after(() => db.destroy());

describe('group services', () => {
  it('creates a tree, inherits roles down it, and renames paths all the way down', async () => {
    const owner = await createUser(db, { username: 'owner', name: 'Owner', email: 'o@example.com', password: 'password1' });
    const actor: Actor = { user: owner, via: 'token', scopes: ['api'] };
    const top = await createGroup(db, owner, { name: 'Top', path: 'top' }, null);
    const mid = await createGroup(db, owner, { name: 'Mid', path: 'mid' }, top);
    const leaf = await createGroup(db, owner, { name: 'Leaf', path: 'leaf' }, mid);
    const project = await createProject(db, owner, leaf, { name: 'App', namespace_id: leaf.id });
    assert.equal(leaf.traversal, `/${top.id}/${mid.id}/${leaf.id}/`);
    assert.equal(await groupAccessLevel(db, owner.id, leaf), 50);
    assert.equal(await groupAccessLevel(db, owner.id + 1000, leaf), 0);

    await updateGroup(db, actor, mid, { path: 'middle', name: 'Middle' });
    const renamed = await db.selectFrom('groups').selectAll().where('id', '=', leaf.id).executeTakeFirstOrThrow();
    assert.equal(renamed.full_path, 'top/middle/leaf');
    assert.equal(renamed.full_name, 'Top / Middle / Leaf');
    const p = await db.selectFrom('projects').selectAll().where('id', '=', project.id).executeTakeFirstOrThrow();
    assert.equal(p.path_with_namespace, 'top/middle/leaf/app');
  });
  it('rejects a visibility above the parent’s with a validation error', async () => {
    const owner = await createUser(db, { username: 'owner2', name: 'Owner', email: 'o2@example.com', password: 'password1' });
    const parent = await createGroup(db, owner, { name: 'P', path: 'p', visibility: 'private' }, null);
    await assert.rejects(
      createGroup(db, owner, { name: 'C', path: 'c', visibility: 'public' }, parent),
      (e: unknown) => e instanceof DomainError && e.kind === 'invalid',
    );
  });
});

describe('rate limit counters', () => {
  it('count within a window and start again after it', async () => {
    assert.equal((await hit(db, 'k', 60_000, 1)).count, 1);
    assert.equal((await hit(db, 'k', 60_000, 2)).count, 3);
    assert.equal((await hit(db, 'k', 60_000, 0)).count, 3);
    await db.updateTable('rate_limits').set({ window_start: '2000-01-01T00:00:00.000Z' }).where('key', '=', 'k').execute();
    assert.equal((await hit(db, 'k', 60_000, 0)).count, 0);
    assert.equal((await hit(db, 'k', 60_000, 1)).count, 1);
  });
});
