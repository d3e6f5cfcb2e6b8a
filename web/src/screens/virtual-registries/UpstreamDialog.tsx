import { useEffect, useState } from 'react';
import { Alert, Button, Group, PasswordInput, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from 'react-hook-form';
import type { VirtualRegistryUpstream, VirtualRegistryUpstreamInRegistry } from '../../../../shared/src/virtual-registries.ts';
import { isApiError } from '../../api/client.ts';
import { useSaveUpstream, useTestConnection } from '../../api/virtual-registries.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { showInDialog } from '../../components/dialog-errors.ts';
import { notifySuccess } from '../../components/notify.ts';
import { formShowsFieldErrors } from '../../components/server-errors.ts';
import { sentence } from '../../format.ts';
import {
  connectionVerdict,
  createBodyOf,
  otherProblems,
  updateBodyOf,
  upstreamFieldOf,
  upstreamFormValues,
  upstreamProblems,
  upstreamResolver,
  type ConnectionVerdict,
  type UpstreamFormValues,
} from './registry-model.ts';

/**
 * Adds an upstream to the registry (last in its order), or edits one. The password is never
 * shown: left empty, the saved one stays. A new upstream's connection can be tested from here,
 * with what is typed, before it is saved.
 */
export function UpstreamDialog({
  groupId,
  registryId,
  upstream,
  opened,
  onClose,
}: {
  groupId: number;
  registryId: number;
  upstream: VirtualRegistryUpstream | null;
  opened: boolean;
  onClose: () => void;
}) {
  const editing = upstream !== null;
  const errorTitle = editing ? 'The upstream was not saved' : 'The upstream was not added';
  const save = useSaveUpstream(registryId, { meta: { errorTitle, showsError: formShowsFieldErrors } });
  const test = useTestConnection(groupId, { meta: { errorTitle: 'The connection was not tested', showsError: formShowsFieldErrors } });
  const [verdict, setVerdict] = useState<ConnectionVerdict | null>(null);
  const form = useForm<UpstreamFormValues>({ resolver: upstreamResolver(upstream), defaultValues: upstreamFormValues(upstream) });
  useEffect(() => {
    if (opened) form.reset(upstreamFormValues(upstream));
  }, [opened, upstream, form]);
  const close = () => {
    setVerdict(null);
    onClose();
  };
  const error = (name: keyof UpstreamFormValues) => sentence(form.formState.errors[name]?.message);

  /** A refusal's field errors under their fields (focus on the first); the rest at the dialog's top. */
  const showRefusal = (e: unknown, title: string) => {
    if (!isApiError(e) || !e.fieldErrors) return;
    let first = true;
    for (const [path, messages] of Object.entries(e.fieldErrors)) {
      const field = upstreamFieldOf(path);
      if (!field) continue;
      form.setError(field, { type: 'server', message: messages.join(' ') }, { shouldFocus: first });
      first = false;
    }
    const rest = otherProblems(e.fieldErrors);
    if (rest.length) showInDialog({ title, message: rest.join(' ') });
  };

  const onValid = async (values: UpstreamFormValues) => {
    try {
      if (upstream) {
        const body = updateBodyOf(values, upstream);
        if (Object.keys(body).length === 0) return close();
        const saved = await save.mutateAsync({ upstreamId: upstream.id, body });
        notifySuccess('Upstream saved', `${saved.name} is up to date.`);
      } else {
        const added = (await save.mutateAsync({ upstreamId: null, body: createBodyOf(values) })) as VirtualRegistryUpstreamInRegistry;
        notifySuccess('Upstream added', `${added.name} is number ${added.registry_upstream.position} in the registry’s order.`);
      }
      close();
    } catch (e) {
      showRefusal(e, errorTitle);
    }
  };

  const testTyped = async () => {
    setVerdict(null);
    const values = form.getValues();
    const problems = upstreamProblems(values, null);
    const blocking = (['url', 'username', 'password'] as const).filter((f) => problems[f]);
    if (blocking.length) {
      blocking.forEach((f, i) => form.setError(f, { type: 'validate', message: problems[f] }, { shouldFocus: i === 0 }));
      return;
    }
    const credentials = values.username !== '' ? { username: values.username, password: values.password } : {};
    try {
      const result = await test.mutateAsync({ url: values.url.trim(), ...credentials });
      setVerdict(connectionVerdict('The upstream', result, values.username !== ''));
    } catch (e) {
      showRefusal(e, 'The connection was not tested');
    }
  };

  return (
    <Dialog
      opened={opened}
      onClose={close}
      dirty={form.formState.isDirty}
      busy={save.isPending}
      title={editing ? `Edit upstream ${upstream.name}` : 'Add an upstream'}
      size="lg"
    >
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label={editing ? 'Edit upstream' : 'New upstream'}>
        <Stack gap="md">
          <TextInput
            label="URL"
            description="The Maven repository’s address, e.g. https://repo.maven.apache.org/maven2"
            withAsterisk
            data-autofocus
            autoComplete="off"
            spellCheck={false}
            error={error('url')}
            {...form.register('url')}
          />
          <TextInput label="Name" description={editing ? undefined : 'Optional: the URL’s host when left empty.'} autoComplete="off" error={error('name')} {...form.register('name')} />
          <Textarea label="Description" autosize minRows={2} error={error('description')} {...form.register('description')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Username" description="With a password, or neither (anonymous)." autoComplete="off" spellCheck={false} error={error('username')} {...form.register('username')} />
            <PasswordInput
              label="Password"
              description={editing && upstream.username ? 'Never shown. Leave empty to keep the saved one.' : 'Kept encrypted, never shown again.'}
              autoComplete="new-password"
              error={error('password')}
              {...form.register('password')}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Cache validity (hours)"
              description="How long a cached file is served before the upstream is asked again; 0: every time."
              inputMode="numeric"
              error={error('cache_validity_hours')}
              {...form.register('cache_validity_hours')}
            />
            <TextInput
              label="Metadata cache validity (hours)"
              description="The same for maven-metadata.xml, which changes with each release; at least 1."
              inputMode="numeric"
              error={error('metadata_cache_validity_hours')}
              {...form.register('metadata_cache_validity_hours')}
            />
          </SimpleGrid>
          {verdict && (
            <Alert color={verdict.ok ? 'teal' : 'red'} variant="light" role="status" title={verdict.ok ? 'Connection works' : 'Connection failed'}>
              <Text size="sm">{verdict.text}</Text>
              {verdict.detail && (
                <Text size="xs" c="dimmed" mt={4}>
                  The server said: {verdict.detail}
                </Text>
              )}
            </Alert>
          )}
          <Group justify="space-between" gap="xs">
            {editing ? (
              <span />
            ) : (
              <Button variant="default" onClick={() => void testTyped()} loading={test.isPending}>
                Test connection
              </Button>
            )}
            <Group gap="xs">
              <Button variant="default" onClick={close} disabled={save.isPending}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending}>
                {editing ? 'Save upstream' : 'Add upstream'}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
