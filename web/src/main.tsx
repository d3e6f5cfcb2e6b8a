import { lazy, StrictMode, Suspense, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
// Mantine's base styles; each component's own come with it (vite.config.ts).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/notifications/styles.layer.css';
import './styles.css';
import { cssVariablesResolver, theme } from './theme.ts';
import { ApiError, setUnauthorizedHandler } from './api/client.ts';
import { fetchSession, sessionKeys } from './api/session.ts';
import { buildRouter } from './router.tsx';
import { notifyMutationError } from './components/notify.ts';
import { clearDialogError } from './components/dialog-errors.ts';

const queryClient = new QueryClient({
  queryCache: new QueryCache(),
  // Every failed write says so, unless its screen shows the error itself (meta.showsError).
  // A new try clears the failure its dialog shows (dialog-errors.ts).
  mutationCache: new MutationCache({ onMutate: () => clearDialogError(), onError: (error, _variables, _context, mutation) => notifyMutationError(error, mutation.meta) }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A 4xx will not change by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    },
  },
});

// A 401 anywhere means the session ended: forgetting it makes the signed-in layout send the
// user to the sign-in page, with the URL they were on kept to come back to.
setUnauthorizedHandler(() => {
  queryClient.setQueryData(sessionKeys.current(), null);
});

// Every screen starts by asking for the session: asked now, it travels while the screen's code loads.
const session = queryClient.prefetchQuery({ queryKey: sessionKeys.current(), queryFn: fetchSession });

const ToastsContainer = lazy(() => import('./components/ToastsContainer.tsx'));
function Toasts() {
  const { notifications, queue } = useNotifications();
  const [shown, setShown] = useState(false);
  if (!shown && notifications.length + queue.length > 0) setShown(true);
  return shown ? (
    <Suspense fallback={null}>
      <ToastsContainer />
    </Suspense>
  ) : null;
}

// The first render waits for the session and the screen's code (fetched side by side), so it draws
// the screen with its heading in one pass instead of a spinner, then the layout, then the screen.
// Until then index.html shows its own "Loading Gatehouse…".
void Promise.all([buildRouter(), session]).then(([router]) =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <Toasts />
        {/* Date pickers use Mantine's defaults: English, weeks from Monday. */}
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  ),
);
