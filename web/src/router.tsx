import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { appRoutes } from './routes.ts';
import { AppLayout } from './layout/AppLayout.tsx';
import { RequireSession } from './layout/RequireSession.tsx';
import { RouteError } from './layout/RouteError.tsx';
import { LoadingState } from './components/states.tsx';
import { NotFoundPage } from './screens/misc/NotFoundPage.tsx';

/** Builds the router from the one route list: public screens stand alone, the rest sit in the signed-in layout. */
export async function buildRouter() {
  const screens = appRoutes.filter((r) => r.kind === 'screen');
  const toRoute = (r: (typeof screens)[number]): RouteObject => ({
    path: r.path,
    lazy: async () => ({ Component: (await r.load()).default }),
  });
  const routes: RouteObject[] = [
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
  ];
  await loadScreensAt(routes, window.location.pathname);
  return createBrowserRouter(routes);
}

/**
 * The screens at the URL the console opens on are loaded before the router starts (their files
 * are already on their way, preloaded by index.html), so the first render draws the screen rather
 * than a fallback and, in a second pass, the screen. One that fails to load is left lazy: the
 * router loads it again and shows its error.
 */
async function loadScreensAt(routes: RouteObject[], pathname: string) {
  await Promise.all(
    (matchRoutes(routes, pathname) ?? []).map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      try {
        Object.assign(route, await route.lazy());
        delete route.lazy;
      } catch {
        // The router's own load reports it.
      }
    }),
  );
}
