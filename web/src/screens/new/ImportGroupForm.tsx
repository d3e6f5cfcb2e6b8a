import { useState } from 'react';
import { Alert, Anchor, Button, FileInput, Group, Loader, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { isApiError, type ApiError } from '../../api/client.ts';
import { useGroups } from '../../api/groups.ts';
import { useCurrentUser } from '../../api/session.ts';
import { useImportedGroup, useImportGroup } from '../../api/group-transfer.ts';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { IconAlert, IconCheck } from '../../components/icons.tsx';
import { errorMessage } from '../../components/states.tsx';
import { sentence } from '../../format.ts';
import { groupHref } from '../../paths.ts';
import { slugOf } from './slug.ts';

const fields = z.object({
  file: z.instanceof(File, { message: 'Choose the exported archive (.tar.gz)' }).nullable().refine((f) => f !== null, 'Choose the exported archive (.tar.gz)'),
  name: z.string().trim().min(1, 'Enter a name').max(255),
  path: z.string().min(1, 'Enter a path').max(255).regex(/^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/, 'can contain only letters, digits, "_", "-" and ".", and cannot start with "-" or "."'),
  parent: z.string().nullable(),
});
type Values = z.input<typeof fields>;
const FIELD_NAMES = ['file', 'name', 'path', 'parent'] as const;
const SERVER_FIELDS: Record<string, (typeof FIELD_NAMES)[number]> = { parent_id: 'parent' };

/** A refusal that names no field (the archive refused, a file too large): shown above the buttons. */
const refusalOf = (e: ApiError) =>
  e.status === 413 ? 'The file is larger than this server accepts for an import.' : e.status === 400 && !e.fieldErrors ? sentence(e.message)! : null;

/** The groups the caller may import into (they may create subgroups there; the server decides). */
function useParentChoices(search: string) {
  const user = useCurrentUser();
  // Administrators may import anywhere; others where they are Maintainers or Owners (the default subgroup creation level).
  const groups = useGroups({ search: search || undefined, per_page: 20, order_by: 'path', ...(user.is_admin ? { all_available: true } : { min_access_level: 40 as const }) });
  return {
    data: (groups.data?.items ?? []).map((g) => ({ value: String(g.id), label: g.full_path })).sort((a, b) => a.label.localeCompare(b.label)),
    items: groups.data?.items ?? [],
    loading: groups.isFetching,
  };
}

/**
 * Import a group from an archive exported here or by the platform: the file, the new group's
 * name and path, and optionally the group to import it into; then the import's progress until
 * it finished (open the group) or failed (why, in words).
 */
export function ImportGroupForm() {
  const navigate = useNavigate();
  const [pathEdited, setPathEdited] = useState(false);
  const [search, setSearch] = useState('');
  const [imported, setImported] = useState<{ fullPath: string; name: string } | null>(null);
  const importGroup = useImportGroup({ meta: { errorTitle: 'The group was not imported', showsError: (e) => formShowsFieldErrors(e) || refusalOf(e) !== null } });
  const form = useForm<Values>({ resolver: zodResolver(fields), defaultValues: { file: null, name: '', path: '', parent: null } });
  const path = useWatch({ control: form.control, name: 'path' });
  const parentId = useWatch({ control: form.control, name: 'parent' });
  const parents = useParentChoices(search);
  const [parentPaths, setParentPaths] = useState<Record<string, string>>({});
  const parentPath = parentId ? parentPaths[parentId] : null;

  const onValid = async (v: Values) => {
    const parent = v.parent ? { id: Number(v.parent), full_path: parentPaths[v.parent] } : null;
    try {
      const fullPath = await importGroup.mutateAsync({ file: v.file!, name: v.name.trim(), path: v.path, parent });
      setImported({ fullPath, name: v.name.trim() });
    } catch (e) {
      showServerFieldErrors(form.setError, e, {
        fieldOf: (p) => SERVER_FIELDS[p.split('.')[0]] ?? FIELD_NAMES.find((f) => f === p.split('.')[0]) ?? null,
        title: 'The group was not imported',
      });
    }
  };

  if (imported) {
    return (
      <ImportProgress
        {...imported}
        onAgain={() => {
          setImported(null);
          importGroup.reset();
          form.reset();
          setPathEdited(false);
        }}
      />
    );
  }

  const nameField = form.register('name', {
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      if (!pathEdited) form.setValue('path', slugOf(e.target.value), { shouldValidate: form.formState.isSubmitted });
    },
  });
  const pathField = form.register('path', { onChange: () => setPathEdited(true) });
  const refusal = importGroup.error && isApiError(importGroup.error) ? refusalOf(importGroup.error) : null;

  return (
    <Paper withBorder radius="md" p="lg" maw={720}>
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label="Import group">
        <Stack gap="md">
          <div>
            <Title order={2} size="h3">
              Import group
            </Title>
            <Text size="sm" c="dimmed">
              Make a new group from a group export (a .tar.gz archive exported here or by the platform): its subgroups, labels, milestones, epics, boards and badges. People in the archive
              without an account here become placeholder users, to reassign afterwards.
            </Text>
          </div>
          <Controller
            control={form.control}
            name="file"
            render={({ field: { ref, value, onChange, onBlur, name }, fieldState }) => (
              <FileInput
                ref={ref}
                name={name}
                label="Export file"
                description="The group's export archive, a .tar.gz file."
                placeholder="Choose a .tar.gz file"
                accept=".tar.gz,.tgz,.gz,application/gzip,application/x-gzip"
                withAsterisk
                clearable
                clearButtonProps={{ 'aria-label': 'Remove the chosen file' }}
                value={value}
                onChange={(f) => {
                  onChange(f);
                  importGroup.reset();
                }}
                onBlur={onBlur}
                error={sentence(fieldState.error?.message)}
              />
            )}
          />
          <TextInput label="Group name" withAsterisk autoComplete="off" error={sentence(form.formState.errors.name?.message)} {...nameField} />
          <TextInput
            label="Path"
            description={`Its address: ${parentPath ? `${parentPath}/` : ''}${path || '…'}`}
            withAsterisk
            autoComplete="off"
            error={sentence(form.formState.errors.path?.message)}
            {...pathField}
          />
          <Controller
            control={form.control}
            name="parent"
            render={({ field: { ref, value, onChange, onBlur }, fieldState }) => (
              <Select
                ref={ref}
                label="Parent group"
                description="Optional. Leave empty for a top-level group (private); under a parent, the group takes the parent's visibility."
                placeholder="None: a top-level group"
                searchable
                clearable
                searchValue={search}
                onSearchChange={setSearch}
                nothingFoundMessage={parents.loading ? 'Searching…' : 'No group you may import into matches'}
                data={parents.data}
                value={value}
                onChange={(v) => {
                  if (v) setParentPaths((m) => ({ ...m, [v]: parents.items.find((g) => String(g.id) === v)?.full_path ?? v }));
                  onChange(v);
                }}
                onBlur={onBlur}
                error={sentence(fieldState.error?.message)}
              />
            )}
          />
          {refusal && (
            <Alert color="red" variant="light" icon={<IconAlert />} title="The group was not imported" role="alert">
              {refusal}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => void navigate(-1)} disabled={importGroup.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={importGroup.isPending}>
              Import group
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

const STEP_TEXT: Record<string, string> = {
  scheduled: 'The import is queued and starts in a moment.',
  started: 'The import is running: groups, labels, milestones, epics, boards and badges are being created.',
};

/** The import's progress, read from the new group until it finished or failed. */
function ImportProgress({ fullPath, name, onAgain }: { fullPath: string; name: string; onAgain: () => void }) {
  const group = useImportedGroup(fullPath);
  const status = group.data?.import_status;
  return (
    <Paper withBorder radius="md" p="lg" maw={720} component="section" aria-labelledby="import-progress-title">
      <Stack gap="md" align="flex-start">
        <div>
          <Title order={2} size="h3" id="import-progress-title">
            {status === 'finished' ? `${name} is imported` : status === 'failed' ? `${name} was not imported` : `Importing ${name}`}
          </Title>
          <Text size="sm" c="dimmed">
            Into <b>{fullPath}</b>.{status === 'finished' || status === 'failed' ? '' : ' You can leave this page: the import goes on, and the group shows its state.'}
          </Text>
        </div>
        <div role="status" aria-live="polite" style={{ width: '100%' }}>
          {group.isError ? (
            <Alert color="red" variant="light" icon={<IconAlert />} title="The import's progress could not be read">
              {errorMessage(group.error)}
            </Alert>
          ) : status === 'finished' ? (
            <Alert color="teal" variant="light" icon={<IconCheck />} title="Import finished">
              Its subgroups, labels, milestones, epics, boards and badges are in place. People of the archive without an account here, if any, are placeholder users: an Owner
              reassigns them on the group&apos;s{' '}
              <Anchor component={Link} to={groupHref(fullPath, 'placeholders')} size="sm">
                Placeholders
              </Anchor>{' '}
              screen.
            </Alert>
          ) : status === 'failed' ? (
            <Alert color="red" variant="light" icon={<IconAlert />} title="The import failed">
              {sentence(group.data?.import_error?.replace(/\.?\s*$/, '.') ?? undefined) ?? 'The server could not import the archive.'} The group{' '}
              <Anchor component={Link} to={groupHref(fullPath)} size="sm">
                {fullPath}
              </Anchor>{' '}
              was left empty: delete it from its settings, or import into another path.
            </Alert>
          ) : (
            <Group gap="xs" wrap="nowrap">
              <Loader size="xs" />
              <Text size="sm">{STEP_TEXT[status ?? 'scheduled'] ?? 'Checking the import…'}</Text>
            </Group>
          )}
        </div>
        <Group gap="xs">
          {status === 'finished' && (
            <Button component={Link} to={groupHref(fullPath)}>
              Open group
            </Button>
          )}
          {(status === 'finished' || status === 'failed' || group.isError) && (
            <Button variant="default" onClick={onAgain}>
              Import another group
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
