import { addMember, buildGroup, buildProject, buildUser, userWithRole } from './harness.ts';

/** Shared by the hook tests: a group (or a project in one) with an admin of its hooks, an Owner for groups, a Maintainer for projects. */
export async function hookOwner(scope: 'groups' | 'projects') {
  const group = await buildGroup();
  if (scope === 'groups') return { id: group.id, group, admin: await userWithRole(group.id, 50), base: `/groups/${group.id}/hooks` };
  const project = await buildProject(group.id);
  const admin = await buildUser();
  await addMember('projects', project.id, admin.user.id, 40);
  return { id: project.id, group, admin, base: `/projects/${project.id}/hooks` };
}
