import { Group, NativeSelect, Radio, Stack, Text } from '@mantine/core';
import { useController, useFormContext } from 'react-hook-form';
import type { GroupDetail } from '../../../../shared/src/groups.ts';
import { sentence } from '../../format.ts';
import { firstMessage, isTopLevel, type SettingsValues } from './settings-model.ts';
import { NumberField, SelectField, SettingsSection, SwitchField, TagsField, TextAreaField, TextField, type Option } from './settings-fields.tsx';
import { AvatarField, type AvatarChange } from './AvatarField.tsx';

/** The settings a group Owner edits, grouped as the platform's settings pages group them. */

const VISIBILITY_OPTIONS = [
  { value: 'private', label: 'Private', description: 'Only members see the group and its projects.' },
  { value: 'internal', label: 'Internal', description: 'Any signed-in user except external users sees the group.' },
  { value: 'public', label: 'Public', description: 'Anyone, signed in or not, sees the group.' },
];

export function GeneralSection({
  group,
  avatar,
  onAvatarChange,
  avatarError,
}: {
  group: GroupDetail;
  avatar: AvatarChange;
  onAvatarChange: (change: AvatarChange) => void;
  avatarError: string | null;
}) {
  const { control } = useFormContext<SettingsValues>();
  const visibility = useController({ name: 'visibility', control });
  const parentPath = group.full_path.split('/').slice(0, -1).join('/');
  return (
    <SettingsSection id="general" title="General" description="Name, address, description, visibility and avatar of the group.">
      <TextField name="name" label="Group name" />
      <TextField
        name="path"
        label="Group URL"
        monospace
        description={
          <>
            The last part of the group’s address: /groups/{parentPath ? `${parentPath}/` : ''}
            <b>{'<path>'}</b>. Changing it changes the address of every subgroup and project inside.
          </>
        }
      />
      <TextAreaField name="description" label="Description" maxLength={500} />
      <Radio.Group
        label="Visibility"
        description="A subgroup cannot be more visible than its parent, nor a group less visible than what it contains."
        value={String(visibility.field.value ?? '')}
        onChange={visibility.field.onChange}
        error={sentence(firstMessage(visibility.fieldState.error))}
        name="visibility"
      >
        <Stack gap="sm" mt="xs">
          {VISIBILITY_OPTIONS.map((o) => (
            <Radio key={o.value} value={o.value} label={o.label} description={o.description} ref={o.value === visibility.field.value ? visibility.field.ref : undefined} />
          ))}
        </Stack>
      </Radio.Group>
      <AvatarField group={group} change={avatar} onChange={onAvatarChange} error={avatarError} />
    </SettingsSection>
  );
}

const PROJECT_CREATION: Option[] = [
  { value: 'noone', label: 'No one' },
  { value: 'owner', label: 'Owners' },
  { value: 'maintainer', label: 'Maintainers' },
  { value: 'developer', label: 'Developers and Maintainers' },
  { value: 'administrator', label: 'Administrators' },
];
const SUBGROUP_CREATION: Option[] = [
  { value: 'owner', label: 'Owners' },
  { value: 'maintainer', label: 'Maintainers' },
];

export function PermissionsSection({ group }: { group: GroupDetail }) {
  return (
    <SettingsSection id="permissions" title="Permissions" description="Who may join, share, fork and create inside the group.">
      <SwitchField name="request_access_enabled" label="Allow users to request access" description="Users can ask to join the group from its page." />
      <SwitchField
        name="share_with_group_lock"
        label="Prevent sharing projects with other groups"
        description="Projects in this group cannot be shared with other groups."
      />
      {isTopLevel(group) && (
        <SwitchField
          name="prevent_sharing_groups_outside_hierarchy"
          label="Prevent inviting groups outside this hierarchy"
          description="Only groups inside this group’s hierarchy can be invited. Top-level groups only."
        />
      )}
      <SwitchField name="membership_lock" label="Prevent adding members to projects" description="Members are managed on the group, not on its projects." />
      <SwitchField name="prevent_forking_outside_group" label="Prevent forking outside the group" description="Projects can be forked only into this group’s hierarchy." />
      <SelectField name="project_creation_level" label="Roles allowed to create projects" data={PROJECT_CREATION} />
      <SelectField name="subgroup_creation_level" label="Roles allowed to create subgroups" data={SUBGROUP_CREATION} />
    </SettingsSection>
  );
}

const GIT_PROTOCOLS: Option[] = [
  { value: 'all', label: 'Both SSH and HTTP(S)' },
  { value: 'ssh', label: 'Only SSH' },
  { value: 'http', label: 'Only HTTP(S)' },
];

export function SecuritySection() {
  return (
    <SettingsSection id="security" title="Security" description="Two-factor authentication and where members may connect from.">
      <SwitchField
        name="require_two_factor_authentication"
        label="Require two-factor authentication"
        description="Every member must set up two-factor authentication to keep access."
      />
      <NumberField name="two_factor_grace_period" label="Two-factor grace period" suffix=" hours" description="Time members have to set it up. Up to 10,000 hours." />
      <TextField
        name="ip_restriction_ranges"
        label="Allowed IP addresses"
        monospace
        placeholder="192.168.0.0/24, 10.0.0.5"
        description="Comma-separated addresses or subnets. Empty allows every address."
      />
      <TextField
        name="allowed_email_domains_list"
        label="Allowed email domains"
        monospace
        placeholder="example.com, *.example.org"
        description="Comma-separated domains whose users may be added. Empty allows every domain."
      />
      <SelectField name="enabled_git_access_protocol" label="Git access protocols" data={GIT_PROTOCOLS} />
    </SettingsSection>
  );
}

