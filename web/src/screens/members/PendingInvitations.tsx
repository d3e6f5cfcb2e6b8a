import { useMemo, useState } from 'react';
import { Button, Stack, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { Invitation } from '../../../../shared/src/invitations.ts';
import type { MemberScope } from '../../api/members.ts';
import { useInvitations, useRevokeInvitation } from '../../api/invitations.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { QueryContent } from '../../components/states.tsx';
import { formatDate, roleName } from '../../format.ts';
import { memberRefusal } from './refusal.ts';

const col = createColumnHelper<Invitation>();

function invitationColumns(onRevoke: (i: Invitation) => void) {
  return [
    col.accessor('invite_email', { header: 'Email address', cell: (i) => <Text size="sm">{i.getValue()}</Text> }),
    col.accessor('access_level', { header: 'Role', meta: { width: 120 }, cell: (i) => roleName(i.getValue()) }),
    col.accessor('created_by_name', { header: 'Invited by', meta: { hideNarrow: true }, cell: (i) => i.getValue() ?? '—' }),
    col.accessor('created_at', { header: 'Invited on', meta: { hideNarrow: true, width: 130 }, cell: (i) => formatDate(i.getValue()) }),
    col.accessor('expires_at', { header: 'Access expires', meta: { width: 140 }, cell: (i) => (i.getValue() ? formatDate(i.getValue()) : 'Never') }),
    col.display({
      id: 'actions',
      header: () => <span className="gh-visually-hidden">Actions</span>,
      meta: { width: 110 },
      cell: ({ row: { original: i } }) => (
        <Button size="compact-sm" variant="light" color="red" onClick={() => onRevoke(i)} aria-label={`Revoke the invitation of ${i.invite_email}`}>
          Revoke
        </Button>
      ),
    }),
  ];
}

/**
 * The invitations by email still waiting for their account (they are not members yet), with
 * Revoke: shown to those who may invite (Owners of a group, Maintainers of a project). Nothing
 * is drawn while there are none.
 */
export function PendingInvitations({ scope, id, name }: { scope: MemberScope; id: number; name: string }) {
  const [pageNo, setPageNo] = useState(1);
  const invitations = useInvitations(scope, id, pageNo, true);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const revoke = useRevokeInvitation(scope, id, { meta: { showsError: () => true } });
  const cols = useMemo(() => invitationColumns(setRevoking), []);
  const items = invitations.data?.items ?? [];
  if (invitations.data && items.length === 0 && pageNo === 1) return null;

  const close = () => {
    setRevoking(null);
    setRefusal(null);
  };
  const confirm = () => {
    if (!revoking) return;
    revoke.mutate(revoking.invite_email, {
      onSuccess: () => {
        notifySuccess('Invitation revoked', `${revoking.invite_email} will not get access to ${name}.`);
        if (items.length === 1 && pageNo > 1) setPageNo(pageNo - 1);
        close();
      },
      onError: (e) => setRefusal(memberRefusal(e)),
    });
  };

  return (
    <Stack gap="xs" component="section" aria-labelledby="pending-invitations">
      <Title order={3} size="h4" id="pending-invitations">
        Pending invitations
      </Title>
      <Text c="dimmed" size="sm" maw={640}>
        People invited by email who have no account yet. Each becomes a member when an account with the address is created.
      </Text>
      <QueryContent query={invitations} what="invitations">
        {() => <DataTable label="Pending invitations" items={items} columns={cols} getRowId={(i) => String(i.id)} busy={invitations.isFetching} />}
      </QueryContent>
      <TablePager info={invitations.data?.page} shown={items.length} what={(n) => (n === 1 ? 'invitation' : 'invitations')} onPage={setPageNo} />
      <ConfirmDialog opened={revoking !== null} title={revoking ? `Revoke the invitation of ${revoking.invite_email}?` : ''} confirmLabel="Revoke invitation" loading={revoke.isPending} onConfirm={confirm} onClose={close}>
        {refusal ? <Text c="red" role="alert">{refusal}</Text> : `The code in the email stops working, and an account made with this address later does not join ${name}.`}
      </ConfirmDialog>
    </Stack>
  );
}
