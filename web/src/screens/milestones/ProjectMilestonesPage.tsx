import { projectHref } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { MilestonesSection } from './MilestonesPage.tsx';
import type { MilestonesOf } from './milestones-of.ts';

/** /projects/<path with namespace>/-/milestones[/<iid>]: the project's own milestones, or one of them. */
export default function ProjectMilestonesPage() {
  const { project, role } = useProjectContext();
  const of: MilestonesOf = {
    scope: 'projects',
    id: project.id,
    name: project.name_with_namespace,
    href: projectHref(project.path_with_namespace, 'milestones'),
    canPlan: role.can('admin_milestones'),
    canDelete: role.can('destroy_milestones'),
  };
  return <MilestonesSection of={of} />;
}
