import { Button, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import dayjs from 'dayjs';
import type { z } from 'zod';
import { personalAccessTokenCreateBody, type PersonalAccessTokenCreateBody } from '../../../../shared/src/personal-access-tokens.ts';
import { SCOPE_DESCRIPTIONS, TOKEN_SCOPES } from '../../../../shared/src/roles.ts';
import type { User } from '../../../../shared/src/users.ts';
import { useCreateUserToken } from '../../api/users.ts';
import { sentence } from '../../components/format.ts';
import { ScopeCheckboxes } from '../../components/ScopeCheckboxes.tsx';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import type { RevealedToken } from '../group-access-tokens/TokenRevealDialog.tsx';
import { daysFromToday, expiryBounds } from '../group-access-tokens/expiry.ts';

type Values = z.input<typeof personalAccessTokenCreateBody>;
const FIELDS = ['name', 'scopes', 'expires_at'] as const;
const defaults = (): Values => ({ name: '', scopes: [], expires_at: daysFromToday(30) });

/**
 * Creates a personal access token for the user (POST /users/:id/personal_access_tokens), validated
 * with the shared body schema; the plaintext goes straight to `onCreated` (the reveal dialog).
 */
export function CreateUserTokenDialog({ user, opened, onClose, onCreated }: { user: User; opened: boolean; onClose: () => void; onCreated: (token: RevealedToken) => void }) {
  const narrow = useMediaQuery('(max-width: 36em)');
  const create = useCreateUserToken(user.id, { meta: { errorTitle: 'The token was not created', showsError: formShowsFieldErrors } });
  const bounds = expiryBounds();
  const form = useForm<Values, unknown, PersonalAccessTokenCreateBody>({ resolver: zodResolver(personalAccessTokenCreateBody), defaultValues: defaults(), mode: 'onSubmit' });

  const close = () => {
    if (create.isPending) return;
    form.reset(defaults());
    create.reset();
    onClose();
  };

  const onValid = async (body: PersonalAccessTokenCreateBody) => {
    try {
      const created = await create.mutateAsync(body);
      create.reset();
      form.reset(defaults());
      onClose();
      onCreated(created);
    } catch (e) {
      showServerFieldErrors(form.setError, e, { fieldOf: (path) => FIELDS.find((f) => f === path.split('.')[0]) ?? null, title: 'The token was not created' });
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={`New token for @${user.username}`} size="xl" fullScreen={narrow} closeOnClickOutside={!form.formState.isDirty}>
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label="New personal access token">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            The token acts as {user.name}, with their access, limited to the scopes you choose.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput label="Token name" description="Say what uses it." withAsterisk autoComplete="off" data-autofocus error={sentence(form.formState.errors.name?.message)} {...form.register('name')} />
            <Controller
              control={form.control}
              name="expires_at"
              render={({ field: { ref, ...field }, fieldState }) => (
                <DatePickerInput
                  ref={ref}
                  label="Expiration date"
                  description={`At most one year, until ${dayjs(bounds.max).format('MMM D, YYYY')}.`}
                  value={(field.value as string | undefined) ?? null}
                  onChange={(v) => field.onChange(v ?? undefined)}
                  onBlur={field.onBlur}
                  minDate={bounds.min}
                  maxDate={bounds.max}
                  valueFormat="MMM D, YYYY"
                  error={sentence(fieldState.error?.message)}
                  popoverProps={{ withinPortal: true }}
                />
              )}
            />
          </SimpleGrid>
          <ScopeCheckboxes control={form.control} name="scopes" scopes={TOKEN_SCOPES} help={SCOPE_DESCRIPTIONS} description="Grant the fewest that do the job." />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create token
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
