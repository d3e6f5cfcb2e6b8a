import { lazy, Suspense } from 'react';
import { Button } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { LoadingState, NotFoundState } from '../../components/states.tsx';
import { HooksListPage } from './HooksListPage.tsx';
import { parseHookRoute, useHookScope } from './hook-scope.ts';

// The form (with the RE2 checker and the form library) and the delivery log load when opened:
// the list, the section's first screen, needs neither.
const HookFormPage = lazy(() => import('./HookFormPage.tsx').then((m) => ({ default: m.HookFormPage })));
const DeliveriesPage = lazy(() => import('./DeliveriesPage.tsx').then((m) => ({ default: m.DeliveriesPage })));

/** The webhooks section: the list, the form (new or edit) or one hook's delivery log, by the address. */
export function HooksSection() {
  return (
    <Suspense fallback={<LoadingState />}>
      <HookScreen />
    </Suspense>
  );
}

function HookScreen() {
  const { '*': splat = '' } = useParams();
  const { href, parseRoute = parseHookRoute } = useHookScope();
  const route = parseRoute(splat);
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
