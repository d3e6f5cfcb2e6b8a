import type { ReactNode } from 'react';
import { Button } from '@mantine/core';
import { Link } from 'react-router';
import type { ApiError } from '../../api/client.ts';
import { useCurrentUser } from '../../api/session.ts';
import { ErrorState, ForbiddenState, LoadingState } from '../../components/states.tsx';

/**
 * The refusal of the admin area: shown to a signed-in user who is not an administrator (who
 * reached it by URL), and when the server answers 403 to an administrator's call (their access
 * was removed meanwhile).
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
      Your account, @{user.username}, is not an administrator of this Gatehouse. Users, instance settings and the instance overview are managed
      by administrators: ask one if something here needs changing.
    </ForbiddenState>
  );
}

/** The loading, forbidden or error state of an admin query, or null once its data is there (a failed refetch keeps the data shown). */
export function adminQueryState(
  query: { isPending: boolean; isError: boolean; error: ApiError | null; data?: unknown; refetch: () => unknown },
  what: string,
): ReactNode | null {
  if (query.isPending) return <LoadingState label={`Loading ${what}…`} />;
  if (!query.isError || query.data !== undefined) return null;
  if (query.error?.status === 403) return <AdminForbidden />;
  const title = `${what.charAt(0).toUpperCase()}${what.slice(1)} could not be loaded`;
  return <ErrorState title={title} error={query.error} onRetry={() => void query.refetch()} />;
}
