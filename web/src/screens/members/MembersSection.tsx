import { useMemo, useState } from 'react';
import { Avatar, Badge, Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useAddMember, useMembers, useRemoveMember, useUpdateMember, type ListedMember, type MemberScope } from '../../api/members.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { formatDate, roleName } from '../../format.ts';
import { IconPlus, IconSearch } from '../../components/icons.tsx';
import { useListParams, useSearchBox } from '../../components/list-params.ts';
import { notifySuccess } from '../../components/notify.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { useInvite } from '../../api/invitations.ts';
import { MemberDialog, ROLE_OPTIONS, type MemberValues } from './MemberDialog.tsx';
import { PendingInvitations } from './PendingInvitations.tsx';
import { invitationRefusals, memberRefusal } from './refusal.ts';

const PER_PAGE = 20;
const col = createColumnHelper<ListedMember>();

function memberColumns(actions: { onEdit: (m: ListedMember) => void; onRemove: (m: ListedMember) => void } | null) {
  const base = [
    col.accessor('name', {
      header: 'Member',
      cell: ({ row: { original: m } }) => (
        <Group gap="sm" wrap="nowrap" miw={180}>
          <Avatar src={m.avatar_url} name={m.name} size="sm" alt="" />
          <Stack gap={0}>
            <Text size="sm" fw={600}>
              {m.name}
            </Text>
            <Text size="xs" c="dimmed">
              @{m.username}
            </Text>
          </Stack>
        </Group>
      ),
    }),
    col.accessor('access_level', {
      header: 'Role',
      cell: ({ row: { original: m } }) => (
        <Group gap={6}>
          <Text size="sm">{roleName(m.access_level)}</Text>
          {m.inherited && (
            <Badge variant="outline" color="gray" size="sm" tt="none" title="From a parent group; change it there">
              Inherited
            </Badge>
          )}
        </Group>
      ),
    }),
    col.accessor('created_at', { header: 'Member since', meta: { hideNarrow: true, width: 130 }, cell: (i) => formatDate(i.getValue()) }),
    col.accessor('expires_at', { header: 'Access expires', meta: { width: 140 }, cell: (i) => (i.getValue() ? formatDate(i.getValue()) : 'Never') }),
  ];
  if (!actions) return base;
  return [
    ...base,
    col.display({
      id: 'actions',
      header: () => <span className="gh-visually-hidden">Actions</span>,
      meta: { width: 170 },
      cell: ({ row: { original: m } }) =>
        m.inherited ? null : (
          <Group gap={6} wrap="nowrap" justify="flex-end">
            <Button size="compact-sm" variant="default" onClick={() => actions.onEdit(m)} aria-label={`Change ${m.name}`}>
              Change
            </Button>
            <Button size="compact-sm" variant="light" color="red" onClick={() => actions.onRemove(m)} aria-label={`Remove ${m.name}`}>
              Remove
            </Button>
          </Group>
        ),
    }),
  ];
}

const FORBIDDEN_TITLE = 'You cannot see the members here';
const FORBIDDEN_HINT = 'Members are listed to everyone with access; ask an Owner to add you.';

/**
 * Members of a group or project: everyone with access, searched and paged on the server, the
 * search, role filter and page in the URL; edits for Maintainers and above; invitations by email
 * and the pending ones for those who may invite (`canInvite`).
 */
export function MembersSection({ scope, id, name, canAdmin, canInvite }: { scope: MemberScope; id: number; name: string; canAdmin: boolean; canInvite: boolean }) {
  return (
    <RequireAbility action="read_members" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      <Members scope={scope} id={id} name={name} canAdmin={canAdmin} canInvite={canInvite} />
    </RequireAbility>
  );
}

