import { useState } from 'react';
import { Alert, Avatar, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { MergeRequest } from '../../../../shared/src/merge-requests.ts';
import { isApiError } from '../../api/client.ts';
import { useApproval, useMergeRequestApprovals } from '../../api/merge-requests.ts';
import { useCurrentUser } from '../../api/session.ts';
import { IconAlert, IconCheck } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { QueryContent } from '../../components/states.tsx';
import { fromNow, fullDateTimeToMinute } from '../../format.ts';
import { useProjectContext } from '../projects/project-context.ts';

/** Why an approval or its withdrawal was refused, in the reader's words. */
function approvalRefusal(error: unknown): string {
  if (!isApiError(error)) return error instanceof Error ? error.message : 'Something went wrong.';
  if (error.status === 409) return 'The source branch has new commits since this page was loaded. Look at the changes again, then approve.';
  if (error.status === 401) return 'You cannot approve this merge request: you approved it already, or you opened it.';
  if (error.status === 403) return 'Only the project’s Developers and up approve merge requests.';
  return error.message;
}

/**
 * The approvals of the Overview: who approved the merge request and when, and the reader's
 * Approve or Revoke approval. No approvals are required in Gatehouse: they say who looked.
 */
export function ApprovalsPanel({ mr }: { mr: MergeRequest }) {
  const { project, role } = useProjectContext();
  const me = useCurrentUser();
  const approvals = useMergeRequestApprovals(project.id, mr.iid);
  const [refusal, setRefusal] = useState<string | null>(null);
  const move = useApproval(project.id, mr.iid, { meta: { showsError: () => true } });
  const mayApprove = role.can('update_merge_request');
  // Why there is no Approve button, when the reader would look for one.
  const hint = mr.state !== 'opened' ? null : !mayApprove ? 'The project’s Developers and up approve merge requests.' : mr.author.id === me.id ? 'You opened this merge request: others approve it.' : null;

  const act = (approve: boolean) => {
    setRefusal(null);
    move.mutate(approve ? { approve: true, sha: mr.sha } : { approve: false }, {
      onSuccess: () => notifySuccess(approve ? 'Merge request approved' : 'Approval revoked', approve ? `You approved !${mr.iid}.` : `You no longer approve !${mr.iid}.`),
      onError: (e) => setRefusal(approvalRefusal(e)),
    });
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="mr-approvals">
      <Stack gap="sm">
        <Title order={3} size="h5" id="mr-approvals">
          Approvals
        </Title>
        <QueryContent query={approvals} what="the approvals">
          {(a) => (
            <Stack gap="sm">
              {a.approved_by.length === 0 ? (
                <Text size="sm" c="dimmed">
                  Nobody has approved this merge request yet. Approvals are not required to merge.
                </Text>
              ) : (
                <Stack gap={6} component="ul" aria-label="Approved by" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                  {a.approved_by.map(({ user, approved_at }) => (
                    <Group key={user.id} component="li" gap="xs" wrap="nowrap">
                      <IconCheck size={16} color="var(--mantine-color-green-8)" />
                      <Avatar src={user.avatar_url} name={user.name} alt="" size={22} radius="xl" />
                      <Text size="sm">
                        Approved by <strong>{user.id === me.id ? 'you' : user.name}</strong>{' '}
                        <Text span size="sm" c="dimmed">
                          <time dateTime={approved_at} title={fullDateTimeToMinute(approved_at)}>
                            {fromNow(approved_at)}
                          </time>
                        </Text>
                      </Text>
                    </Group>
                  ))}
                </Stack>
              )}
              {refusal && (
                <Alert color="red" variant="light" icon={<IconAlert />} title="Not done" role="alert">
                  {refusal}
                </Alert>
              )}
              {a.user_has_approved ? (
                <Group>
                  <Button variant="default" loading={move.isPending} onClick={() => act(false)}>
                    Revoke approval
                  </Button>
                </Group>
              ) : a.user_can_approve && mr.state === 'opened' ? (
                <Group>
                  <Button color="green" leftSection={<IconCheck size={16} />} loading={move.isPending} onClick={() => act(true)}>
                    Approve
                  </Button>
                </Group>
              ) : hint ? (
                <Text size="sm" c="dimmed">
                  {hint}
                </Text>
              ) : null}
            </Stack>
          )}
        </QueryContent>
      </Stack>
    </Paper>
  );
}
