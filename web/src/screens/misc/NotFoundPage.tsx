import { Button } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useLocation } from 'react-router';
import { data, isApiError, v4 } from '../../api/client.ts';
import { useCurrentUser } from '../../api/session.ts';
import { LoadingState, NotFoundState } from '../../components/states.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { adminHref, groupHref, projectHref } from '../../paths.ts';
import { readPlatformAddress } from '../../platform-addresses.ts';

/**
 * An address no screen has. A platform address (an API's `web_url`, a link pasted from the
 * platform) is taken to the console's own for the same thing; anything else is not found.
 */
export function NotFoundPage() {
  const { pathname, search } = useLocation();
  const address = readPlatformAddress(pathname);
  if (address?.kind === 'console') return <Navigate to={`${address.to}${search}`} replace />;
  if (address?.kind === 'lookup') return <LookedUp path={address.path} />;
  return <NotFound />;
}

/** A path naming a project, a group or (for administrators) a user: the first of these that exists. */
function LookedUp({ path }: { path: string }) {
  const user = useCurrentUser();
  const found = useQuery({
    queryKey: ['platform-address', path, user.is_admin] as const,
    queryFn: async ({ signal }) => {
      const missing = (e: unknown) => (isApiError(e) && (e.status === 404 || e.status === 403) ? null : Promise.reject(e));
      const id = { path: { id: path } };
      const project = await data(v4.GET('/projects/{id}', { params: id, signal })).catch(missing);
      if (project) return projectHref(project.path_with_namespace);
      const group = await data(v4.GET('/groups/{id}', { params: id, signal })).catch(missing);
      if (group) return groupHref(group.full_path);
      if (user.is_admin && !path.includes('/')) {
        const [u] = await data(v4.GET('/users', { params: { query: { username: path } }, signal }));
        if (u) return adminHref('users', u.id);
      }
      return null;
    },
    retry: false,
  });
  if (found.isPending) return <LoadingState />;
  if (found.data) return <Navigate to={found.data} replace />;
  return <NotFound />;
}

function NotFound() {
  usePageTitle('Not found');
  return (
    <NotFoundState
      title="Page not found"
      action={
        <Button component={Link} to="/groups">
          Go to groups
        </Button>
      }
    >
      There is nothing at this address. It may have moved, or the link may be mistyped.
    </NotFoundState>
  );
}
