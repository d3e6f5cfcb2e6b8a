import { Button } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { NotFoundState } from '../../components/states.tsx';
import { DeliveriesPage } from './DeliveriesPage.tsx';
import { HookFormPage } from './HookFormPage.tsx';
import { HooksListPage } from './HooksListPage.tsx';
import { parseHookRoute, useHookScope } from './hook-scope.ts';

/** The webhooks section: the list, the form (new or edit) or one hook's delivery log, by the address. */
export function HooksSection() {
  const { '*': splat = '' } = useParams();
  const { href } = useHookScope();
  const route = parseHookRoute(splat);
  switch (route.kind) {
    case 'list':
      return <HooksListPage />;
    case 'new':
      return <HookFormPage key="new" />;
    case 'edit':
      return <HookFormPage key={route.hookId} hookId={route.hookId} />;
    case 'events':
      return <DeliveriesPage key={route.hookId} hookId={route.hookId} />;
    default:
      return (
        <NotFoundState
          title="No such webhook page"
          action={
            <Button component={Link} to={href()} variant="default">
              All webhooks
            </Button>
          }
        >
          There is nothing at “{route.path}” here.
        </NotFoundState>
      );
  }
}
