import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { useCurrentUser } from '../../api/session.ts';
import { ForbiddenState } from '../../components/states.tsx';

/**
 * The refusal of the admin area: shown to a signed-in user who is not an administrator (who
 * reached it by URL), and when the server answers 403 to an administrator's call (their access
 * was removed meanwhile): the admin screens pass it to QueryContent as `forbidden`.
 */
export function AdminForbidden() {
  const user = useCurrentUser();
  return (
    <ForbiddenState
      title="Only administrators can open the admin area"
      action={
        <Button component={Link} to="/groups" variant="default">
          Back to groups
        </Button>
      }
    >
      Your account, @{user.username}, is not an administrator of this Gatehouse. Users, groups and projects, background jobs, instance settings, feature flags and the instance overview are managed
      by administrators: ask one if something here needs changing.
    </ForbiddenState>
  );
}
