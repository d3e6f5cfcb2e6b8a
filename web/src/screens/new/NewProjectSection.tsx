import { RequireAbility } from '../../components/ResourcePage.tsx';
import { useGroupContext } from '../groups/group-context.ts';
import { NewNamespaceForm } from './NewNamespaceForm.tsx';

/** /groups/<full path>/-/new_project: for the roles the group's project_creation_level allows. */
export default function NewProjectSection() {
  const { group } = useGroupContext();
  return (
    <RequireAbility action="create_project" title="You cannot create projects here" hint="The group’s settings say which roles may create projects in it.">
      <NewNamespaceForm what={{ kind: 'project', group }} />
    </RequireAbility>
  );
}
