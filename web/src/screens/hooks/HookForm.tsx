import { useState } from 'react';
import { Button, Checkbox, Code, Group, Paper, PasswordInput, SimpleGrid, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { FormProvider, useController, useForm, useWatch, type FieldPath, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { hookFlagsFor, type Webhook } from '../../../../shared/src/hooks.ts';
import { useSaveHook } from '../../api/hooks.ts';
import { sentence } from '../../format.ts';
import { notifySuccess } from '../../components/notify.ts';
import { formShowsFieldErrors, showFieldErrors } from '../../components/server-errors.ts';
import { isApiError } from '../../api/client.ts';
import { EventFields } from './EventFields.tsx';
import { FIELD_LABELS, formPathOf, hookFormSchema, placeholdersOf, rowErrors, toBody, toFormValues, type HookFormValues } from './hook-form-model.ts';
import { hookTitle } from './hook-format.ts';
import { useHookScope } from './hook-scope.ts';
import { KeyValueEditor } from './KeyValueEditor.tsx';
import { FormSection } from '../../components/FormSection.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useUnsavedChangesGuard } from '../../components/UnsavedChangesGuard.tsx';

const resolver = zodResolver(hookFormSchema) as unknown as Resolver<HookFormValues>;
const SAVE_ERROR = 'hook-save-error';

/** Mantine's Checkbox and Switch keep their own checked state, so they are bound through a controller, not `register`. */
function BooleanField({ kind, name, label, description }: { kind: 'checkbox' | 'switch'; name: 'clear_token' | 'enable_ssl_verification'; label: string; description: string }) {
  const {
    field: { ref: inputRef, value, onChange, onBlur },
  } = useController<HookFormValues, typeof name>({ name });
  const Input = kind === 'switch' ? Switch : Checkbox;
  return <Input ref={inputRef} label={label} description={description} checked={value} onChange={(e) => onChange(e.currentTarget.checked)} onBlur={onBlur} />;
}

const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/**
 * Adds a webhook or changes one: every field of the hook in one form, checked with the shared
 * schemas before sending, the server's 400/422 put under the fields it names.
 */
export function HookForm({ hook }: { hook: Webhook | null }) {
  const { owner, ownerName, href } = useHookScope();
  const navigate = useNavigate();
  const editing = hook !== null;
  const save = useSaveHook(owner, {
    meta: {
      errorTitle: editing ? 'The webhook was not saved' : 'The webhook was not added',
      forbidden: 'You no longer have the role to manage these webhooks.',
      showsError: formShowsFieldErrors,
    },
  });
  // Checked on submit, then as the user fixes things; not on blur, where an error appearing would
  // shift the buttons under the pointer (the click on "Add header" would miss).
  const form = useForm<HookFormValues>({ resolver, defaultValues: toFormValues(hook), mode: 'onSubmit', reValidateMode: 'onChange' });
  const { errors, isDirty } = form.formState;
  const leave = useUnsavedChangesGuard(isDirty);
  const [url, clearToken, template] = useWatch({ control: form.control, name: ['url', 'clear_token', 'custom_webhook_template'] });
  const placeholders = placeholdersOf(url ?? '');

  // A hook with no event kind never fires: saving one is asked about first.
  const [eventless, setEventless] = useState<HookFormValues | null>(null);

  const submit = async (values: HookFormValues) => {
    // A system hook always hears the system events: choosing no project events is not "no events".
    const none = owner.scope !== 'system' && !hookFlagsFor(owner.scope).some((f) => values.events[f]);
    try {
      const saved = await save.mutateAsync({ hookId: hook?.id, body: toBody(values, owner.scope, hook) });
      notifications.hide(SAVE_ERROR);
      notifySuccess(
        editing ? 'Webhook saved' : 'Webhook added',
        none
          ? `${hookTitle(saved)} has no events: it receives only the tests you send from the list.`
          : `${hookTitle(saved)} receives the events you chose. Send a test from the list to try it.`,
      );
      leave.release();
      navigate(href());
    } catch (e) {
      // Other errors got the mutation's toast. A list's error that names one of its rows goes on that row.
      if (!isApiError(e) || !e.fieldErrors) return;
      showFieldErrors(form.setError, rowErrors(e.fieldErrors, values), {
        fieldOf: (path) => formPathOf(path, owner.scope) as FieldPath<HookFormValues> | null,
        labelOf: (path) => FIELD_LABELS[path] ?? path,
        title: editing ? 'The webhook was not saved' : 'The webhook was not added',
        toastId: SAVE_ERROR,
      });
    } finally {
      setEventless(null);
    }
  };

  const onValid = async (values: HookFormValues) => {
    if (owner.scope !== 'system' && !hookFlagsFor(owner.scope).some((f) => values.events[f])) setEventless(values);
    else await submit(values);
  };

  const onInvalid = () => {
    notifications.hide(SAVE_ERROR);
    notifications.show({ id: SAVE_ERROR, color: 'red', title: 'Some fields need attention', message: 'Fix the highlighted fields, then save again.' });
  };

  return (
    <FormProvider {...form}>
      {leave.dialog}
      <form onSubmit={form.handleSubmit(onValid, onInvalid)} noValidate aria-label={editing ? 'Edit webhook' : 'New webhook'}>
        <Stack gap="lg">
          <FormSection id="hook-endpoint" title="Endpoint" description={`Where Gatehouse sends the events of ${ownerName}, and how you will recognise the webhook.`}>
            <TextInput
              label="URL"
              withAsterisk
              placeholder="https://ci.example.com/hooks/{key}"
              description={
                <>
                  Gatehouse POSTs each event here as JSON. Keep secret parts out of sight with a variable in braces, e.g. <Code>{'{key}'}</Code>, and
                  give its value under URL variables: it is stored encrypted and the log shows the URL with the braces. A user name and
                  password written as <Code>user:password@</Code> are sent as Basic authentication and shown as <Code>*****</Code>; leave
                  the stars as they are to keep them.
                </>
              }
              styles={mono}
              autoComplete="off"
              spellCheck={false}
              error={sentence(errors.url?.message)}
              {...form.register('url')}
            />
            <KeyValueEditor
              name="url_variables"
              label="URL variables"
              noun="variable"
              description={
                placeholders.length
                  ? `The URL uses ${placeholders.map((p) => `{${p}}`).join(', ')}: define each here.`
                  : 'Values for the {variables} of the URL. Letters, digits and _ in names.'
              }
              keyPlaceholder="key"
              valuePlaceholder="Value (secret)"
              existingKeys={hook?.url_variables.map((v) => v.key) ?? []}
              suggestedKeys={placeholders}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput label="Name" placeholder="Chat notifications" description="Optional. Shown in lists instead of the URL." error={sentence(errors.name?.message)} {...form.register('name')} />
              <TextInput
                label="Description"
                placeholder="What receives it, and who to ask"
                description="Optional."
                error={sentence(errors.description?.message)}
                {...form.register('description')}
              />
            </SimpleGrid>
          </FormSection>

          <FormSection id="hook-security" title="Security" description="How the receiver can trust a delivery, and how Gatehouse trusts the receiver.">
            <Stack gap={6}>
              <PasswordInput
                label="Secret token"
                description={
                  editing
                    ? 'Sent in the X-Service-Token header (and X-Gitlab-Token, for receivers written for the platform). Leave empty to keep the current token (it is never shown); type a new one to replace it.'
                    : 'Optional. Sent in the X-Service-Token header (and X-Gitlab-Token, for receivers written for the platform) so the receiver can check a delivery came from Gatehouse. Stored encrypted and never shown again.'
                }
                placeholder={editing ? 'Leave empty to keep the current token' : undefined}
                autoComplete="new-password"
                disabled={clearToken}
                error={sentence(errors.token?.message)}
                {...form.register('token')}
              />
              {editing && <BooleanField kind="checkbox" name="clear_token" label="Remove the secret token" description="Deliveries are sent without X-Service-Token and X-Gitlab-Token." />}
            </Stack>
            <BooleanField
              kind="switch"
              name="enable_ssl_verification"
              label="Verify the receiver’s SSL certificate"
              description="Turn off only for a receiver with a self-signed certificate on a network you trust."
            />
            <KeyValueEditor
              name="custom_headers"
              label="Custom headers"
              noun="header"
              description="Sent with every delivery, e.g. an Authorization header the receiver expects. Values are stored encrypted and masked in the log."
              keyPlaceholder="X-Team"
              valuePlaceholder="Value (secret)"
              existingKeys={hook?.custom_headers.map((h) => h.key) ?? []}
            />
          </FormSection>

          <FormSection id="hook-events" title="Events" description="What the webhook hears about. Each delivery says its kind in the X-Service-Event header (and X-Gitlab-Event).">
            <EventFields scope={owner.scope} />
          </FormSection>

          <FormSection id="hook-payload" title="Payload" description="What each delivery carries.">
            <Textarea
              label="Custom payload template"
              description={
                <>
                  Optional. JSON with <Code>{'{{placeholders}}'}</Code> filled from the event, e.g. <Code>{'{"text": "{{user_name}} pushed to {{ref}}"}'}</Code>.
                  Leave empty to send the event’s own payload.
                </>
              }
              placeholder={'{\n  "text": "{{user_name}} pushed to {{project.name}}"\n}'}
              autosize
              minRows={template ? 4 : 3}
              maxRows={16}
              styles={mono}
              spellCheck={false}
              error={sentence(errors.custom_webhook_template?.message)}
              {...form.register('custom_webhook_template')}
            />
          </FormSection>

          <Paper withBorder radius="md" p="sm" className="gh-save-bar" shadow="md">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Text size="sm" c={isDirty || !editing ? 'var(--mantine-color-orange-text)' : 'dimmed'} fw={isDirty || !editing ? 600 : 400} aria-live="polite" style={{ flex: '1 1 auto' }}>
                {!editing ? 'Not added yet' : isDirty ? 'Unsaved changes' : 'No unsaved changes'}
              </Text>
              <Group gap="xs" wrap="nowrap" ml="auto">
                <Button component={Link} to={href()} variant="default" disabled={save.isPending}>
                  Cancel
                </Button>
                <Button type="submit" loading={save.isPending}>
                  {editing ? 'Save changes' : 'Add webhook'}
                </Button>
              </Group>
            </Group>
          </Paper>
        </Stack>
      </form>
      <ConfirmDialog
        opened={eventless !== null}
        title={editing ? 'Save a webhook without events?' : 'Add a webhook without events?'}
        confirmLabel={editing ? 'Save without events' : 'Add without events'}
        color="blue"
        loading={save.isPending}
        onConfirm={() => eventless && void submit(eventless)}
        onClose={() => setEventless(null)}
      >
        This webhook will never fire: no event kind is chosen under Events, so it will receive only the tests you send from the list. Choose the
        events it should hear about, or save it as it is to set it up later.
      </ConfirmDialog>
    </FormProvider>
  );
}
