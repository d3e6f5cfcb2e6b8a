import { useState, type ReactNode } from 'react';
import { Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { User } from '../../../../shared/src/users.ts';
import { useSetAdministrator, useSetBlocked } from '../../api/users.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { notifySuccess } from '../../components/notify.ts';

type Change = 'block' | 'unblock' | 'make_admin' | 'remove_admin';

/** One thing an administrator may do to the account: what it is now, what the change does, and the button (or why there is none). */
function AccessRow({ title, now, explain, action, refusal }: { title: string; now: string; explain: ReactNode; action: ReactNode; refusal?: string | null }) {
  return (
    <Group justify="space-between" align="flex-start" gap="md" wrap="wrap">
      <Stack gap={2} style={{ flex: '1 1 360px' }} maw={680}>
        <Text fw={600} size="sm">
          {title}: {now}
        </Text>
        <Text size="sm" c="dimmed">
          {explain}
        </Text>
        {refusal && (
          <Text size="sm" c="orange">
            {refusal}
          </Text>
        )}
      </Stack>
      {!refusal && action}
    </Group>
  );
}

/**
 * Blocking and administrator access, each behind a confirmation that says what changes. What the
 * server refuses (blocking oneself, removing one's own administrator access, blocking a bot) is
 * explained instead of offered.
 */
export function UserAccessSection({ user, isSelf }: { user: User; isSelf: boolean }) {
  const [change, setChange] = useState<Change | null>(null);
  const who = `@${user.username}`;
  const blocked = useSetBlocked(user.id, { meta: { errorTitle: `${who} was not ${change === 'unblock' ? 'unblocked' : 'blocked'}`, forbidden: 'Only administrators can block and unblock users.' } });
  const admin = useSetAdministrator(user.id, { meta: { errorTitle: `The administrator access of ${who} was not changed`, forbidden: 'Only administrators can change administrator access.' } });
  const pending = blocked.isPending || admin.isPending;

  const confirm = () => {
    const done = (title: string, message: string) => () => {
      notifySuccess(title, message);
      setChange(null);
    };
    if (change === 'block') blocked.mutate(true, { onSuccess: done('User blocked', `${who} can no longer sign in or use their tokens.`) });
    if (change === 'unblock') blocked.mutate(false, { onSuccess: done('User unblocked', `${who} can sign in and use their tokens again.`) });
    if (change === 'make_admin') admin.mutate(true, { onSuccess: done('Administrator added', `${who} is now an administrator.`) });
    if (change === 'remove_admin') admin.mutate(false, { onSuccess: done('Administrator removed', `${who} is a regular user now.`) });
  };

  const isBlocked = user.state !== 'active';
  const blockRefusal = isSelf
    ? 'You cannot block yourself: it would end your own session at once. Another administrator can.'
    : user.bot
      ? 'This is the bot user behind an access token, which cannot be blocked. Revoke its token instead.'
      : user.state === 'deactivated'
        ? 'Deactivated accounts cannot be unblocked here.'
        : null;

  const dialogs: Record<Change, { title: string; label: string; color: string; body: ReactNode }> = {
    block: {
      title: `Block ${who}?`,
      label: 'Block user',
      color: 'red',
      body: (
        <>
          {user.name} is signed out everywhere, and their personal access tokens stop working at once. Their groups, projects, memberships and
          tokens stay as they are, so unblocking gives everything back.
        </>
      ),
    },
    unblock: { title: `Unblock ${who}?`, label: 'Unblock user', color: 'blue', body: <>{user.name} can sign in again, and their tokens that have not expired work again.</> },
    make_admin: {
      title: `Make ${who} an administrator?`,
      label: 'Make administrator',
      color: 'red',
      body: <>Administrators see and change everything: every group and project, every user, and the instance settings. Give this only to people who run the instance.</>,
    },
    remove_admin: {
      title: `Remove the administrator access of ${who}?`,
      label: 'Remove administrator',
      color: 'red',
      body: <>{user.name} keeps their account, memberships and tokens, but loses access to the admin area and to groups and projects they are not a member of.</>,
    },
  };
  const dialog = change ? dialogs[change] : null;

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="user-access">
      <Title order={3} size="h4" id="user-access" mb="md">
        Access
      </Title>
      <Stack gap="md">
        <AccessRow
          title="Account"
          now={isBlocked ? (user.state === 'blocked' ? 'blocked' : 'deactivated') : 'active'}
          explain="A blocked user cannot sign in, and their sessions and tokens stop working; nothing they own is deleted."
          refusal={blockRefusal}
          action={
            isBlocked ? (
              <Button variant="default" onClick={() => setChange('unblock')}>
                Unblock user
              </Button>
            ) : (
              <Button color="red" variant="light" onClick={() => setChange('block')}>
                Block user
              </Button>
            )
          }
        />
        <Divider />
        <AccessRow
          title="Administrator"
          now={user.is_admin ? 'yes' : 'no'}
          explain="Administrators manage the whole instance: every group and project, users, and settings."
          refusal={
            isSelf && user.is_admin
              ? 'You cannot remove your own administrator access (the server refuses it), so the instance is never left without an administrator by mistake. Another administrator can remove it.'
              : null
          }
          action={
            user.is_admin ? (
              <Button color="red" variant="light" onClick={() => setChange('remove_admin')}>
                Remove administrator
              </Button>
            ) : (
              <Button variant="default" onClick={() => setChange('make_admin')} disabled={user.bot}>
                Make administrator
              </Button>
            )
          }
        />
      </Stack>
      <ConfirmDialog opened={dialog !== null} title={dialog?.title ?? ''} confirmLabel={dialog?.label ?? ''} color={dialog?.color} loading={pending} onConfirm={confirm} onClose={() => setChange(null)}>
        {dialog?.body}
      </ConfirmDialog>
    </Paper>
  );
}
