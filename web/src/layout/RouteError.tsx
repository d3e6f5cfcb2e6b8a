import { Button, Container } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorState, NotFoundState } from '../components/states.tsx';

/** Last resort for errors thrown while loading or rendering a screen (a failed chunk download, a bug). */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Container size="sm" py="xl">
        <NotFoundState action={<Button component="a" href="/groups">Go to groups</Button>} />
      </Container>
    );
  }
  return (
    <Container size="sm" py="xl">
      <ErrorState
        title="This page failed to load"
        error={error instanceof Error ? error : new Error('Unexpected error')}
        onRetry={() => window.location.reload()}
      />
    </Container>
  );
}
