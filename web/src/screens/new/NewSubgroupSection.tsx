import { RequireAbility } from '../../components/ResourcePage.tsx';
import { useGroupContext } from '../groups/group-context.ts';
import { NewNamespaceForm } from './NewNamespaceForm.tsx';

/** /groups/<full path>/-/new_subgroup: for the roles the group's subgroup_creation_level allows. */
export default function NewSubgroupSection() {
  const { group } = useGroupContext();
  return (
    <RequireAbility action="create_subgroup" title="You cannot create subgroups here" hint={`${group.full_name} lets ${group.subgroup_creation_level === 'owner' ? 'Owners' : 'Maintainers and Owners'} create subgroups.`}>
      <NewNamespaceForm what={{ kind: 'subgroup', parent: group }} />
    </RequireAbility>
  );
}
