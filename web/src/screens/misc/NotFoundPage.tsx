import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { NotFoundState } from '../../components/states.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';

export function NotFoundPage() {
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
