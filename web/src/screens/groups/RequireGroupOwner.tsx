import type { ReactNode } from 'react';
import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorState, ForbiddenState, LoadingState } from '../../components/states.tsx';
import { roleName } from '../../components/format.ts';
import { groupHref } from '../../routes.ts';
import { useGroupContext } from './group-context.ts';

/**
 * The refusal a group screen shows to someone below the Owner role: what they lack, what
 * role they have, and whom to ask. Also shown when the server answers 403 to an action.
 */
export function GroupOwnerForbidden({ title, hint }: { title: string; hint: string }) {
  const { group, role } = useGroupContext();
  return (
    <ForbiddenState
      title={title}
      action={
        <Button component={Link} to={groupHref(group.full_path)} variant="default">
          Back to the group overview
        </Button>
      }
    >
      {role.level ? `Your role in ${group.full_name} is ${roleName(role.level)}.` : `You are not a member of ${group.full_name}.`} {hint}
    </ForbiddenState>
  );
}

/**
 * Renders `children` for those the server's rules allow `action` (by default administering the
 * group: Owners and administrators); everyone else gets the forbidden state.
 */
export function RequireGroupOwner({ action = 'admin_group', title, hint, children }: { action?: string; title: string; hint: string; children: ReactNode }) {
  const { role } = useGroupContext();
  if (role.isPending) return <LoadingState label="Checking your role…" />;
  if (role.error) return <ErrorState title="Your role in this group could not be checked" error={role.error} onRetry={role.refetch} />;
  if (!role.can(action)) return <GroupOwnerForbidden title={title} hint={hint} />;
  return children;
}
