import { useState } from 'react';
import { Alert, Button, Group, Modal, MultiSelect, NativeSelect, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { memberAccessLevels, ROLE_NAMES } from '../../../../shared/src/roles.ts';
import { INVITE_EMAIL } from '../../../../shared/src/invitations.ts';
import { useUserSearch, type ListedMember } from '../../api/members.ts';
import { IconAlert } from '../../components/icons.tsx';
import { daysFromToday } from '../../components/token-expiry.ts';

export const ROLE_OPTIONS = memberAccessLevels.map((l) => ({ value: String(l), label: ROLE_NAMES[l] }));

/** Picker values of addresses to invite by email (users' values are their ids). */
const EMAIL_VALUE = 'email:';

export interface MemberValues {
  /** The users to add (one or more), or the one member being changed, with the names to tell them by. */
  users: { id: number; label: string }[];
  /** Addresses to invite by email, in the same go (lower-cased). */
  emails: string[];
  access_level: number;
  expires_at: string | null;
}

/**
 * Adds members (one or more users, picked by searching /users; bots, which belong to the group
 * or project whose token they serve, are not offered) and, for those who may, invites addresses
 * typed in the same picker; or changes one's role and expiry. The server's refusals are shown in
 * the dialog, in plain words, and the dialog stays open.
 */
export function MemberDialog({
  opened,
  editing,
  where,
  busy,
  refusal,
  canInvite,
  onSubmit,
  onClose,
}: {
  opened: boolean;
  /** The member being changed; null adds one. */
  editing: ListedMember | null;
  where: string;
  busy: boolean;
  refusal: string | null;
  /** Whether addresses may be invited by email (Owners of a group, Maintainers of a project). */
  canInvite: boolean;
  /** Resolves with the users and addresses it added or invited, which leave the picker (the refused ones stay, to try again). */
  onSubmit: (values: MemberValues) => Promise<{ users: number[]; emails: string[] }>;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={busy ? () => {} : onClose} title={editing ? `Change ${editing.name}’s membership` : `Add members to ${where}`} size="lg">
      {opened && <MemberForm key={editing?.id ?? 'new'} editing={editing} busy={busy} refusal={refusal} canInvite={canInvite} onSubmit={onSubmit} onClose={onClose} />}
    </Modal>
  );
}

function MemberForm({
  editing,
  busy,
  refusal,
  canInvite,
  onSubmit,
  onClose,
}: {
  editing: ListedMember | null;
  busy: boolean;
  refusal: string | null;
  canInvite: boolean;
  onSubmit: (v: MemberValues) => Promise<{ users: number[]; emails: string[] }>;
  onClose: () => void;
}) {
  const [search, setSearch] = useState('');
  // The picked users' labels, kept while the search shows other users.
  const [picked, setPicked] = useState<{ value: string; label: string }[]>([]);
  const [level, setLevel] = useState(String(editing?.access_level ?? 30));
  const [expires, setExpires] = useState<string | null>(editing?.expires_at ?? null);
  const [missing, setMissing] = useState(false);
  const users = useUserSearch(search);
  const found = (users.data ?? []).map((u) => ({ value: String(u.id), label: `${u.name} (@${u.username})` }));
  // A typed address is offered as an invitation, beside the users the search found.
  const typed = search.trim().toLowerCase();
  const invitable = canInvite && INVITE_EMAIL.test(typed) ? [{ value: `${EMAIL_VALUE}${typed}`, label: `Invite ${typed} by email` }] : [];
  const options = [...picked, ...[...invitable, ...found].filter((o) => !picked.some((p) => p.value === o.value))];

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const emails = editing ? [] : picked.filter((p) => p.value.startsWith(EMAIL_VALUE)).map((p) => p.value.slice(EMAIL_VALUE.length));
    const users = editing ? [{ id: editing.id, label: editing.name }] : picked.filter((p) => !p.value.startsWith(EMAIL_VALUE)).map((p) => ({ id: Number(p.value), label: p.label }));
    if (!users.length && !emails.length) {
      setMissing(true);
      return;
    }
    void onSubmit({ users, emails, access_level: Number(level), expires_at: expires }).then((done) =>
      setPicked((p) => p.filter((x) => !done.users.includes(Number(x.value)) && !done.emails.includes(x.value.slice(EMAIL_VALUE.length)))),
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Change membership' : 'New member'}>
      <Stack gap="md">
        {refusal && (
          <Alert color="red" variant="light" icon={<IconAlert />} title="The server refused" role="alert">
            {refusal}
          </Alert>
        )}
        {editing ? (
          <Text size="sm">
            {editing.name} <Text span c="dimmed">@{editing.username}</Text>
          </Text>
        ) : (
          <MultiSelect
            label={canInvite ? 'Users or email addresses' : 'Users'}
            description={
              canInvite
                ? 'Type at least two letters of a name or username and pick as many users as you like; type a whole email address to invite someone who has no account yet.'
                : 'Type at least two letters of a name, username or email; pick as many users as you like.'
            }
            placeholder={picked.length ? undefined : canInvite ? 'Search users or type an email address' : 'Search users'}
            withAsterisk
            data-autofocus
            searchable
            searchValue={search}
            onSearchChange={(v) => {
              setSearch(v);
              setMissing(false);
            }}
            data={options}
            value={picked.map((p) => p.value)}
            onChange={(values) => {
              setPicked(values.map((v) => options.find((o) => o.value === v)!).filter(Boolean));
              setMissing(false);
            }}
            nothingFoundMessage={search.trim().length >= 2 && users.data ? (canInvite ? 'No user matches; type a whole email address to invite' : 'No user matches') : undefined}
            error={missing ? (canInvite ? 'Choose at least one user or email address from the list' : 'Choose at least one user from the list') : undefined}
            filter={({ options: all }) => all}
            hidePickedOptions
          />
        )}
        <Group grow align="flex-start">
          <NativeSelect label="Role" data={ROLE_OPTIONS} value={level} onChange={(e) => setLevel(e.currentTarget.value)} />
          <DatePickerInput
            label="Access expires"
            description="Optional; empty means never."
            placeholder="Never"
            clearable
            value={expires}
            onChange={(v) => setExpires(v)}
            minDate={daysFromToday(1)}
            valueFormat="MMM D, YYYY"
          />
        </Group>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {editing ? 'Save' : submitLabel(picked.filter((p) => !p.value.startsWith(EMAIL_VALUE)).length, picked.filter((p) => p.value.startsWith(EMAIL_VALUE)).length)}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "Add 2 members and invite 1", in as few words as the picks allow. */
function submitLabel(users: number, emails: number): string {
  const add = users > 1 ? `Add ${users} members` : users === 1 ? 'Add member' : '';
  const invite = emails > 1 ? `invite ${emails}` : emails === 1 ? 'invite 1' : '';
  if (add && invite) return `${add} and ${invite}`;
  if (invite) return emails > 1 ? `Invite ${emails} by email` : 'Invite by email';
  return add || 'Add member';
}
