import { Stack } from '@mantine/core';
import { useGroupContext } from './group-context.ts';
import { GroupSettingsForm } from './GroupSettingsForm.tsx';
import { GroupExportPanel } from './GroupExportPanel.tsx';
import { RequireAbility } from '../../components/ResourcePage.tsx';

/** /groups/<full path>/-/settings: the settings form and the group's export for Owners (and administrators), a clear refusal for everyone else. */
export default function GroupSettingsPage() {
  const { group, role } = useGroupContext();
  return (
    <RequireAbility
      title="You need the Owner role to change this group's settings"
      hint="Ask an Owner of the group or an administrator if a setting needs changing."
    >
      <Stack gap="lg">
        <GroupSettingsForm key={group.id} group={group} />
        {role.can('export_group') && <GroupExportPanel key={group.id} group={group} />}
      </Stack>
    </RequireAbility>
  );
}
