import { Anchor, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { Controller, useForm, type FieldPath } from 'react-hook-form';
import type { ApplicationSettings } from '../../../../shared/src/application-settings.ts';
import { isApiError } from '../../api/client.ts';
import { useApplicationSettings, useUpdateApplicationSettings, type ApplicationSettingsUpdate } from '../../api/application-settings.ts';
import { useInstanceOverview } from '../../api/instance.ts';
import { FormSection } from '../../components/FormSection.tsx';
import { useUnsavedChangesGuard } from '../../components/UnsavedChangesGuard.tsx';
import { sentence, VISIBILITY_LABELS } from '../../format.ts';
import { notifySuccess } from '../../components/notify.ts';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { NotFoundState, QueryContent } from '../../components/states.tsx';
import { AdminForbidden } from './admin-states.tsx';
import { adminHref } from '../../paths.ts';

/** The settings this screen edits (the two that stood in for feature flags are on the Feature flags tab). */
type Key = 'allow_local_requests_from_web_hooks_and_services' | 'default_branch_name' | 'default_group_visibility' | 'default_project_visibility' | 'user_default_external' | 'can_create_group';

/** What the form holds: the saved settings, a branch name of none as an empty box. */
type FormValues = Pick<ApplicationSettings, Exclude<Key, 'default_branch_name'>> & { default_branch_name: string };

interface Setting {
  key: Key;
  kind: 'switch' | 'visibility' | 'branch';
  label: string;
  description: string;
}

/**
 * The topics of the settings, each its own page (/admin/settings/<topic>) with its own Save,
 * which sends only what changed in it. A topic without settings (sign-in) is read-only.
 */
const TOPICS: { slug: string; title: string; description: string; settings: Setting[] }[] = [
  {
    slug: 'visibility',
    title: 'Visibility and access',
    description: 'Who can see what is created where the request does not say.',
    settings: [
      {
        key: 'default_group_visibility',
        kind: 'visibility',
        label: 'Default visibility of new top-level groups',
        description: 'Used when whoever creates the group does not choose. A subgroup starts with its parent’s visibility.',
      },
      {
        key: 'default_project_visibility',
        kind: 'visibility',
        label: 'Default visibility of new projects',
        description: 'Used when whoever creates the project does not choose; a project is never more visible than its group.',
      },
    ],
  },
  {
    slug: 'repositories',
    title: 'Repositories',
    description: 'How new repositories start.',
    settings: [
      {
        key: 'default_branch_name',
        kind: 'branch',
        label: 'Initial branch name',
        description: 'The first branch of a project created with a README, where neither the request nor its group names one. Empty: main.',
      },
    ],
  },
  {
    slug: 'outbound',
    title: 'Webhooks and outbound requests',
    description: 'Where webhooks and integrations may send requests.',
    settings: [
      {
        key: 'allow_local_requests_from_web_hooks_and_services',
        kind: 'switch',
        label: 'Allow requests to the local network from webhooks',
        description:
          'Lets webhooks reach loopback (127.0.0.1, ::1), private, link-local and cloud metadata addresses, on redirects too. Off, such URLs are refused when a hook is saved and when it is delivered. Gatehouse has no allow-list of single addresses: this opens all of them, so turn it on only where everyone who can add a webhook may reach the internal network.',
      },
    ],
  },
  {
    slug: 'accounts',
    title: 'New accounts',
    description: 'What a user account an administrator creates may do, where the request does not say.',
    settings: [
      {
        key: 'user_default_external',
        kind: 'switch',
        label: 'New users are external',
        description: 'External users see only the groups and projects they are members of, never internal ones. Applies to accounts created from now on; an administrator can still choose per user.',
      },
      {
        key: 'can_create_group',
        kind: 'switch',
        label: 'New users can create top-level groups',
        description: 'Off, new users create groups only inside groups where their role allows it. Applies to accounts created from now on; an administrator can still choose per user.',
      },
    ],
  },
  { slug: 'sign-in', title: 'Sign-in and sessions', description: 'Limits on failed sign-ins and how long a console session lasts.', settings: [] },
];

const VISIBILITY_OPTIONS = (['private', 'internal', 'public'] as const).map((v) => ({ value: v, label: VISIBILITY_LABELS[v] }));

const formValuesOf = (s: ApplicationSettings): FormValues => ({
  allow_local_requests_from_web_hooks_and_services: s.allow_local_requests_from_web_hooks_and_services,
  default_group_visibility: s.default_group_visibility,
  default_project_visibility: s.default_project_visibility,
  default_branch_name: s.default_branch_name ?? '',
  user_default_external: s.user_default_external,
  can_create_group: s.can_create_group,
});

/** /admin/settings[/<topic>]: the instance settings by topic, each saved on its own (only what changed is sent); the sign-in limits read-only. */
export default function SettingsPage() {
  const { '*': splat = '' } = useParams();
  const slug = splat.split('/')[1] || TOPICS[0].slug;
  const topic = TOPICS.find((t) => t.slug === slug);
  const settings = useApplicationSettings();
  return (
    <Stack gap="lg">
      <div>
        <Title order={2} size="h3">
          Instance settings
        </Title>
        <Text size="sm" c="dimmed">
          They apply at once, to every group and project and every instance sharing this database.
        </Text>
      </div>
      <nav aria-label="Settings topics">
        <Group gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {TOPICS.map((t) => (
            <li key={t.slug}>
              <Button
                component={Link}
                to={adminHref('settings', t.slug)}
                size="compact-md"
                variant={t.slug === slug ? 'light' : 'subtle'}
                color={t.slug === slug ? undefined : 'gray'}
                aria-current={t.slug === slug ? 'page' : undefined}
              >
                {t.title}
              </Button>
            </li>
          ))}
        </Group>
      </nav>
      {!topic ? (
        <NotFoundState title="No such settings topic">“{slug}” is not a topic of the instance settings.</NotFoundState>
      ) : topic.settings.length === 0 ? (
        <SignInLimits />
      ) : (
        <QueryContent query={settings} what="the settings" forbidden={<AdminForbidden />}>
          {(saved) => <TopicForm key={topic.slug} topic={topic} saved={saved} />}
        </QueryContent>
      )}
      {topic?.slug === 'outbound' && (
        <FormSection id="admin-flags" title="Feature flags" layout="aside" order={3} description="Switched on the Feature flags tab, for everyone or for some users, groups and projects.">
          <Text size="sm">
            The limit on webhook event resends, leaked-token revocation by group Owners and PDF vulnerability reports are feature flags:{' '}
            <Anchor component={Link} to={adminHref('features')}>
              open Feature flags
            </Anchor>
            .
          </Text>
        </FormSection>
      )}
    </Stack>
  );
}

function TopicForm({ topic, saved }: { topic: (typeof TOPICS)[number]; saved: ApplicationSettings }) {
  const update = useUpdateApplicationSettings({ meta: { errorTitle: 'Settings were not saved', forbidden: 'Only administrators can change instance settings.', showsError: formShowsFieldErrors } });
  // The saved values are the form's defaults, so a refetch after saving leaves nothing dirty.
  const form = useForm<FormValues>({ values: formValuesOf(saved) });
  const { isDirty, dirtyFields } = form.formState;
  const leave = useUnsavedChangesGuard(isDirty);

  const onSubmit = async (values: FormValues) => {
    const changed: ApplicationSettingsUpdate = Object.fromEntries(topic.settings.filter((s) => dirtyFields[s.key]).map((s) => [s.key, values[s.key]]));
    try {
      const result = await update.mutateAsync(changed);
      form.reset(formValuesOf(result));
      notifySuccess('Settings saved', `${topic.title}: the instance uses the new settings now.`);
    } catch (e) {
      if (isApiError(e) && e.fieldErrors) {
        showServerFieldErrors(form.setError, e, {
          fieldOf: (path) => (topic.settings.find((s) => s.key === path)?.key ?? null) as FieldPath<FormValues> | null,
          title: 'Settings were not saved',
        });
      }
    }
  };

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate aria-label={`Instance settings: ${topic.title}`}>
      <Stack gap="lg">
        <FormSection id={`admin-${topic.slug}`} title={topic.title} description={topic.description} layout="aside" order={3}>
          {topic.settings.map((s) => (
            <Controller
              key={s.key}
              control={form.control}
              name={s.key}
              render={({ field: { ref, value, onChange, onBlur, name }, fieldState }) => {
                const error = sentence(fieldState.error?.message);
                if (s.kind === 'switch')
                  return (
                    <Switch
                      ref={ref}
                      name={name}
                      label={s.label}
                      description={s.description}
                      checked={value as boolean}
                      onChange={(e) => onChange(e.currentTarget.checked)}
                      onBlur={onBlur}
                      error={error}
                    />
                  );
                if (s.kind === 'visibility')
                  return (
                    <NativeSelect
                      ref={ref}
                      name={name}
                      label={s.label}
                      description={s.description}
                      data={VISIBILITY_OPTIONS}
                      value={value as string}
                      onChange={(e) => onChange(e.currentTarget.value)}
                      onBlur={onBlur}
                      error={error}
                      maw={360}
                    />
                  );
                return (
                  <TextInput
                    ref={ref}
                    name={name}
                    label={s.label}
                    description={s.description}
                    placeholder="main"
                    value={value as string}
                    onChange={(e) => onChange(e.currentTarget.value)}
                    onBlur={onBlur}
                    error={error}
                    maw={360}
                    spellCheck={false}
                    autoComplete="off"
                  />
                );
              }}
            />
          ))}
        </FormSection>
        <Paper withBorder radius="md" p="sm" className={isDirty ? 'gh-save-bar' : undefined} shadow={isDirty ? 'md' : undefined}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" c={isDirty ? 'var(--mantine-color-orange-text)' : 'dimmed'} fw={isDirty ? 600 : 400} aria-live="polite">
              {isDirty ? 'Unsaved changes' : 'No unsaved changes'}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Button variant="default" onClick={() => form.reset(formValuesOf(saved))} disabled={!isDirty || update.isPending}>
                Discard
              </Button>
              <Button type="submit" loading={update.isPending} disabled={!isDirty}>
                Save changes
              </Button>
            </Group>
          </Group>
        </Paper>
      </Stack>
      {leave.dialog}
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
