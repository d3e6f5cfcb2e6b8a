import { useGroupContext } from './group-context.ts';
import { GroupSettingsForm } from './GroupSettingsForm.tsx';
import { RequireAbility } from '../../components/ResourcePage.tsx';

/** /groups/<full path>/-/settings: the settings form for Owners (and administrators), a clear refusal for everyone else. */
export default function GroupSettingsPage() {
  const { group } = useGroupContext();
  return (
    <RequireAbility
      title="You need the Owner role to change this group's settings"
      hint="Ask an Owner of the group or an administrator if a setting needs changing."
    >
      <GroupSettingsForm key={group.id} group={group} />
    </RequireAbility>
  );
}
