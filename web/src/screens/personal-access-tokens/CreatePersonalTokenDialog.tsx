import { Button, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import dayjs from 'dayjs';
import { personalAccessTokenCreateBody, type PersonalAccessToken } from '../../../../shared/src/personal-access-tokens.ts';
import { SCOPE_DESCRIPTIONS, TOKEN_SCOPES } from '../../../../shared/src/roles.ts';
import { useCreatePersonalAccessToken } from '../../api/personal-access-tokens.ts';
import { sentence } from '../../components/format.ts';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { ScopeCheckboxes } from '../../components/ScopeCheckboxes.tsx';
import { daysFromToday, expiryBounds } from '../group-access-tokens/expiry.ts';

type Input = z.input<typeof personalAccessTokenCreateBody>;
type Body = z.output<typeof personalAccessTokenCreateBody>;
const FIELDS = ['name', 'description', 'expires_at', 'scopes'] as const;

/** A month by default: long enough to be useful, short enough that a forgotten token dies. */
const defaults = (): Input => ({ name: '', description: '', scopes: [], expires_at: daysFromToday(30) });

/** Creates a token for the signed-in user; the plaintext goes straight to `onCreated` (the reveal dialog). */
export function CreatePersonalTokenDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (token: PersonalAccessToken & { token: string }) => void;
}) {
  const create = useCreatePersonalAccessToken({ meta: { errorTitle: 'The token was not created', showsError: formShowsFieldErrors } });
  const bounds = expiryBounds();
  const form = useForm<Input, unknown, Body>({ resolver: zodResolver(personalAccessTokenCreateBody), defaultValues: defaults(), mode: 'onSubmit' });

  const close = () => {
    if (create.isPending) return;
    form.reset(defaults());
    create.reset();
    onClose();
  };

  const onValid = async (body: Body) => {
    try {
      const created = await create.mutateAsync({ ...body, description: body.description?.trim() || undefined });
      create.reset();
      form.reset(defaults());
      onClose();
      onCreated(created);
    } catch (e) {
      showServerFieldErrors(form.setError, e, { fieldOf: (path) => FIELDS.find((f) => f === path.split('.')[0]) ?? null, title: 'The token was not created' });
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Create a personal access token" size="xl" closeOnClickOutside={!form.formState.isDirty}>
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label="New personal access token">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            The token acts as you, with your roles in every group and project, limited to the scopes you choose.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput label="Token name" description="What uses it, e.g. “laptop scripts”." withAsterisk autoComplete="off" data-autofocus error={sentence(form.formState.errors.name?.message)} {...form.register('name')} />
            <Controller
              control={form.control}
              name="expires_at"
              render={({ field: { ref, ...field }, fieldState }) => (
                <DatePickerInput
                  ref={ref}
                  label="Expiration date"
                  description={`At most one year, until ${dayjs(bounds.max).format('MMM D, YYYY')}.`}
                  withAsterisk
                  value={field.value ?? null}
                  onChange={(v) => field.onChange(v ?? undefined)}
                  onBlur={field.onBlur}
                  minDate={bounds.min}
                  maxDate={bounds.max}
                  valueFormat="MMM D, YYYY"
                  error={sentence(fieldState.error?.message)}
                />
              )}
            />
          </SimpleGrid>
          <TextInput label="Description" description="Optional. Where it is stored, what for." error={sentence(form.formState.errors.description?.message)} {...form.register('description')} />
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
