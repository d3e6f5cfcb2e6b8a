import { useState } from 'react';
import { Alert, Autocomplete, Button, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { memberAccessLevels, ROLE_NAMES } from '../../../../shared/src/roles.ts';
import { useUserSearch, type ListedMember } from '../../api/members.ts';
import { IconAlert } from '../../components/icons.tsx';
import { daysFromToday } from '../../components/token-expiry.ts';

export const ROLE_OPTIONS = memberAccessLevels.map((l) => ({ value: String(l), label: ROLE_NAMES[l] }));

export interface MemberValues {
  userId: number;
  access_level: number;
  expires_at: string | null;
}

/**
 * Adds a member (a user picked by searching /users) or changes one's role and expiry. The
 * server's refusal is shown in the dialog, in plain words, and the dialog stays open.
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
  onSubmit: (values: MemberValues) => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={busy ? () => {} : onClose} title={editing ? `Change ${editing.name}’s membership` : `Add a member to ${where}`} size="lg">
      {opened && <MemberForm key={editing?.id ?? 'new'} editing={editing} busy={busy} refusal={refusal} onSubmit={onSubmit} onClose={onClose} />}
    </Modal>
  );
}

function MemberForm({ editing, busy, refusal, onSubmit, onClose }: { editing: ListedMember | null; busy: boolean; refusal: string | null; onSubmit: (v: MemberValues) => void; onClose: () => void }) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<{ id: number; label: string } | null>(null);
  const [level, setLevel] = useState(String(editing?.access_level ?? 30));
  const [expires, setExpires] = useState<string | null>(editing?.expires_at ?? null);
  const [missing, setMissing] = useState(false);
  const users = useUserSearch(search);
  const options = (users.data ?? []).map((u) => ({ value: `${u.name} (@${u.username})`, id: u.id }));

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const userId = editing?.id ?? picked?.id;
    if (!userId) {
      setMissing(true);
      return;
    }
    onSubmit({ userId, access_level: Number(level), expires_at: expires });
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
          <Autocomplete
            label="User"
            description="Type at least two letters of a name, username or email."
            placeholder="Search users"
            withAsterisk
            data-autofocus
            value={search}
            onChange={(v) => {
              setSearch(v);
              // Choosing an option also types its label: keep the pick then, drop it on any other edit.
              setPicked((p) => (p && p.label === v ? p : null));
              setMissing(false);
            }}
            data={options.map((o) => o.value)}
            onOptionSubmit={(v) => {
              const o = options.find((x) => x.value === v);
              if (o) setPicked({ id: o.id, label: v });
            }}
            error={missing ? 'Choose a user from the list' : undefined}
            filter={({ options: all }) => all}
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
            {editing ? 'Save' : 'Add member'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
