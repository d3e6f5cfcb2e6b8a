import { useState } from 'react';
import { Alert, Button, Group, Modal, MultiSelect, NativeSelect, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { memberAccessLevels, ROLE_NAMES } from '../../../../shared/src/roles.ts';
import { useUserSearch, type ListedMember } from '../../api/members.ts';
import { IconAlert } from '../../components/icons.tsx';
import { daysFromToday } from '../../components/token-expiry.ts';

export const ROLE_OPTIONS = memberAccessLevels.map((l) => ({ value: String(l), label: ROLE_NAMES[l] }));

export interface MemberValues {
  /** The users to add (one or more), or the one member being changed, with the names to tell them by. */
  users: { id: number; label: string }[];
  access_level: number;
  expires_at: string | null;
}

/**
 * Adds members (one or more users, picked by searching /users; bots, which belong to the group
 * or project whose token they serve, are not offered) or changes one's role and expiry. The
 * server's refusals are shown in the dialog, in plain words, and the dialog stays open.
 */
export function MemberDialog({
  opened,
  editing,
  where,
  busy,
  refusal,
  onSubmit,
  onClose,
}: {
  opened: boolean;
  /** The member being changed; null adds one. */
  editing: ListedMember | null;
  where: string;
  busy: boolean;
  refusal: string | null;
  /** Resolves with the users it added, which leave the picker (the refused ones stay, to try again). */
  onSubmit: (values: MemberValues) => Promise<number[]>;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={busy ? () => {} : onClose} title={editing ? `Change ${editing.name}’s membership` : `Add members to ${where}`} size="lg">
      {opened && <MemberForm key={editing?.id ?? 'new'} editing={editing} busy={busy} refusal={refusal} onSubmit={onSubmit} onClose={onClose} />}
    </Modal>
  );
}

function MemberForm({ editing, busy, refusal, onSubmit, onClose }: { editing: ListedMember | null; busy: boolean; refusal: string | null; onSubmit: (v: MemberValues) => Promise<number[]>; onClose: () => void }) {
  const [search, setSearch] = useState('');
  // The picked users' labels, kept while the search shows other users.
  const [picked, setPicked] = useState<{ value: string; label: string }[]>([]);
  const [level, setLevel] = useState(String(editing?.access_level ?? 30));
  const [expires, setExpires] = useState<string | null>(editing?.expires_at ?? null);
  const [missing, setMissing] = useState(false);
  const users = useUserSearch(search);
  const found = (users.data ?? []).map((u) => ({ value: String(u.id), label: `${u.name} (@${u.username})` }));
  const options = [...picked, ...found.filter((o) => !picked.some((p) => p.value === o.value))];

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const users = editing ? [{ id: editing.id, label: editing.name }] : picked.map((p) => ({ id: Number(p.value), label: p.label }));
    if (!users.length) {
      setMissing(true);
      return;
    }
    void onSubmit({ users, access_level: Number(level), expires_at: expires }).then((added) => setPicked((p) => p.filter((x) => !added.includes(Number(x.value)))));
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
            label="Users"
            description="Type at least two letters of a name, username or email; pick as many users as you like."
            placeholder={picked.length ? undefined : 'Search users'}
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
            nothingFoundMessage={search.trim().length >= 2 && users.data ? 'No user matches' : undefined}
            error={missing ? 'Choose at least one user from the list' : undefined}
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
            {editing ? 'Save' : picked.length > 1 ? `Add ${picked.length} members` : 'Add member'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
