import type { ReactNode } from 'react';
import { Button, Group, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { Controller, useForm, useWatch, type DefaultValues, type FieldValues, type Resolver, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import type { MutationMeta } from '../api/client.ts';
import { Dialog } from './Dialog.tsx';
import { formatDate, sentence } from '../format.ts';
import { ScopeCheckboxes } from './ScopeCheckboxes.tsx';
import { formShowsFieldErrors, showServerFieldErrors } from './server-errors.ts';
import { expiryBounds } from './token-expiry.ts';

/** The fields every token's create body has; a form adds its own (a group token's role, a deploy token's username). */
export interface TokenFormValues {
  name: string;
  description?: string;
  expires_at?: string;
  scopes?: unknown;
}

const LABELS: Record<keyof TokenFormValues, string> = { name: 'Token name', description: 'Description', expires_at: 'Expiration date', scopes: 'Scopes' };

/** The mutation meta of a token form: it shows field errors itself; everything else gets a toast with this title. */
export const tokenFormMeta = (errorTitle = 'The token was not created', forbidden?: string): MutationMeta => ({ errorTitle, forbidden, showsError: formShowsFieldErrors });

export interface TokenFormDialogProps<V extends TokenFormValues, B, R> {
  opened: boolean;
  onClose: () => void;
  /** Gets the answer with its plaintext (for the reveal dialog); the form keeps nothing of it. */
  onCreated: (created: R) => void;
  title: string;
  /** The form's accessible name, e.g. "New personal access token". */
  formLabel: string;
  /** What the token acts as, said above the fields. */
  intro?: ReactNode;
  /** The shared create-body schema: the form validates with what the server does. */
  schema: z.ZodType<B, V>;
  defaults: () => V;
  mutation: { mutateAsync: (body: B) => Promise<R>; isPending: boolean; reset: () => void };
  nameHint?: string;
  /** Offered, with a count of characters, where the body takes a description. */
  description?: { hint: string; max: number };
  /**
   * 'required': a date within the year the server allows (personal and group tokens);
   * 'optional': may be left empty, meaning never (deploy tokens).
   */
  expiry: 'required' | 'optional';
  scopes: readonly string[];
  scopeHelp: Record<string, string>;
  scopesHint?: string;
  submitLabel?: string;
  errorTitle?: string;
  /** The dialog's own fields, beside the expiry date. */
  extra?: (form: UseFormReturn<V, unknown, B>) => ReactNode;
  /** The labels of `extra`'s fields, by body key, so a server 400 lands under them. */
  extraLabels?: Record<string, string>;
}

/**
 * The create dialog of every kind of token: name, optional description, expiry, scopes and the
 * footer, validated with the kind's shared body schema, a server 400 put under the fields it
 * names. On success the answer goes straight to `onCreated` and the mutation is reset, so the
 * plaintext is kept nowhere else.
 */
export function TokenFormDialog<V extends TokenFormValues, B, R>(props: TokenFormDialogProps<V, B, R>) {
  const { opened, onClose, onCreated, title, formLabel, intro, schema, defaults, mutation, nameHint, description, expiry, extra, extraLabels = {} } = props;
  const narrow = useMediaQuery('(max-width: 36em)');
  const form = useForm<V, unknown, B>({
    resolver: zodResolver(schema as z.ZodType<B, FieldValues>) as unknown as Resolver<V, unknown, B>,
    defaultValues: defaults() as DefaultValues<V>,
    // Not on blur: an error appearing as the name field loses focus would shift the dialog under
    // a click on the submit button, and the click would miss.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  // The fields every token form has, typed as such (V only adds to them).
  const base = form as unknown as UseFormReturn<TokenFormValues>;
  const text = useWatch({ control: base.control, name: 'description' }) ?? '';
  const bounds = expiryBounds();
  const labels: Record<string, string> = { ...LABELS, ...extraLabels };
  const errorTitle = props.errorTitle ?? 'The token was not created';

  const close = () => {
    if (mutation.isPending) return;
    form.reset(defaults());
    mutation.reset();
    onClose();
  };

  const onValid = async (body: B) => {
    try {
      const created = await mutation.mutateAsync(trimDescription(body));
      mutation.reset();
      form.reset(defaults());
      onClose();
      onCreated(created);
    } catch (e) {
      // Other errors got the mutation's toast.
      showServerFieldErrors(base.setError, e, {
        fieldOf: (path) => {
          const key = path.split('.')[0];
          return key in labels ? (key as keyof TokenFormValues) : null;
        },
        labelOf: (path) => labels[path] ?? path,
        title: errorTitle,
      });
    }
  };

  const { errors } = base.formState;
  return (
    <Dialog opened={opened} onClose={close} dirty={form.formState.isDirty} busy={mutation.isPending} title={title} size="xl" fullScreen={narrow}>
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label={formLabel}>
        <Stack gap="md">
          {intro && (
            <Text size="sm" c="dimmed">
              {intro}
            </Text>
          )}
          <TextInput label={LABELS.name} description={nameHint} withAsterisk autoComplete="off" data-autofocus error={sentence(errors.name?.message)} {...base.register('name')} />
          {description && (
            <Textarea
              label={LABELS.description}
              description={description.hint}
              autosize
              minRows={2}
              maxRows={5}
              error={sentence(errors.description?.message)}
              inputWrapperOrder={['label', 'description', 'input', 'error']}
              rightSection={
                <Text
                  size="xs"
                  c={text.length > description.max ? 'red' : 'dimmed'}
                  style={{ alignSelf: 'flex-end' }}
                  pb={6}
                  pr={28}
                  aria-live="polite"
                  aria-label={`${text.length} of ${description.max} characters`}
                >
                  {text.length}/{description.max}
                </Text>
              }
              rightSectionWidth={84}
              {...base.register('description')}
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Controller
              control={base.control}
              name="expires_at"
              render={({ field: { ref, ...field }, fieldState }) => (
                <DatePickerInput
                  ref={ref}
                  label={LABELS.expires_at}
                  description={expiry === 'required' ? `At most one year, until ${formatDate(bounds.max)}.` : 'Optional; empty means never.'}
                  withAsterisk={expiry === 'required'}
                  placeholder={expiry === 'optional' ? 'Never' : undefined}
                  clearable={expiry === 'optional'}
                  value={field.value ?? null}
                  onChange={(v) => field.onChange(v ?? undefined)}
                  onBlur={field.onBlur}
                  minDate={bounds.min}
                  maxDate={expiry === 'required' ? bounds.max : undefined}
                  valueFormat="MMM D, YYYY"
                  error={sentence(fieldState.error?.message)}
                  popoverProps={{ withinPortal: true, returnFocus: true }}
                />
              )}
            />
            {extra?.(form)}
          </SimpleGrid>
          <ScopeCheckboxes control={base.control} name="scopes" scopes={props.scopes} help={props.scopeHelp} description={props.scopesHint ?? 'Grant the fewest that do the job.'} />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {props.submitLabel ?? 'Create token'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}

/** A description of only spaces is no description. */
function trimDescription<B>(body: B): B {
  const { description } = body as { description?: string };
  if (description === undefined) return body;
  return { ...body, description: description.trim() || undefined };
}
