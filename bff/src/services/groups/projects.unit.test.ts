import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDb, type Db } from '../../db/index.ts';
import type { Actor } from '../../auth/actor.ts';
import { anonymous } from '../../auth/actor.ts';
import { nowIso } from '../../util/time.ts';
import { createUser } from '../access/users.ts';
import { createGroup, findGroupWithLevel } from './groups.ts';
import { createProject, projectsOfGroup } from './projects.ts';
import { groupAccessLevel } from '../../policies/access.ts';

let db: Db;
before(async () => {
  db = openDb({ sqliteFile: ':memory:' });
  await migrate(db);
});
after(() => db.destroy());

describe('the group detail’s read path', () => {
  it('loads a group with the caller’s role, and shows the same projects with that role as without it', async () => {
    const user = (name: string) => createUser(db, { username: name, name, email: `${name}@example.com`, password: 'password1' });
    const owner = await user('owner');
    const top = await createGroup(db, owner, { name: 'Top', path: 'top', visibility: 'internal' }, null);
    const sub = await createGroup(db, owner, { name: 'Sub', path: 'sub', visibility: 'internal' }, top);
    const open = await createProject(db, owner, sub, { name: 'Open', namespace_id: sub.id, visibility: 'internal' });
    const closed = await createProject(db, owner, sub, { name: 'Closed', namespace_id: sub.id, visibility: 'private' });
    const now = nowIso();
    const member = async (source_type: 'group' | 'project', source_id: number, access_level: number, expires_at: string | null = null) => {
      const u = await user(`u${source_type}${source_id}${access_level}${expires_at ?? ''}`.replace(/\W/g, ''));
      await db.insertInto('members').values({ source_type, source_id, user_id: u.id, access_level, expires_at, created_by_id: owner.id, created_at: now, updated_at: now }).execute();
      return u;
    };
    const callers: [string, Actor][] = [
      ['the owner', { user: owner, via: 'token', scopes: ['api'] }],
      ['a Guest of the parent', { user: await member('group', top.id, 10), via: 'token', scopes: ['api'] }],
      ['a member whose membership expired', { user: await member('group', top.id, 30, '2000-01-01'), via: 'token', scopes: ['api'] }],
      ['a member of the private project only', { user: await member('project', closed.id, 30), via: 'token', scopes: ['api'] }],
      ['a signed-in outsider', { user: await user('outsider'), via: 'token', scopes: ['api'] }],
      ['an anonymous caller', anonymous],
    ];
    const seen: Record<string, string[]> = {};
    for (const [who, actor] of callers) {
      const found = await findGroupWithLevel(db, 'TOP/Sub', actor.user?.id);
      assert.equal(found?.group.id, sub.id, who);
      assert.equal(found!.level, await groupAccessLevel(db, actor.user?.id, sub), who);
      const withLevel = (await projectsOfGroup(db, actor, sub.id, 100, found!.level)).map((p) => p.name);
      assert.deepEqual(withLevel, (await projectsOfGroup(db, actor, sub.id, 100)).map((p) => p.name), who);
      seen[who] = withLevel;
    }
    assert.deepEqual(seen, {
      'the owner': [open.name, closed.name],
      'a Guest of the parent': [open.name, closed.name],
      'a member whose membership expired': [open.name],
      'a member of the private project only': [open.name, closed.name],
      'a signed-in outsider': [open.name],
      'an anonymous caller': [],
    });
    assert.equal(await findGroupWithLevel(db, String(2 ** 31), owner.id), undefined);
  });
});
