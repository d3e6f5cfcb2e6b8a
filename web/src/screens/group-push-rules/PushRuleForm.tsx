import { Button, Grid, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { FormProvider, useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { groupPushRuleBody, type GroupPushRule, type GroupPushRuleBody } from '../../../../shared/src/group-push-rules.ts';
import { useSaveGroupPushRule } from '../../api/group-push-rules.ts';
import { notifySuccess } from '../../components/notify.ts';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { isField, toBody, toFormValues, type PushRuleValues } from './push-rule-model.ts';
import { FormSection } from '../../components/FormSection.tsx';
import { FileSizeField, FlagField, PatternField } from './rule-fields.tsx';
import { PushRuleTester } from './PushRuleTester.tsx';
import { useUnsavedChangesGuard } from '../../components/UnsavedChangesGuard.tsx';

/** The form always holds every field: a narrower shape than the body's all-optional input, which the schema takes as is. */
const resolver = zodResolver(groupPushRuleBody) as unknown as Resolver<PushRuleValues, unknown, GroupPushRuleBody>;

/** One id for the "not saved" toasts, so a later success takes the stale one away. */
const SAVE_ERROR = 'push-rules-save-error';

/**
 * Every field of the group's push rule, grouped as people look for them, with the tester beside.
 * Validated with the shared body schema (patterns must be valid RE2, as the server checks them)
 * before anything is sent; a server 400 lands under the fields it names. Saving creates the rule
 * (POST) or changes it (PUT).
 */
export function PushRuleForm({ groupId, rule, onCancel }: { groupId: number; rule: GroupPushRule | null; onCancel: () => void }) {
  const save = useSaveGroupPushRule(groupId, {
    meta: {
      errorTitle: 'Push rules were not saved',
      forbidden: 'You need the Owner role to change the push rules of this group.',
      showsError: formShowsFieldErrors,
    },
  });
  const form = useForm<PushRuleValues, unknown, GroupPushRuleBody>({
    resolver,
    defaultValues: toFormValues(rule),
    mode: 'onTouched',
  });
  const exists = rule !== null;
  const { isDirty } = form.formState;
  const pending = isDirty || !exists;
  const leave = useUnsavedChangesGuard(isDirty);

  const onValid = async (parsed: GroupPushRuleBody) => {
    try {
      const saved = await save.mutateAsync({ body: toBody(parsed), exists });
      form.reset(toFormValues(saved));
      notifications.hide(SAVE_ERROR);
      notifySuccess(exists ? 'Push rules saved' : 'Push rules set up', 'Every push to the group’s projects is checked against them.');
    } catch (e) {
      // Other errors got the mutation's toast.
      showServerFieldErrors(form.setError, e, {
        fieldOf: (path) => {
          const name = path.split('.')[0];
          return isField(name) ? name : null;
        },
        title: 'Push rules were not saved',
        toastId: SAVE_ERROR,
      });
    }
  };

  const onInvalid = () => {
    notifications.hide(SAVE_ERROR);
    notifications.show({ id: SAVE_ERROR, color: 'red', title: 'Some rules need attention', message: 'Fix the highlighted fields, then save again.' });
  };

  return (
    <FormProvider {...form}>
      {leave.dialog}
      <form onSubmit={form.handleSubmit(onValid, onInvalid)} noValidate aria-label="Push rules">
        <Stack gap="lg">
          <Grid gutter="lg" align="flex-start">
            <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>
              <Stack gap="lg">
                <FormSection id="rules-commits" title="Commits" description="What every pushed commit must look like.">
                  <PatternField
                    name="commit_message_regex"
                    placeholder="^(feat|fix|docs|chore)(\(.+\))?: "
                    description="Commits whose message does not match are rejected. Leave empty to allow any message."
                  />
                  <PatternField
                    name="commit_message_negative_regex"
                    placeholder="(?:WIP|fixup!|ssh-rsa)"
                    description="Commits whose message matches are rejected. Leave empty to reject none."
                  />
                  <FlagField name="reject_unsigned_commits" description="Only commits signed with a GPG, SSH or X.509 key are accepted." />
                  <FlagField name="reject_non_dco_commits" description="Every commit message must carry a Signed-off-by: trailer (Developer Certificate of Origin)." />
                  <FlagField name="commit_committer_check" description="The committer email must be one of the pusher’s own verified emails." />
                </FormSection>

                <FormSection id="rules-branches" title="Branches and tags" description="Which branches may be pushed, and what happens to tags.">
                  <PatternField
                    name="branch_name_regex"
                    placeholder="^(main|release/.+|(feat|fix)/.+)$"
                    description="Pushes that create a branch whose name does not match are rejected. Leave empty to allow any name."
                  />
                  <FlagField name="deny_delete_tag" description="Tags can still be deleted in the console and through the API." />
                </FormSection>

                <FormSection id="rules-authors" title="Authors" description="Who may appear as the author and committer of a commit.">
                  <PatternField
                    name="author_email_regex"
                    placeholder="@acme\.com$"
                    description="Commits whose author email does not match are rejected. Leave empty to allow any email."
                  />
                  <FlagField name="member_check" description="The author email must belong to a user of this instance." />
                  <FlagField name="commit_committer_name_check" description="The committer name must be the pusher’s name as it is in their profile." />
                </FormSection>

                <FormSection id="rules-files" title="Files" description="Which files may be pushed at all.">
                  <PatternField
                    name="file_name_regex"
                    placeholder="\.(exe|dll|jar)$"
                    description="Pushes that add a file whose name (with its path) matches are rejected. Leave empty to allow any file."
                  />
                  <FileSizeField />
                  <FlagField name="prevent_secrets" description="Rejects new files that usually hold secrets, such as id_rsa, *.pem and *.key files and shell histories." />
                </FormSection>
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5, lg: 4 }} className="gh-sticky-aside">
              <PushRuleTester />
            </Grid.Col>
          </Grid>

          {/* Stays in view while there is something to save; otherwise it ends the form. */}
          <Paper withBorder radius="md" p="sm" className={pending ? 'gh-save-bar' : undefined} shadow={pending ? 'md' : undefined}>
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Text size="sm" c={pending ? 'var(--mantine-color-orange-text)' : 'dimmed'} fw={pending ? 600 : 400} aria-live="polite" lh={1.3} style={{ flex: '1 1 auto' }}>
                {!exists ? 'Not saved yet' : isDirty ? 'Unsaved changes' : 'No unsaved changes'}
              </Text>
              <Group gap="xs" wrap="nowrap" ml="auto">
                {exists ? (
                  <Button variant="default" onClick={() => form.reset(toFormValues(rule))} disabled={!isDirty || save.isPending}>
                    Discard
                  </Button>
                ) : (
                  <Button variant="default" onClick={onCancel} disabled={save.isPending}>
                    Cancel
                  </Button>
                )}
                <Button type="submit" loading={save.isPending} disabled={!pending}>
                  Save push rules
                </Button>
              </Group>
            </Group>
          </Paper>
        </Stack>
      </form>
    </FormProvider>
  );
}
