import type { ReactNode } from 'react';
import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { ACCESS_LEVELS } from '../../../../shared/src/roles.ts';
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

/** Renders `children` for Owners of the group and administrators; everyone else gets the forbidden state. */
export function RequireGroupOwner({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  const { role } = useGroupContext();
  if (role.isPending) return <LoadingState label="Checking your role…" />;
  if (role.error) return <ErrorState title="Your role in this group could not be checked" error={role.error} onRetry={role.refetch} />;
  if ((role.level ?? 0) < ACCESS_LEVELS.owner) return <GroupOwnerForbidden title={title} hint={hint} />;
  return children;
}
