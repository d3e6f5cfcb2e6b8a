import { RequireAbility } from '../../components/ResourcePage.tsx';
import { useGroupContext } from '../groups/group-context.ts';
import { ExportsPanel } from './ExportsPanel.tsx';

/** /groups/<full path>/-/exports */
export default function GroupExportsPage() {
  const { group } = useGroupContext();
  return (
    <RequireAbility action="create_vulnerability_export" title="You need the Developer role to export this group's security data" hint="Developers, Maintainers and Owners export vulnerabilities and dependencies.">
      <ExportsPanel key={group.id} scope={{ kind: 'group', id: group.id }} what={group.full_path} />
    </RequireAbility>
  );
}
