import { useState } from 'react';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { FormProvider, useForm, type FieldPath } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { groupUpdateBody, type GroupDetail, type GroupUpdateBody } from '../../../../shared/src/groups.ts';
import { isApiError, type FieldErrors } from '../../api/client.ts';
import { useUpdateGroup } from '../../api/groups.ts';
import { formShowsFieldErrors, showFieldErrors } from '../../components/server-errors.ts';
import { groupHref } from '../../paths.ts';
import { type AvatarChange } from './AvatarField.tsx';
import { changedFields, formPathFor, isTopLevel, knownPaths, labelFor, toFormValues, type SettingsValues } from './settings-model.ts';
import { BranchesSection, DownloadsSection, FeaturesSection, GeneralSection, PermissionsSection, SecuritySection } from './settings-sections.tsx';
import { useUnsavedChangesGuard } from '../../components/UnsavedChangesGuard.tsx';

/**
 * The group's settings, validated with the shared PUT /groups/:id schema before sending; only
 * changed fields are sent, and a server 400 lands under the fields it names.
 */
export function GroupSettingsForm({ group }: { group: GroupDetail }) {
  const navigate = useNavigate();
  const update = useUpdateGroup(group.id, {
    meta: { errorTitle: 'Settings were not saved', forbidden: "You need the Owner role to change this group's settings.", showsError: formShowsFieldErrors },
  });
  const [avatar, setAvatar] = useState<AvatarChange>({ kind: 'keep' });
  const [avatarError, setAvatarError] = useState<string | null>(null);
  const form = useForm<SettingsValues, unknown, GroupUpdateBody>({
    resolver: zodResolver(groupUpdateBody),
    defaultValues: toFormValues(group),
    mode: 'onTouched',
  });
  const { isDirty } = form.formState;
  const pending = isDirty || avatar.kind !== 'keep';
  const leave = useUnsavedChangesGuard(pending);

  const showServerErrors = ({ avatar: avatarMessages, ...fieldErrors }: FieldErrors) => {
    // The avatar is not a form field: its picker shows the message.
    if (avatarMessages) setAvatarError(avatarMessages.join(' '));
    const known = knownPaths(form.getValues());
    showFieldErrors(form.setError, fieldErrors, {
      fieldOf: (path) => formPathFor(path, known) as FieldPath<SettingsValues> | null,
      labelOf: labelFor,
      title: 'Settings were not saved',
    });
  };

  const onValid = async (parsed: GroupUpdateBody) => {
    setAvatarError(null);
    const fields = changedFields(parsed, form.formState.dirtyFields as Record<string, unknown>);
    if (avatar.kind === 'remove') fields.avatar = '';
    try {
      const saved = await update.mutateAsync({ fields, avatarFile: avatar.kind === 'upload' ? avatar.file : null });
      form.reset(toFormValues(saved));
      setAvatar({ kind: 'keep' });
      notifications.show({ color: 'teal', title: 'Settings saved', message: `${saved.full_name} was updated.` });
      if (saved.full_path !== group.full_path) {
        leave.release();
        navigate(groupHref(saved.full_path, 'settings'), { replace: true });
      }
    } catch (e) {
      // Other errors got the mutation's toast.
      if (isApiError(e) && e.fieldErrors) showServerErrors(e.fieldErrors);
    }
  };

  const onInvalid = () =>
    notifications.show({ color: 'red', title: 'Some settings need attention', message: 'Fix the highlighted fields, then save again.' });

  const discard = () => {
    form.reset(toFormValues(group));
    setAvatar({ kind: 'keep' });
    setAvatarError(null);
  };

  return (
    <FormProvider {...form}>
      {leave.dialog}
      <form onSubmit={form.handleSubmit(onValid, onInvalid)} noValidate aria-label="Group settings">
        <Stack gap="lg">
          <GeneralSection group={group} avatar={avatar} onAvatarChange={setAvatar} avatarError={avatarError} />
          <PermissionsSection group={group} />
          <SecuritySection />
          <BranchesSection />
          <FeaturesSection />
          {isTopLevel(group) && <DownloadsSection />}

          {/* Stays in view while there is something to save; otherwise it ends the form. */}
          <Paper withBorder radius="md" p="sm" className={pending ? 'gh-save-bar' : undefined} shadow={pending ? 'md' : undefined}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" c={pending ? 'orange' : 'dimmed'} fw={pending ? 600 : 400} aria-live="polite" lh={1.3}>
                {pending ? 'Unsaved changes' : 'No unsaved changes'}
              </Text>
              <Group gap="xs" wrap="nowrap">
                <Button variant="default" onClick={discard} disabled={!pending || update.isPending}>
                  Discard
                </Button>
                <Button type="submit" loading={update.isPending} disabled={!pending}>
                  Save changes
                </Button>
              </Group>
            </Group>
          </Paper>
        </Stack>
      </form>
    </FormProvider>
  );
}
