import { Anchor, Checkbox, Fieldset, Group, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import { HOOK_EVENTS, hookFlagsFor, type HookFlag } from '../../../../shared/src/hooks.ts';
import type { HookScope } from '../../api/hooks.ts';
import { re2Explanation } from '../../../../shared/src/re2.ts';
import { sentence } from '../../format.ts';
import type { HookFormValues } from './hook-form-model.ts';

/** The event kinds as people look for them; every flag of the scope appears once (unknown ones under "Other"). */
const EVENT_GROUPS: { title: string; flags: HookFlag[] }[] = [
  { title: 'Repository', flags: ['push_events', 'tag_push_events', 'repository_update_events'] },
  { title: 'Merge requests and comments', flags: ['merge_requests_events', 'note_events', 'confidential_note_events', 'emoji_events'] },
  { title: 'Planning', flags: ['issues_events', 'confidential_issues_events', 'milestone_events', 'wiki_page_events'] },
  { title: 'CI/CD and releases', flags: ['pipeline_events', 'job_events', 'deployment_events', 'releases_events', 'feature_flag_events'] },
  { title: 'Members and structure', flags: ['member_events', 'subgroup_events', 'project_events', 'resource_access_token_events'] },
];

const EVENT_HINTS: Partial<Record<HookFlag, string>> = {
  push_events: 'Commits pushed to a branch.',
  tag_push_events: 'Tags created or deleted.',
  repository_update_events: 'Any change to the repository’s refs.',
  merge_requests_events: 'Merge requests opened, updated, merged or closed.',
  note_events: 'Comments on commits, merge requests, issues and snippets.',
  confidential_note_events: 'Comments only members can see.',
  emoji_events: 'Emoji reactions added or removed.',
  issues_events: 'Issues opened, updated or closed.',
  confidential_issues_events: 'Confidential issues opened, updated or closed.',
  milestone_events: 'Milestones created, closed or reopened.',
  wiki_page_events: 'Wiki pages created, changed or deleted.',
  pipeline_events: 'A pipeline’s status changes.',
  job_events: 'A job’s status changes.',
  deployment_events: 'Deployments start, succeed, fail or are cancelled.',
  releases_events: 'Releases created, changed or deleted.',
  feature_flag_events: 'Feature flags turned on or off.',
  member_events: 'Members added, changed or removed (group hooks only).',
  subgroup_events: 'Subgroups created or removed (group hooks only).',
  project_events: 'Projects created or deleted in the group (group hooks only).',
  resource_access_token_events: 'Access tokens about to expire.',
};

export function groupsFor(scope: HookScope) {
  const flags = hookFlagsFor(scope);
  const groups = EVENT_GROUPS.map((g) => ({ ...g, flags: g.flags.filter((f) => flags.includes(f)) })).filter((g) => g.flags.length > 0);
  const placed = new Set(groups.flatMap((g) => g.flags));
  const other = flags.filter((f) => !placed.has(f));
  return other.length ? [...groups, { title: 'Other', flags: other }] : groups;
}

function EventCheckbox({ flag }: { flag: HookFlag }) {
  const { control } = useFormContext<HookFormValues>();
  const {
    field: { ref: inputRef, ...field },
    fieldState,
  } = useController({ control, name: `events.${flag}` });
  return (
    <Checkbox
      ref={inputRef}
      name={field.name}
      label={HOOK_EVENTS[flag].label}
      description={EVENT_HINTS[flag]}
      checked={Boolean(field.value)}
      onChange={(e) => field.onChange(e.currentTarget.checked)}
      onBlur={field.onBlur}
      error={sentence(fieldState.error?.message)}
    />
  );
}

/** Which branches a push must go to for the hook to hear of it. */
function BranchFilter() {
  const { control, register, formState } = useFormContext<HookFormValues>();
  const {
    field: { value: strategy, onChange },
  } = useController({ control, name: 'branch_filter_strategy' });
  const filter = useWatch({ control, name: 'push_events_branch_filter' });
  const error = formState.errors.push_events_branch_filter?.message;
  return (
    <Stack gap="xs" pl={32} pt={4} pb={4}>
      <Radio.Group label="Push events from" value={strategy} onChange={(v) => onChange(v)} size="sm">
        <Group gap="md" mt={6}>
          <Radio value="all_branches" label="All branches" />
          <Radio value="wildcard" label="Branches matching a wildcard" />
          <Radio value="regex" label="Branches matching a regular expression (RE2 syntax)" />
        </Group>
      </Radio.Group>
      {strategy !== 'all_branches' && (
        <TextInput
          label="Branch filter"
          description={
            strategy === 'wildcard'
              ? 'Branch names, * for any part; separate several with commas. E.g. main, release/*'
              : 'An RE2 regular expression searched for in the branch name (no lookarounds or backreferences). E.g. ^(main|release/.+)$'
          }
          placeholder={strategy === 'wildcard' ? 'main, release/*' : '^(main|release/.+)$'}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          autoComplete="off"
          spellCheck={false}
          error={error && ((strategy === 'regex' && re2Explanation(filter.trim())) || sentence(error))}
          {...register('push_events_branch_filter')}
        />
      )}
    </Stack>
  );
}

/** The event kinds the hook subscribes to, grouped and labelled as in the API's list; group-only ones only for groups, the platform's four for system hooks. */
export function EventFields({ scope }: { scope: HookScope }) {
  const { control, setValue } = useFormContext<HookFormValues>();
  const events = useWatch({ control, name: 'events' });
  const flags = hookFlagsFor(scope);
  const count = flags.filter((f) => events[f]).length;
  const setAll = (on: boolean) => {
    for (const f of flags) setValue(`events.${f}`, on, { shouldDirty: true });
  };

  return (
    <Stack gap="md">
      <Group gap="sm" justify="space-between">
        <Text size="sm" c={count === 0 ? 'var(--mantine-color-orange-text)' : 'dimmed'} aria-live="polite">
          {scope === 'system'
            ? `System events (projects, groups and users created, renamed or deleted) are always sent; ${count} of ${flags.length} project event kinds chosen.`
            : count === 0
              ? 'No events chosen: the webhook will only receive tests.'
              : `${count} of ${flags.length} event kinds chosen.`}
        </Text>
        <Group gap="sm">
          <Anchor component="button" type="button" size="sm" onClick={() => setAll(true)}>
            Select all
          </Anchor>
          <Anchor component="button" type="button" size="sm" onClick={() => setAll(false)}>
            Clear
          </Anchor>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" verticalSpacing="md">
        {groupsFor(scope).map((g) => (
          <Fieldset key={g.title} legend={g.title} variant="filled" radius="md" style={g.flags.includes('push_events') ? { gridColumn: '1 / -1' } : undefined}>
            <Stack gap="sm">
              {g.flags.map((f) => (
                <div key={f}>
                  <EventCheckbox flag={f} />
                  {f === 'push_events' && events.push_events && scope !== 'system' && <BranchFilter />}
                </div>
              ))}
            </Stack>
          </Fieldset>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
