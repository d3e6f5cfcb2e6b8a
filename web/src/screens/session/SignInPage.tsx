import { Alert, Anchor, Box, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Navigate, useSearchParams } from 'react-router';
import { signInBody, type SignInBody } from '../../../../shared/src/session.ts';
import { isApiError } from '../../api/client.ts';
import { useSession, useSignIn } from '../../api/session.ts';
import { safeReturnTo } from '../../layout/RequireSession.tsx';
import { IconAlert, IconGatehouse } from '../../components/icons.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { sentence } from '../../format.ts';

function signInProblem(error: unknown): { title: string; text: string } {
  if (isApiError(error) && error.status === 401) return { title: 'Invalid username or password', text: 'Check both and try again.' };
  if (isApiError(error) && error.status === 429) {
    return { title: 'Too many failed attempts', text: 'Sign-in is paused for this account for a few minutes. Try again later.' };
  }
  return { title: 'Could not sign in', text: isApiError(error) ? error.message : 'The server could not be reached.' };
}

/** Sign in with a username and password; on success, back to the page that asked for it. */
export default function SignInPage() {
  usePageTitle('Sign in');
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('return_to'));
  const session = useSession();
  // The page shows why signing in failed, next to the form.
  const signIn = useSignIn({ meta: { showsError: () => true } });
  const form = useForm<SignInBody>({ resolver: zodResolver(signInBody), defaultValues: { username: '', password: '' } });
  // After a failed try, focus goes to why, so that it is read first and the form follows it.
  const problemRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (signIn.isError) problemRef.current?.focus();
  }, [signIn.isError, signIn.submittedAt]);

  if (session.data) return <Navigate to={returnTo} replace />;

  const problem = signIn.isError ? signInProblem(signIn.error) : null;
  const onSubmit = form.handleSubmit((values) => signIn.mutate(values));

  return (
    <Center component="main" mih="100vh" p="md" bg="gray.0">
      <Box w="100%" maw={400}>
        <Stack align="center" gap={6} mb="lg">
          <Box bg="brand.7" c="white" style={{ borderRadius: 12, display: 'grid', placeItems: 'center', width: 48, height: 48 }}>
            <IconGatehouse size={28} />
          </Box>
          <Title order={1} size="h2">
            Sign in to Gatehouse
          </Title>
          <Text c="dimmed" size="sm">
            Administration console
          </Text>
        </Stack>
        <Paper withBorder radius="md" p="lg" shadow="xs">
          {session.isPending ? (
            <LoadingState label="Checking your session…" />
          ) : session.isError ? (
            <ErrorState title="The server is not answering" error={session.error} onRetry={() => void session.refetch()} />
          ) : (
            <form onSubmit={onSubmit} noValidate>
              <Stack gap="md">
                {problem && (
                  <Alert ref={problemRef} tabIndex={-1} color="red" variant="light" icon={<IconAlert />} title={problem.title} role="alert">
                    {problem.text}
                  </Alert>
                )}
                {params.get('return_to') && !problem && (
                  <Text size="sm" c="dimmed">
                    Sign in to continue to the page you asked for.
                  </Text>
                )}
                <TextInput
                  label="Username"
                  autoComplete="username"
                  autoFocus
                  {...form.register('username')}
                  error={sentence(form.formState.errors.username?.message)}
                />
                <PasswordInput
                  label="Password"
                  autoComplete="current-password"
                  {...form.register('password')}
                  error={sentence(form.formState.errors.password?.message)}
                />
                <Button type="submit" fullWidth loading={signIn.isPending}>
                  Sign in
                </Button>
              </Stack>
            </form>
          )}
        </Paper>
        <Text c="dimmed" size="xs" ta="center" mt="md">
          Scripts and API clients use an access token instead: see the{' '}
          <Anchor href="/api/docs" size="xs">
            API reference
          </Anchor>
          .
        </Text>
      </Box>
    </Center>
  );
}