const PROTECTION_LEVELS: Option[] = [
  { value: '0', label: 'No one' },
  { value: '30', label: 'Developers and Maintainers' },
  { value: '40', label: 'Maintainers' },
  { value: '60', label: 'Administrators' },
];

/** allowed_to_push / allowed_to_merge hold a list of levels; the console offers one level each, as the platform's form does. */
function ProtectionLevelField({ name, label }: { name: 'default_branch_protection_defaults.allowed_to_push' | 'default_branch_protection_defaults.allowed_to_merge'; label: string }) {
  const { control } = useFormContext<SettingsValues>();
  const {
    field: { ref: inputRef, ...field },
    fieldState,
  } = useController({ name, control });
  const levels = (field.value ?? []) as { access_level: number | string }[];
  return (
    <NativeSelect
      label={label}
      data={PROTECTION_LEVELS}
      value={String(levels[0]?.access_level ?? '40')}
      onChange={(e) => field.onChange([{ access_level: Number(e.currentTarget.value) }])}
      onBlur={field.onBlur}
      ref={inputRef}
      name={field.name}
      error={sentence(firstMessage(fieldState.error))}
    />
  );
}

export function BranchesSection() {
  return (
    <SettingsSection id="branches" title="Merge requests and branches" description="The default branch of new projects and how it is protected.">
      <TextField name="default_branch" label="Initial default branch name" placeholder="main" monospace description="Empty uses the instance default." />
      <Text fw={600} size="sm" mb={-8}>
        Default branch protection
      </Text>
      <Group grow align="flex-start" gap="md" wrap="wrap">
        <ProtectionLevelField name="default_branch_protection_defaults.allowed_to_push" label="Allowed to push" />
        <ProtectionLevelField name="default_branch_protection_defaults.allowed_to_merge" label="Allowed to merge" />
      </Group>
      <SwitchField name="default_branch_protection_defaults.allow_force_push" label="Allow force push" />
      <SwitchField name="default_branch_protection_defaults.developer_can_initial_push" label="Allow developers to push the initial commit" />
    </SettingsSection>
  );
}

const WIKI_LEVELS: Option[] = [
  { value: 'enabled', label: 'Everyone with access' },
  { value: 'private', label: 'Members only' },
  { value: 'disabled', label: 'Disabled' },
];
const RUNNERS: Option[] = [
  { value: 'enabled', label: 'Enabled for all projects and subgroups' },
  { value: 'disabled_and_overridable', label: 'Disabled; subgroups may enable them' },
  { value: 'disabled_and_unoverridable', label: 'Disabled; subgroups may not enable them' },
  { value: 'disabled_with_override', label: 'Disabled; subgroups may enable them (legacy)' },
];

export function FeaturesSection() {
  return (
    <SettingsSection id="features" title="Features" description="Storage, notifications, wiki, AI and CI/CD features of the group.">
      <SwitchField name="lfs_enabled" label="Large File Storage (LFS)" description="Projects can store large files outside the repository." />
      <SwitchField name="emails_enabled" label="Email notifications" description="Send notification emails about the group and its projects." />
      <SwitchField name="mentions_disabled" label="Disable group mentions" description="Mentioning @group does not notify its members." />
      <SelectField name="wiki_access_level" label="Group wiki" data={WIKI_LEVELS} />
      <SwitchField name="math_rendering_limits_enabled" label="Limit math rendering" description="Protects pages from very large formulas." />
      <SwitchField name="ai_features_enabled" label="AI features" description="Members can use AI-assisted features in this group." />
      <SwitchField name="experiment_features_enabled" label="Experiment and beta features" description="Try features that are still being built." />
      <SelectField name="shared_runners_setting" label="Instance runners" data={RUNNERS} />
      <NumberField name="max_artifacts_size" label="Maximum artifacts size" nullable suffix=" MB" placeholder="Instance default" description="Per job artifact. Empty uses the instance default." />
    </SettingsSection>
  );
}

export function DownloadsSection() {
  return (
    <SettingsSection
      id="downloads"
      title="Downloads"
      description="Limit how many different projects one user may download in a period. Top-level groups only."
    >
      <NumberField name="unique_project_download_limit" label="Unique project download limit" description="Projects per user in the period; 0 turns the limit off. Up to 10,000." />
      <NumberField
        name="unique_project_download_limit_interval_in_seconds"
        label="Limit interval"
        suffix=" seconds"
        description="The period; 0 turns the limit off. Up to 864,000 (10 days)."
      />
      <TagsField name="unique_project_download_limit_allowlist" label="Users excluded from the limit" placeholder="Usernames" description="Usernames; press Enter or comma after each. Up to 100." />
      <TagsField name="unique_project_download_limit_alertlist" label="Users to alert" placeholder="User IDs" description="IDs of users told when someone exceeds the limit. Up to 100." />
      <SwitchField
        name="auto_ban_user_on_excessive_projects_download"
        label="Ban users who exceed the limit"
        description="Users are banned from the group automatically when they exceed the limit."
      />
    </SettingsSection>
  );
}
