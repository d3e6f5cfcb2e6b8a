import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { ACCESS_LEVELS } from '../../../../shared/src/roles.ts';
import { ErrorState, ForbiddenState, LoadingState } from '../../components/states.tsx';
import { roleName } from '../../components/format.ts';
import { groupHref } from '../../routes.ts';
import { useGroupContext } from './group-context.ts';
import { GroupSettingsForm } from './GroupSettingsForm.tsx';

/** /groups/<full path>/-/settings: the settings form for Owners (and administrators), a clear refusal for everyone else. */
export default function GroupSettingsPage() {
  const { group, role } = useGroupContext();
  if (role.isPending) return <LoadingState label="Checking your role…" />;
  if (role.error) return <ErrorState title="Your role in this group could not be checked" error={role.error} onRetry={role.refetch} />;
  if ((role.level ?? 0) < ACCESS_LEVELS.owner) {
    return (
      <ForbiddenState
        title="You need the Owner role to change this group's settings"
        action={
          <Button component={Link} to={groupHref(group.full_path)} variant="default">
            Back to the group overview
          </Button>
        }
      >
        {role.level ? `Your role in ${group.full_name} is ${roleName(role.level)}.` : `You are not a member of ${group.full_name}.`} Ask an
        Owner of the group or an administrator if a setting needs changing.
      </ForbiddenState>
    );
  }
  return <GroupSettingsForm key={group.id} group={group} />;
}
