import type { ReactNode } from 'react';
import { Center, Container } from '@mantine/core';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../api/session.ts';
import { ErrorState, LoadingState } from '../components/states.tsx';

/** Renders its children for a signed-in user; anyone else goes to sign in and comes back here after. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.isPending) {
    return (
      <Center h="100vh">
        <LoadingState label="Loading Gatehouse…" />
      </Center>
    );
  }
  if (session.isError) {
    return (
      <Container size="sm" py="xl">
        <ErrorState title="Gatehouse could not load your session" error={session.error} onRetry={() => void session.refetch()} />
      </Container>
    );
  }
  if (!session.data) return <ToSignIn />;
  return children;
}

/** Reads the URL only when it sends the visitor away: the signed-in frame is not drawn again at every change of URL (a list's filter). */
function ToSignIn() {
  const location = useLocation();
  const here = location.pathname + location.search + location.hash;
  return <Navigate to={here === '/' ? '/sign-in' : `/sign-in?return_to=${encodeURIComponent(here)}`} replace />;
}

/** Only same-origin paths are followed after sign-in. */
export function safeReturnTo(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/groups';
  if (value.startsWith('/sign-in')) return '/groups';
  return value;
}
