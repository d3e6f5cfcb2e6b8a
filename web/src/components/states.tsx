import type { ReactNode } from 'react';
import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { isApiError } from '../api/client.ts';
import { IconAlert, IconInbox, IconLock } from './icons.tsx';

/**
 * The states every screen renders besides its data: loading, error, empty, forbidden.
 * Each is announced to assistive technology and says what the user can do next;
 * `QueryContent` picks among them for a query's result.
 */

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py={64} role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader size="md" />
        <Text c="dimmed" size="sm">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

export function errorMessage(error: unknown): string {
  // A server failure's own words ("500 Internal Server Error") tell a user nothing they can act on.
  if (isApiError(error) && error.status >= 500) return `The server failed to do this (error ${error.status}). Try again; if it keeps failing, your administrator will find the cause in the server's log.`;
  if (isApiError(error)) return error.message;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

export function ErrorState({ title = 'Something went wrong', error, onRetry }: { title?: string; error: unknown; onRetry?: () => void }) {
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlert />} role="alert" my="md">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{errorMessage(error)}</Text>
        {onRetry && (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

function Placard({ icon, color, title, children, action }: { icon: ReactNode; color: string; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="xl" my="md">
      <Stack align="center" gap="xs" py="lg" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" color={color}>
          {icon}
        </ThemeIcon>
        <Title order={3} size="h4" mt="xs">
          {title}
        </Title>
        {children && (
          <Text c="dimmed" size="sm" maw={460}>
            {children}
          </Text>
        )}
        {action && <Group mt="sm">{action}</Group>}
      </Stack>
    </Paper>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <Placard icon={<IconInbox size={24} />} color="gray" title={title} action={action}>
      {children}
    </Placard>
  );
}

export function ForbiddenState({ title = 'You do not have access', children, action }: { title?: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <Placard icon={<IconLock size={24} />} color="orange" title={title} action={action}>
      {children}
    </Placard>
  );
}

export function NotFoundState({ title = 'Page not found', children, action }: { title?: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <Placard icon={<IconAlert size={24} />} color="gray" title={title} action={action}>
      {children}
    </Placard>
  );
}

/** What `QueryContent` reads of a TanStack Query result. */
export interface QueryLike<T> {
  data: T | undefined;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * A query's result as a screen shows it: the loading state until there is data, the error state
 * (with Try again) when loading failed, the empty rendering when `empty` gives one, otherwise
 * `children` with the data. A failed refetch keeps the data shown. The states are worded from
 * `what` ("iterations": "Loading iterations…", "Iterations could not be loaded") unless
 * `loadingLabel` or `errorTitle` say otherwise.
 */
export function QueryContent<T>({
  query,
  what,
  loadingLabel,
  errorTitle,
  forbidden,
  notFound,
  ready = true,
  empty,
  children,
}: {
  query: QueryLike<T>;
  what: string;
  loadingLabel?: string;
  errorTitle?: string;
  /** Shown instead of the error state when the server answers 403. */
  forbidden?: ReactNode;
  /** Shown instead of the error state when the server answers 404. */
  notFound?: ReactNode;
  /** False holds the loading state over data not fit to show yet (placeholder or deferred data). */
  ready?: boolean;
  /** The rendering of data that holds nothing, or null (or false) when it holds something. */
  empty?: (data: T) => ReactNode;
  children: (data: T) => ReactNode;
}) {
  const { data, error } = query;
  if (data === undefined && query.isError) {
    const status = isApiError(error) ? error.status : undefined;
    if (status === 403 && forbidden !== undefined) return forbidden;
    if (status === 404 && notFound !== undefined) return notFound;
    const title = errorTitle ?? `${what.charAt(0).toUpperCase()}${what.slice(1)} could not be loaded`;
    return <ErrorState title={title} error={error} onRetry={() => void query.refetch()} />;
  }
  // No data and no error is TanStack Query's "pending".
  if (data === undefined || !ready) return <LoadingState label={loadingLabel ?? `Loading ${what}…`} />;
  const nothing = empty?.(data);
  return nothing !== null && nothing !== undefined && nothing !== false ? nothing : children(data);
}
