import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canGroup, canInstance, canProject, groupRules, type GroupAction } from './index.ts';
import type { Actor } from '../auth/actor.ts';
import type { GroupRow, ProjectRow, UserRow } from '../db/schema.ts';

const user = (attrs: Partial<UserRow> = {}) => ({ id: 1, is_admin: 0, external: 0, can_create_group: 1, ...attrs }) as UserRow;
const actor = (attrs: Partial<UserRow> = {}): Actor => ({ user: user(attrs), via: 'token', scopes: ['api'] });
const anon: Actor = { user: null, via: 'anonymous', scopes: [] };
const group = (attrs: Partial<GroupRow> = {}) =>
  ({ visibility: 'private', subgroup_creation_level: 'maintainer', project_creation_level: 'developer', ...attrs }) as GroupRow;

describe('group rules', () => {
  const table: [GroupAction, number][] = [
    ['read_group', 10],
    ['admin_members', 40],
    ['admin_hooks', 50],
    ['admin_group', 50],
    ['remove_group', 50],
    ['read_group_settings', 50],
    ['create_subgroup', 40],
    ['create_project', 30],
  ];
  for (const [action, min] of table) {
    it(`${action} needs level ${min} in a private group`, () => {
      for (const level of [0, 10, 15, 20, 30, 40, 50]) {
        assert.equal(canGroup(actor(), action, { group: group(), level }), level >= min, `level ${level}`);
      }
    });
  }
  it('lets an administrator do everything', () => {
    for (const action of Object.keys(groupRules) as GroupAction[]) assert.ok(canGroup(actor({ is_admin: 1 }), action, { group: group(), level: 0 }));
  });
  it('reads public groups for anyone and internal ones for signed-in, non-external users', () => {
    assert.ok(canGroup(anon, 'read_group', { group: group({ visibility: 'public' }), level: 0 }));
    assert.ok(!canGroup(anon, 'read_group', { group: group({ visibility: 'internal' }), level: 0 }));
    assert.ok(canGroup(actor(), 'read_group', { group: group({ visibility: 'internal' }), level: 0 }));
    assert.ok(!canGroup(actor({ external: 1 }), 'read_group', { group: group({ visibility: 'internal' }), level: 0 }));
  });
  it('follows the group’s creation levels', () => {
    assert.ok(!canGroup(actor(), 'create_subgroup', { group: group({ subgroup_creation_level: 'owner' }), level: 40 }));
    assert.ok(!canGroup(actor(), 'create_project', { group: group({ project_creation_level: 'noone' }), level: 50 }));
    assert.ok(!canGroup(actor(), 'create_project', { group: group({ project_creation_level: 'maintainer' }), level: 30 }));
  });
});

describe('project and instance rules', () => {
  it('lets Maintainers administer projects and only Owners remove them', () => {
    const s = (level: number) => ({ project: { visibility: 'private' } as ProjectRow, group: group(), level });
    assert.ok(canProject(actor(), 'admin_project', s(40)));
    assert.ok(!canProject(actor(), 'admin_project', s(30)));
    assert.ok(!canProject(actor(), 'remove_project', s(40)));
    assert.ok(canProject(actor(), 'remove_project', s(50)));
  });
  it('keeps instance administration to administrators', () => {
    assert.ok(canInstance(actor({ is_admin: 1 }), 'admin_instance'));
    assert.ok(!canInstance(actor(), 'admin_instance'));
    assert.ok(!canInstance(actor({ can_create_group: 0 }), 'create_group'));
    assert.ok(!canInstance(anon, 'read_users'));
  });
});
