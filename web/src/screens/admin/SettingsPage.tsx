import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { Controller, useForm, type FieldPath } from 'react-hook-form';
import type { ApplicationSettings } from '../../../../shared/src/application-settings.ts';
import { isApiError } from '../../api/client.ts';
import { useApplicationSettings, useUpdateApplicationSettings, type ApplicationSettingsUpdate } from '../../api/application-settings.ts';
import { useInstanceOverview } from '../../api/instance.ts';
import { FormSection } from '../../components/FormSection.tsx';
import { sentence } from '../../format.ts';
import { notifySuccess } from '../../components/notify.ts';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { QueryContent } from '../../components/states.tsx';
import { AdminForbidden } from './admin-states.tsx';
import { adminHref } from '../../paths.ts';

/** The settings shown as switches here (the others are set through the API). */
type Key = { [K in keyof ApplicationSettings]: ApplicationSettings[K] extends boolean ? K : never }[keyof ApplicationSettings];

/** Each writable setting: its section and how it is explained. The two settings that stood in for feature flags are on the Feature flags tab. */
const SETTINGS: { key: Key; section: 'outbound'; label: string; description: string }[] = [
  {
    key: 'allow_local_requests_from_web_hooks_and_services',
    section: 'outbound',
    label: 'Allow requests to the local network from webhooks',
    description:
      'Lets webhooks reach loopback (127.0.0.1, ::1), private, link-local and cloud metadata addresses, on redirects too. Off, such URLs are refused when a hook is saved and when it is delivered. Gatehouse has no allow-list of single addresses: this opens all of them, so turn it on only where everyone who can add a webhook may reach the internal network.',
  },
];

const SECTIONS = [{ id: 'outbound', title: 'Outbound requests', description: 'Where webhooks and integrations may send requests.' }] as const;

/** /admin/settings: the instance settings in sections, saved together (only what changed is sent), and the sign-in limits, read-only. */
export default function SettingsPage() {
  const settings = useApplicationSettings();
  return (
    <QueryContent query={settings} what="the settings" forbidden={<AdminForbidden />}>
      {(saved) => (
        <Stack gap="lg">
          <div>
            <Title order={2} size="h3">
              Instance settings
            </Title>
            <Text size="sm" c="dimmed">
              They apply at once, to every group and project and every instance sharing this database.
            </Text>
          </div>
          <SettingsForm saved={saved} />
          <FormSection id="admin-flags" title="Feature flags" layout="aside" order={3} description="Switched on the Feature flags tab, for everyone or for some users, groups and projects.">
            <Text size="sm">
              The limit on webhook event resends, leaked-token revocation by group Owners and PDF vulnerability reports are feature flags:{' '}
              <Anchor component={Link} to={adminHref('features')}>
                open Feature flags
              </Anchor>
              .
            </Text>
          </FormSection>
          <SignInLimits />
        </Stack>
      )}
    </QueryContent>
  );
}

function SettingsForm({ saved }: { saved: ApplicationSettings }) {
  const update = useUpdateApplicationSettings({ meta: { errorTitle: 'Settings were not saved', forbidden: 'Only administrators can change instance settings.', showsError: formShowsFieldErrors } });
  // The saved values are the form's defaults, so a refetch after saving leaves nothing dirty.
  const form = useForm<ApplicationSettings>({ values: saved });
  const { isDirty, dirtyFields } = form.formState;

  const onSubmit = async (values: ApplicationSettings) => {
    const changed: ApplicationSettingsUpdate = Object.fromEntries(SETTINGS.filter((s) => dirtyFields[s.key]).map((s) => [s.key, values[s.key]]));
    try {
      const result = await update.mutateAsync(changed);
      form.reset(result);
      notifySuccess('Settings saved', 'The instance uses the new settings now.');
    } catch (e) {
      if (isApiError(e) && e.fieldErrors) {
        showServerFieldErrors(form.setError, e, {
          fieldOf: (path) => (SETTINGS.find((s) => s.key === path)?.key ?? null) as FieldPath<ApplicationSettings> | null,
          title: 'Settings were not saved',
        });
      }
    }
  };

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate aria-label="Instance settings">
      <Stack gap="lg">
        {SECTIONS.map((section) => (
          <FormSection key={section.id} id={`admin-${section.id}`} title={section.title} description={section.description} layout="aside" order={3}>
            {SETTINGS.filter((s) => s.section === section.id).map((s) => (
              <Controller
                key={s.key}
                control={form.control}
                name={s.key}
                render={({ field: { ref, value, onChange, onBlur, name }, fieldState }) => (
                  <Switch
                    ref={ref}
                    name={name}
                    label={s.label}
                    description={s.description}
                    checked={value}
                    onChange={(e) => onChange(e.currentTarget.checked)}
                    onBlur={onBlur}
                    error={sentence(fieldState.error?.message)}
                  />
                )}
              />
            ))}
          </FormSection>
        ))}
        <Paper withBorder radius="md" p="sm" className={isDirty ? 'gh-save-bar' : undefined} shadow={isDirty ? 'md' : undefined}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" c={isDirty ? 'var(--mantine-color-orange-text)' : 'dimmed'} fw={isDirty ? 600 : 400} aria-live="polite">
              {isDirty ? 'Unsaved changes' : 'No unsaved changes'}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Button variant="default" onClick={() => form.reset(saved)} disabled={!isDirty || update.isPending}>
                Discard
              </Button>
              <Button type="submit" loading={update.isPending} disabled={!isDirty}>
                Save changes
              </Button>
            </Group>
          </Group>
        </Paper>
      </Stack>
    </form>
  );
}

/** The sign-in limits come from the configuration read at start: shown, not editable here. */
function SignInLimits() {
  const overview = useInstanceOverview();
  return (
    <FormSection
      id="admin-sign-in"
      title="Sign-in limits"
      layout="aside"
      order={3}
      description="Read-only: set with GATEHOUSE_SIGNIN_MAX_FAILURES and GATEHOUSE_SESSION_HOURS when the server starts, the same on every instance."
    >
      <QueryContent query={overview} what="the sign-in limits" forbidden={<AdminForbidden />}>
        {({ sign_in: limits }) => (
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" component="dl" m={0}>
            {[
              ['Failed sign-ins per username', `${limits.max_failures_per_user} in ${limits.window_minutes} minutes`],
              ['Failed sign-ins per client address', `${limits.max_failures_per_address} in ${limits.window_minutes} minutes`],
              ['Console sessions end after', `${limits.session_hours} hours without use`],
              ['Past a limit', 'Sign-in and git over HTTP answer 429 until the window passes'],
            ].map(([label, value]) => (
              <div key={label}>
                <Text component="dt" size="xs" c="dimmed">
                  {label}
                </Text>
                <Text component="dd" m={0} size="sm">
                  {value}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        )}
      </QueryContent>
    </FormSection>
  );
}
