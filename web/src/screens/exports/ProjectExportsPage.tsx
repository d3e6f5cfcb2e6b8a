import { RequireAbility } from '../../components/ResourcePage.tsx';
import { useProjectContext } from '../projects/project-context.ts';
import { ExportsPanel } from './ExportsPanel.tsx';

/** /projects/<path>/-/exports */
export default function ProjectExportsPage() {
  const { project } = useProjectContext();
  return (
    <RequireAbility action="create_vulnerability_export" title="You need the Developer role to export this project's security data" hint="Developers, Maintainers and Owners export vulnerabilities and dependencies.">
      <ExportsPanel key={project.id} scope={{ kind: 'project', id: project.id }} what={project.path_with_namespace} />
    </RequireAbility>
  );
}
