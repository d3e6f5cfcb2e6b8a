import { useMemo, useState } from 'react';
import { Alert, Button, FileInput, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import type { ConsolePlaceholder } from '../../../../shared/src/console-group-transfer.ts';
import { isApiError } from '../../api/client.ts';
import { placeholderCsvHref, useGroupPlaceholders, useUploadReassignments } from '../../api/group-transfer.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { IconAlert, IconCheck } from '../../components/icons.tsx';
import { RequireAbility } from '../../components/ResourcePage.tsx';
import { EmptyState, QueryContent, errorMessage } from '../../components/states.tsx';
import { StatusCell, type StatusLook } from '../../components/StatusCell.tsx';
import { formatCount, fromNow, fullDateTimeToMinute, sentence } from '../../format.ts';
import { useGroupContext } from '../groups/group-context.ts';

const STATUS: Record<ConsolePlaceholder['status'], StatusLook> = {
  pending_reassignment: { label: 'Awaiting reassignment', color: 'yellow' },
  reassignment_in_progress: { label: 'Reassigning…', color: 'blue' },
  completed: { label: 'Reassigned', color: 'teal' },
};

const col = createColumnHelper<ConsolePlaceholder>();

function SourceUser({ p }: { p: ConsolePlaceholder }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600}>
        {p.source_name ?? p.source_username ?? `User ${p.source_user_identifier}`}
      </Text>
      <Text size="xs" c="dimmed">
        {p.source_username ? `@${p.source_username} · ` : ''}user {p.source_user_identifier} on {p.source_hostname}
      </Text>
    </Stack>
  );
}

const when = (iso: string) => (
  <time dateTime={iso} title={fullDateTimeToMinute(iso)}>
    {fromNow(iso)}
  </time>
);

/** The rows of a filled-in CSV the server refused, said in place; the accepted message likewise. */
function UploadResult({ upload }: { upload: ReturnType<typeof useUploadReassignments> }) {
  if (upload.isSuccess)
    return (
      <Alert color="teal" variant="light" icon={<IconCheck />} title="CSV file accepted" role="status">
        {upload.data.message} The placeholders below move to Reassigned as it is done.
      </Alert>
    );
  if (upload.isError)
    return (
      <Alert color="red" variant="light" icon={<IconAlert />} title="The CSV file was refused; nothing was reassigned" role="alert">
        {isApiError(upload.error) && upload.error.status < 500 ? `${sentence(upload.error.message.replace(/\.?\s*$/, '.'))} Correct the file and upload it again.` : errorMessage(upload.error)}
      </Alert>
    );
  return null;
}

/**
 * /groups/<full path>/-/placeholders: the placeholder users an import made in this group (people
 * of the archive with no account here), the CSV to fill in and its upload, and who was
 * reassigned to whom once the job ran.
 */
