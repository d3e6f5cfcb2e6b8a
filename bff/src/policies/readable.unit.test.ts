import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openDb, type Db } from '../db/index.ts';
import type { GroupRow, ProjectRow, UserRow } from '../db/schema.ts';
import type { Actor } from '../auth/actor.ts';
import { canProject, PROJECT_READS, type ProjectReadAction } from './index.ts';
import { projectAccessLevel } from './access.ts';
import { createUser } from '../services/access/users.ts';
import { createGroup } from '../services/groups/groups.ts';
import { createProject } from '../services/groups/projects.ts';
import { issuesReadable, projectsReadable } from './readable.ts';
import { nowIso } from '../util/time.ts';

/**
 * The SQL form of the read rules answers what the rules answer: for every read of PROJECT_READS,
 * every kind of caller (anonymous, external, members of each role through the group or the
 * project, an expired membership, an administrator) and projects of every visibility, the
 * projects a list keeps are exactly those canProject allows; and the issues a list keeps are
 * those the issue rule shows.
 */
let db: Db;
const projects: { project: ProjectRow; group: GroupRow }[] = [];
const actors: [string, Actor][] = [];

const actor = (user: UserRow | null): Actor => (user ? { user, via: 'token', scopes: ['api'] } : { user: null, via: 'anonymous', scopes: [] });
const member = (type: 'group' | 'project', id: number, user: UserRow, level: number, expires: string | null = null) =>
  db.insertInto('members').values({ source_type: type, source_id: id, user_id: user.id, access_level: level, expires_at: expires, created_by_id: null, created_at: nowIso(), updated_at: nowIso() }).execute();

before(async () => {
  db = openDb({ sqliteFile: ':memory:' });
  await migrate(db);
  let n = 0;
  const user = async (attrs: { external?: boolean; admin?: boolean } = {}) => {
    const u = await createUser(db, { username: `u${++n}`, name: `U${n}`, email: `u${n}@example.com`, password: 'password1', admin: attrs.admin });
    if (attrs.external) await db.updateTable('users').set({ external: 1 }).where('id', '=', u.id).execute();
    return (await db.selectFrom('users').selectAll().where('id', '=', u.id).executeTakeFirstOrThrow()) as UserRow;
  };
  const owner = await user();
  const top = await createGroup(db, owner, { name: 'Top', path: 'top', visibility: 'public' }, null);
  const sub = await createGroup(db, owner, { name: 'Sub', path: 'sub', visibility: 'public' }, top);
  const closed = await createGroup(db, owner, { name: 'Closed', path: 'closed', visibility: 'private' }, null);
  for (const [group, visibilities] of [[top, ['public', 'internal', 'private']], [sub, ['public', 'private']], [closed, ['private']]] as const) {
    for (const visibility of visibilities) projects.push({ project: await createProject(db, owner, group, { name: `${group.path}-${visibility}`, namespace_id: group.id, visibility }), group });
  }
  actors.push(['anonymous', actor(null)], ['a signed-in non-member', actor(await user())], ['an external user', actor(await user({ external: true }))], ['an administrator', actor(await user({ admin: true }))]);
  for (const level of [10, 20, 30, 40]) {
    const viaTop = await user();
    await member('group', top.id, viaTop, level);
    const viaProject = await user();
    await member('project', projects.find((p) => p.project.visibility === 'private' && p.group.id === sub.id)!.project.id, viaProject, level);
    await member('project', projects.find((p) => p.group.id === closed.id)!.project.id, viaProject, 10);
    actors.push([`a member of role ${level} through the top group`, actor(viaTop)], [`a member of role ${level} of single projects`, actor(viaProject)]);
  }
  const expired = await user();
  await member('group', closed.id, expired, 30, '2000-01-01');
  actors.push(['a Developer whose membership expired', actor(expired)]);
});
after(() => db.destroy());

describe('projectsReadable', () => {
  for (const read of Object.keys(PROJECT_READS) as ProjectReadAction[]) {
    it(`keeps exactly the projects where canProject allows ${read}, for every caller`, async () => {
      for (const [who, a] of actors) {
        const kept = (await db.selectFrom('projects').select('projects.id').where(projectsReadable(a, read)).execute()).map((r) => r.id).sort();
        const allowed: number[] = [];
        for (const { project, group } of projects) {
          const level = await projectAccessLevel(db, a.user?.id, project, group);
          if (canProject(a, read, { project, group, level })) allowed.push(project.id);
        }
        assert.deepEqual(kept, allowed.sort(), `${read} for ${who}`);
      }
    });
  }
});

describe('issuesReadable', () => {
  it('keeps the issues of readable projects, and confidential ones for Reporters, their author and assignees', async () => {
    const now = nowIso();
    const [, , reporterActor, guestActor] = [actors[0], actors[1], actors.find(([w]) => w === 'a member of role 20 through the top group')![1], actors.find(([w]) => w === 'a member of role 10 through the top group')![1]];
    const ids: Record<string, number> = {};
    let iid = 0;
    for (const { project } of projects.filter((p) => p.group.path === 'top')) {
      for (const confidential of [0, 1]) {
        const row = await db
          .insertInto('issues')
          .values({ project_id: project.id, iid: ++iid, title: `${project.visibility}-${confidential}`, author_id: confidential && project.visibility === 'public' ? guestActor.user!.id : null, confidential, created_at: now, updated_at: now } as never)
          .returning('id')
          .executeTakeFirstOrThrow();
        ids[`${project.visibility}-${confidential}`] = row.id;
      }
    }
    const kept = async (a: Actor) => {
      const rows = await db.selectFrom('issues').select(['issues.id', 'issues.title']).where('issues.id', 'in', Object.values(ids)).where(issuesReadable(db, a)).execute();
      return rows.map((r) => r.title).sort();
    };
    assert.deepEqual(await kept(actors[0][1]), ['public-0']);
    assert.deepEqual(await kept(actors[1][1]), ['internal-0', 'public-0']);
    // The Guest wrote the public project's confidential issue: theirs to see.
    assert.deepEqual(await kept(guestActor), ['internal-0', 'private-0', 'public-0', 'public-1']);
    assert.deepEqual(await kept(reporterActor), ['internal-0', 'internal-1', 'private-0', 'private-1', 'public-0', 'public-1']);
  });
});