function Members({ scope, id, name, canAdmin, canInvite }: { scope: MemberScope; id: number; name: string; canAdmin: boolean; canInvite: boolean }) {
  const list = useListParams();
  const role = Number(list.get('role')) || null;
  const members = useMembers(scope, id, { search: list.search.trim(), page: list.page, perPage: list.perPage ?? PER_PAGE });
  const searchBox = useSearchBox(list.search, list.update);
  const [dialog, setDialog] = useState<{ editing: ListedMember | null } | null>(null);
  const [removing, setRemoving] = useState<ListedMember | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  // Refusals are explained in the dialogs, in plain words: no toast for them.
  const quiet = { meta: { showsError: () => true } };
  const add = useAddMember(scope, id, quiet);
  const update = useUpdateMember(scope, id, quiet);
  const remove = useRemoveMember(scope, id, quiet);
  const invite = useInvite(scope, id, quiet);
  const cols = useMemo(() => memberColumns(canAdmin ? { onEdit: (m) => setDialog({ editing: m }), onRemove: setRemoving } : null), [canAdmin]);

  const closeDialog = () => {
    setDialog(null);
    setRefusal(null);
  };
  const submit = async (v: MemberValues): Promise<{ users: number[]; emails: string[] }> => {
    const editing = dialog?.editing;
    setRefusal(null);
    if (editing) {
      try {
        const m = await update.mutateAsync({ ...v, userId: editing.id });
        notifySuccess('Membership changed', `${m.name} is ${roleName(m.access_level)} of ${name}.`);
        closeDialog();
      } catch (e) {
        setRefusal(memberRefusal(e));
      }
      return { users: [], emails: [] };
    }
    // One request per user, as the platform's API adds one member at a time; each outcome is told.
    const added: { id: number; name: string }[] = [];
    const refused: string[] = [];
    setAdding(true);
    for (const user of v.users) {
      try {
        added.push(await add.mutateAsync({ ...v, userId: user.id }));
      } catch (e) {
        refused.push(`${user.label}: ${memberRefusal(e)}`);
      }
    }
    // The addresses go in one request; the platform answers which it refused and why.
    let invited: string[] = [];
    if (v.emails.length) {
      try {
        const refusedEmails = invitationRefusals(await invite.mutateAsync({ emails: v.emails, access_level: v.access_level, expires_at: v.expires_at }), v.emails);
        invited = v.emails.filter((e) => !(e in refusedEmails));
        refused.push(...Object.entries(refusedEmails).map(([e, why]) => `${e}: ${why}`));
      } catch (e) {
        refused.push(`${v.emails.join(', ')}: ${memberRefusal(e)}`);
      }
    }
    setAdding(false);
    const names = added.map((m) => m.name).join(', ');
    if (added.length) notifySuccess(added.length === 1 ? 'Member added' : `${added.length} members added`, `${names} ${added.length === 1 ? 'is' : 'are'} ${roleName(v.access_level)} of ${name}.`);
    if (invited.length) notifySuccess(invited.length === 1 ? 'Invitation sent' : `${invited.length} invitations sent`, `${invited.join(', ')} will be ${roleName(v.access_level)} of ${name} once an account with the address exists.`);
    const done = [...(added.length ? [`Added ${names}.`] : []), ...(invited.length ? [`Invited ${invited.join(', ')}.`] : [])].join(' ');
    if (refused.length) setRefusal(`${done ? `${done} ` : ''}Not added: ${refused.join(' ')}`);
    else closeDialog();
    return { users: added.map((m) => m.id), emails: invited };
  };
  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.id, {
      onSuccess: () => {
        notifySuccess('Member removed', `${removing.name} no longer has direct access to ${name}.`);
        setRemoving(null);
        setRefusal(null);
      },
      onError: (e) => setRefusal(memberRefusal(e)),
    });
  };

  const pageItems = members.data?.items ?? [];
  const info = members.data?.page;
  // The platform's API has no role filter: it narrows the page the server sent, and says so when there are more pages.
  const items = role ? pageItems.filter((m) => m.access_level === role) : pageItems;
  const pageOnly = role !== null && (info?.totalPages ?? 1) > 1;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            Members
          </Title>
          <Text c="dimmed" size="sm" maw={640}>
            Everyone with access to {name}. Inherited members come from a parent group and are changed there.
          </Text>
        </div>
        {canAdmin && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ editing: null })}>
            Add member
          </Button>
        )}
      </Group>
      <Group gap="sm" align="flex-end">
        <TextInput label="Search" placeholder="Name or username" type="search" leftSection={<IconSearch size={16} />} {...searchBox} style={{ flex: '1 1 240px', maxWidth: 360 }} />
        <NativeSelect label="Role" value={role ? String(role) : ''} onChange={(e) => list.update({ role: e.currentTarget.value || null })} data={[{ value: '', label: 'Any role' }, ...ROLE_OPTIONS]} maw={200} />
      </Group>
      {pageOnly && (
        <Text size="sm" c="dimmed">
          The role filter applies to the members on this page; search by name to find someone on another page.
        </Text>
      )}
      <QueryContent
        query={members}
        what="members"
        forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
        empty={() =>
          items.length === 0 &&
          (list.search || role ? (
            <EmptyState title="No members match" action={<Button variant="default" onClick={() => list.update({ search: null, role: null })}>Clear search and filter</Button>}>
              {pageOnly ? `No member on this page of ${name} has the role you chose.` : `No member of ${name} matches the search and role you chose.`}
            </EmptyState>
          ) : (
            <EmptyState title="No members yet">Add people to give them access to {name}.</EmptyState>
          ))
        }
      >
        {() => <DataTable label="Members" items={items} columns={cols} getRowId={(m) => String(m.id)} busy={members.isFetching} />}
      </QueryContent>
      <TablePager info={info} shown={pageItems.length} what={(n) => (n === 1 ? 'member' : 'members')} onPage={list.setPage} />
      {canInvite && <PendingInvitations scope={scope} id={id} name={name} />}
      <MemberDialog opened={dialog !== null} editing={dialog?.editing ?? null} where={name} busy={adding || update.isPending} refusal={refusal} canInvite={canInvite} onSubmit={submit} onClose={closeDialog} />
      <ConfirmDialog
        opened={removing !== null}
        title={removing ? `Remove ${removing.name}?` : ''}
        confirmLabel="Remove member"
        loading={remove.isPending}
        onConfirm={confirmRemove}
        onClose={() => {
          setRemoving(null);
          setRefusal(null);
        }}
      >
        {refusal ? <Text c="red" role="alert">{refusal}</Text> : `${removing?.name} loses direct access to ${name}. Access inherited from a parent group stays.`}
      </ConfirmDialog>
    </Stack>
  );
}