function Placeholders() {
  const { group } = useGroupContext();
  const listing = useGroupPlaceholders(group.id);
  const upload = useUploadReassignments(group.id, { meta: { errorTitle: 'The CSV file was refused', showsError: (e) => e.status === 400 || e.status === 422 } });
  const [file, setFile] = useState<File | null>(null);

  const waitingColumns = useMemo(
    () => [
      col.display({ id: 'source', header: 'Placeholder for', cell: ({ row }) => <SourceUser p={row.original} /> }),
      col.accessor('import_type', { header: 'Import', cell: (i) => <Text size="sm">{i.getValue() === 'import_group_from_file' ? 'Group import from file' : i.getValue()}</Text>, meta: { hideNarrow: true } }),
      col.accessor('status', {
        header: 'Status',
        cell: (i) => <StatusCell look={STATUS[i.getValue()]} note={i.row.original.reassigned_to && `to @${i.row.original.reassigned_to.username}`} />,
      }),
    ],
    [],
  );
  const doneColumns = useMemo(
    () => [
      col.display({ id: 'source', header: 'Placeholder for', cell: ({ row }) => <SourceUser p={row.original} /> }),
      col.accessor('reassigned_to', {
        header: 'Reassigned to',
        cell: (i) =>
          i.getValue() ? (
            <Stack gap={0}>
              <Text size="sm" fw={600}>
                {i.getValue()!.name}
              </Text>
              <Text size="xs" c="dimmed">
                @{i.getValue()!.username}
              </Text>
            </Stack>
          ) : (
            '—'
          ),
      }),
      col.accessor('updated_at', { header: 'Reassigned', cell: (i) => when(i.getValue()) }),
    ],
    [],
  );

  const onUpload = (e: React.FormEvent) => {
    e.preventDefault();
    if (file) upload.mutate(file);
  };

  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          Placeholder users
        </Title>
        <Text c="dimmed" size="sm" maw={760}>
          People named in a group archive imported here who have no account on this instance. Each placeholder holds that person&apos;s contributions (the epics they wrote or closed) and
          their role, without any access, until you reassign it to a user here.
        </Text>
      </div>
      <QueryContent query={listing} what="the placeholder users">
        {(t) => {
          const waiting = t.placeholders.filter((p) => p.status !== 'completed');
          const done = t.placeholders.filter((p) => p.status === 'completed');
          const pending = waiting.filter((p) => p.status === 'pending_reassignment').length;
          if (t.placeholders_total === 0)
            return (
              <EmptyState title="No placeholder users">
                This group has none. They are made when a group is imported from an archive that names people without an account here, and are listed on the imported group.
              </EmptyState>
            );
          return (
            <Stack gap="lg">
              <Paper withBorder p="md" component="section" aria-labelledby="reassign-title">
                <Stack gap="sm">
                  <Title order={3} size="h5" id="reassign-title">
                    Reassign with a CSV file
                  </Title>
                  <List type="ordered" size="sm" spacing={2}>
                    <List.Item>Download the CSV of the placeholders awaiting reassignment.</List.Item>
                    <List.Item>
                      For each person, fill in <b>Platform username</b> (or <b>Platform public email</b>) of the user here who takes over; leave a row empty to keep it waiting.
                    </List.Item>
                    <List.Item>Upload the file. It is checked whole: if a row is wrong, nothing changes and this page says which row.</List.Item>
                  </List>
                  <Group gap="xs">
                    <Button component="a" href={placeholderCsvHref(group.id)} download variant="light">
                      Download CSV
                    </Button>
                    <Text size="xs" c="dimmed">
                      {pending === 0 ? 'No placeholder is awaiting reassignment.' : formatCount(pending, 'placeholder awaits reassignment', 'placeholders await reassignment')}
                    </Text>
                  </Group>
                  <form onSubmit={onUpload} aria-label="Upload the filled-in CSV">
                    <Group align="flex-end" gap="xs">
                      <FileInput
                        label="Filled-in CSV file"
                        placeholder="Choose a .csv file"
                        accept=".csv,text/csv"
                        clearable
                        clearButtonProps={{ 'aria-label': 'Remove the chosen file' }}
                        value={file}
                        onChange={(f) => {
                          setFile(f);
                          upload.reset();
                        }}
                        w={320}
                      />
                      <Button type="submit" loading={upload.isPending} disabled={!file}>
                        Upload and reassign
                      </Button>
                    </Group>
                  </form>
                  <UploadResult upload={upload} />
                </Stack>
              </Paper>
              <section aria-labelledby="waiting-title">
                <Title order={3} size="h5" id="waiting-title" mb="xs">
                  Awaiting reassignment ({waiting.length})
                </Title>
                {waiting.length ? (
                  <DataTable label="Placeholder users awaiting reassignment" items={waiting} columns={waitingColumns} getRowId={(p) => String(p.id)} minWidth={560} />
                ) : (
                  <Text size="sm" c="dimmed">
                    Every placeholder user of this group was reassigned.
                  </Text>
                )}
              </section>
              <section aria-labelledby="done-title">
                <Title order={3} size="h5" id="done-title" mb="xs">
                  Reassigned ({done.length})
                </Title>
                {done.length ? (
                  <DataTable label="Reassigned placeholder users" items={done} columns={doneColumns} getRowId={(p) => String(p.id)} minWidth={560} />
                ) : (
                  <Text size="sm" c="dimmed">
                    None yet. Once a CSV file is processed, each placeholder it names is listed here with the user who took over its contributions.
                  </Text>
                )}
              </section>
              {t.placeholders.length < t.placeholders_total && (
                <Text size="xs" c="dimmed">
                  Showing {formatCount(t.placeholders.length, 'placeholder', 'placeholders')} of {t.placeholders_total}; the CSV file lists every one awaiting reassignment.
                </Text>
              )}
            </Stack>
          );
        }}
      </QueryContent>
    </Stack>
  );
}

export default function PlaceholdersPage() {
  return (
    <RequireAbility action="admin_placeholders" title="You need the Owner role to reassign placeholder users" hint="Ask an Owner of the group to reassign the people of an imported archive.">
      <Placeholders />
    </RequireAbility>
  );
}
