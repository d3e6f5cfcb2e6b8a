import { useMemo } from 'react';
import { projectHref } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { HookScopeContext, type HookScopeValue } from './hook-scope.ts';
import { HooksSection } from './HooksSection.tsx';

const FORBIDDEN_TITLE = 'You need the Maintainer role to manage webhooks';
const FORBIDDEN_HINT = 'The webhooks of a project, and their deliveries, are managed by its Maintainers, Owners and administrators.';

/** /projects/<path>/-/hooks[/…]: the project's webhooks, for Maintainers and above. */
export default function ProjectHooksPage() {
  const { project } = useProjectContext();
  const scope = useMemo<HookScopeValue>(
    () => ({
      owner: { scope: 'projects', id: project.id },
      ownerName: project.name_with_namespace,
      href: (sub) => projectHref(project.path_with_namespace, sub ? `hooks/${sub}` : 'hooks'),
      forbidden: () => <RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />,
    }),
    [project.id, project.name_with_namespace, project.path_with_namespace],
  );
  return (
    <RequireAbility action="admin_hooks" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      <HookScopeContext.Provider value={scope}>
        <HooksSection key={project.id} />
      </HookScopeContext.Provider>
    </RequireAbility>
  );
}
