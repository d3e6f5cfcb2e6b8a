import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { appRoutes } from './routes.ts';
import { AppLayout } from './layout/AppLayout.tsx';
import { RequireSession } from './layout/RequireSession.tsx';
import { RouteError } from './layout/RouteError.tsx';
import { LoadingState } from './components/states.tsx';
import { NotFoundPage } from './screens/misc/NotFoundPage.tsx';

/** Builds the router from the one route list: public screens stand alone, the rest sit in the signed-in layout. */
export function buildRouter() {
  const screens = appRoutes.filter((r) => r.kind === 'screen');
  const toRoute = (r: (typeof screens)[number]): RouteObject => ({
    path: r.path,
    lazy: async () => ({ Component: (await r.load()).default }),
  });
  return createBrowserRouter([
    {
      errorElement: <RouteError />,
      hydrateFallbackElement: <LoadingState />,
      children: [
        ...screens.filter((r) => r.public).map(toRoute),
        {
          element: (
            <RequireSession>
              <AppLayout />
            </RequireSession>
          ),
          children: [
            { index: true, element: <Navigate to="/groups" replace /> },
            ...screens.filter((r) => !r.public).map(toRoute),
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ]);
}
