import { useProjectContext } from '../projects/project-context.ts';
import { MembersSection } from './MembersSection.tsx';

/** /projects/<path with namespace>/-/members */
export default function ProjectMembersPage() {
  const { project, role } = useProjectContext();
  return <MembersSection key={project.id} scope="projects" id={project.id} name={project.name_with_namespace} canAdmin={role.can('admin_members')} canInvite={role.can('admin_invitations')} />;
}
