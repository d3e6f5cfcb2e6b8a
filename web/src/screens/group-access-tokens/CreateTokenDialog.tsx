import { Button, Checkbox, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import dayjs from 'dayjs';
import {
  GROUP_ACCESS_TOKEN_DESCRIPTION_MAX,
  groupAccessTokenCreateBody,
  type GroupAccessTokenCreateBody,
  type GroupAccessTokenCreateInput,
  type GroupAccessTokenWithToken,
} from '../../../../shared/src/group-access-tokens.ts';
import { ACCESS_LEVELS, memberAccessLevels, ROLE_NAMES, SCOPE_DESCRIPTIONS, TOKEN_SCOPES } from '../../../../shared/src/roles.ts';
import type { GroupDetail } from '../../../../shared/src/groups.ts';
import { useCreateGroupAccessToken } from '../../api/group-access-tokens.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { sentence } from '../../components/format.ts';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { expiryBounds } from './expiry.ts';

type Values = GroupAccessTokenCreateInput;
const FIELDS = ['name', 'description', 'expires_at', 'access_level', 'scopes'] as const;
const LABELS: Record<string, string> = { name: 'Token name', description: 'Description', expires_at: 'Expiration date', access_level: 'Role', scopes: 'Scopes' };

const ROLE_OPTIONS = memberAccessLevels.map((l) => ({ value: String(l), label: ROLE_NAMES[l] }));

const defaults = (): Values => ({ name: '', description: '', scopes: [], access_level: ACCESS_LEVELS.maintainer, expires_at: expiryBounds().max });

/** "Is too short (minimum is 1 entries)" says the right thing badly for a list of checkboxes. */
const scopesMessage = (type: string | undefined, message: string | undefined) => (type === 'too_small' ? 'Select at least one scope' : sentence(message));

/**
 * Creates a group access token: validated with the shared POST body schema, a server 400 put
 * under the fields it names. On success the plaintext goes straight to `onCreated` (the reveal
 * dialog) and the mutation is reset, so the answer is kept nowhere else.
 */
export function CreateTokenDialog({
  group,
  opened,
  onClose,
  onCreated,
}: {
  group: Pick<GroupDetail, 'id' | 'full_name'>;
  opened: boolean;
  onClose: () => void;
  onCreated: (token: GroupAccessTokenWithToken) => void;
}) {
  const narrow = useMediaQuery('(max-width: 36em)');
  const create = useCreateGroupAccessToken(group.id, {
    meta: {
      errorTitle: 'The token was not created',
      forbidden: 'You need the Owner role to create access tokens for this group.',
      showsError: formShowsFieldErrors,
    },
  });
  const bounds = expiryBounds();
  const form = useForm<Values, unknown, GroupAccessTokenCreateBody>({
    resolver: zodResolver(groupAccessTokenCreateBody),
    defaultValues: defaults(),
    // Not on blur: an error appearing as the name field loses focus would shift the dialog under
    // a click on "Create token", and the click would miss.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const description = useWatch({ control: form.control, name: 'description' }) ?? '';

  const close = () => {
    if (create.isPending) return;
    form.reset(defaults());
    create.reset();
    onClose();
  };

  const onValid = async (body: GroupAccessTokenCreateBody) => {
    try {
      const created = await create.mutateAsync({ ...body, description: body.description?.trim() || undefined });
      create.reset();
      form.reset(defaults());
      onClose();
      onCreated(created);
    } catch (e) {
      // Other errors got the mutation's toast.
      showServerFieldErrors(form.setError, e, {
        fieldOf: (path) => FIELDS.find((f) => f === path.split('.')[0]) ?? null,
        labelOf: (path) => LABELS[path] ?? path,
        title: 'The token was not created',
      });
    }
  };

  return (
    <Dialog opened={opened} onClose={close} dirty={form.formState.isDirty} busy={create.isPending} title="Create a group access token" size="xl" fullScreen={narrow}>
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label="New group access token">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            The token acts as a bot member of {group.full_name} with the role and scopes you choose. Use it in scripts and CI instead of a
            personal credential.
          </Text>
          <TextInput
            label="Token name"
            description="Say what uses it, e.g. “release pipeline”."
            withAsterisk
            autoComplete="off"
            data-autofocus
            error={sentence(form.formState.errors.name?.message)}
            {...form.register('name')}
          />
          <Textarea
            label="Description"
            description="Optional. Who owns it, what for, where it is stored."
            autosize
            minRows={2}
            maxRows={5}
            error={sentence(form.formState.errors.description?.message)}
            inputWrapperOrder={['label', 'description', 'input', 'error']}
            rightSection={
              <Text
                size="xs"
                c={description.length > GROUP_ACCESS_TOKEN_DESCRIPTION_MAX ? 'red' : 'dimmed'}
                style={{ alignSelf: 'flex-end' }}
                pb={6}
                pr={28}
                aria-live="polite"
                aria-label={`${description.length} of ${GROUP_ACCESS_TOKEN_DESCRIPTION_MAX} characters`}
              >
                {description.length}/{GROUP_ACCESS_TOKEN_DESCRIPTION_MAX}
              </Text>
            }
            rightSectionWidth={84}
            {...form.register('description')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
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
                  popoverProps={{ withinPortal: true }}
                />
              )}
            />
            <Controller
              control={form.control}
              name="access_level"
              render={({ field: { ref, ...field }, fieldState }) => (
                <NativeSelect
                  ref={ref}
                  label="Role"
                  description="What the token may do in the group."
                  data={ROLE_OPTIONS}
                  value={String(field.value ?? ACCESS_LEVELS.maintainer)}
                  onChange={(e) => field.onChange(Number(e.currentTarget.value))}
                  onBlur={field.onBlur}
                  error={sentence(fieldState.error?.message)}
                />
              )}
            />
          </SimpleGrid>
          <Controller
            control={form.control}
            name="scopes"
            render={({ field, fieldState }) => (
              <Checkbox.Group
                label="Scopes"
                description="What the token may be used for. Grant the fewest that do the job."
                withAsterisk
                inputWrapperOrder={['label', 'description', 'error', 'input']}
                value={(field.value as string[] | undefined) ?? []}
                onChange={field.onChange}
                error={scopesMessage(fieldState.error?.type, fieldState.error?.message)}
              >
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm" mt="xs">
                  {TOKEN_SCOPES.map((s, i) => (
                    <Checkbox
                      key={s}
                      value={s}
                      ref={i === 0 ? field.ref : undefined}
                      label={<Text size="sm" ff="monospace" span>{s}</Text>}
                      description={SCOPE_DESCRIPTIONS[s]}
                    />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
            )}
          />
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
    </Dialog>
  );
}
