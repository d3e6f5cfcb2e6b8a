import { useState } from 'react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { GroupDetail } from '../../../../shared/src/groups.ts';
import { useDeleteGroupPushRule, useGroupPushRule } from '../../api/group-push-rules.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { IconShieldCheck, IconTrash } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { useGroupContext } from '../groups/group-context.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { PushRuleForm } from './PushRuleForm.tsx';

const FORBIDDEN_TITLE = 'You need the Owner role to manage push rules';
const FORBIDDEN_HINT = 'Push rules of a group are set by Owners of the group and administrators.';

/** /groups/<full path>/-/push_rules: the group's push rule, for Owners and administrators. */
export default function PushRulesPage() {
  const { group } = useGroupContext();
  return (
    <RequireAbility title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      <PushRules key={group.id} group={group} />
    </RequireAbility>
  );
}

function PushRules({ group }: { group: GroupDetail }) {
  const rule = useGroupPushRule(group.id);
  const remove = useDeleteGroupPushRule(group.id, {
    meta: { errorTitle: 'Push rules were not deleted', forbidden: 'You need the Owner role to delete the push rules of this group.' },
  });
  const [settingUp, setSettingUp] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const confirmDelete = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        setSettingUp(false);
        notifySuccess('Push rules deleted', `Pushes to ${group.full_name} are no longer checked against them.`);
      },
    });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <div style={{ flex: '1 1 320px' }}>
          <Title order={2} size="h3">
            Push rules
          </Title>
          <Text c="dimmed" size="sm" maw={640}>
            Checks every push to the projects of {group.full_name}. A push that breaks a rule is rejected with the reason.
          </Text>
        </div>
        {rule.data && (
          <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)}>
            Delete push rules
          </Button>
        )}
      </Group>
      <QueryContent
        query={rule}
        what="push rules"
        forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
        empty={(data) =>
          data === null &&
          !settingUp && (
            <EmptyState
              title="No push rules yet"
              action={
                <Button leftSection={<IconShieldCheck size={16} />} onClick={() => setSettingUp(true)}>
                  Set up push rules
                </Button>
              }
            >
              Push rules reject commits that break your conventions before they land: commit message and branch name patterns, who may author
              commits, and which files may be pushed.
            </EmptyState>
          )
        }
      >
        {(data) => <PushRuleForm groupId={group.id} rule={data} onCancel={() => setSettingUp(false)} />}
      </QueryContent>
      <ConfirmDialog
        opened={confirming}
        title="Delete the push rules?"
        confirmLabel="Delete push rules"
        loading={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirming(false)}
      >
        Every pattern and check of {group.full_name} is removed, and pushes are no longer checked against them. You can set them up again
        later.
      </ConfirmDialog>
    </Stack>
  );
}
