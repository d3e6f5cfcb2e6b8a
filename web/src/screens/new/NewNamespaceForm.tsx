import { useState } from 'react';
import { Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { groupCreateBody } from '../../../../shared/src/groups.ts';
import { projectCreateBody } from '../../../../shared/src/projects.ts';
import { useCreateGroup } from '../../api/groups.ts';
import { useCreateProject } from '../../api/projects.ts';
import { sentence, VISIBILITY_LABELS } from '../../format.ts';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { groupHref, projectHref } from '../../paths.ts';
import { slugOf } from './slug.ts';

/** What both forms ask: name, path (derived from the name until edited), description, visibility. */
const fields = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(255),
  path: z.string().min(1, 'Enter a path').max(255).regex(/^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/, 'can contain only letters, digits, "_", "-" and ".", and cannot start with "-" or "."'),
  description: z.string().max(500),
  visibility: z.enum(['private', 'internal', 'public']),
});
type Values = z.infer<typeof fields>;
const FIELD_NAMES = ['name', 'path', 'description', 'visibility'] as const;

export type NewWhat = { kind: 'group' } | { kind: 'subgroup'; parent: { id: number; full_path: string; full_name: string } } | { kind: 'project'; group: { id: number; full_path: string; full_name: string } };

const TITLES = { group: 'New group', subgroup: 'New subgroup', project: 'New project' };

/**
 * Creates a group, subgroup or project: the path follows the name until it is edited, the
 * shared create schema checks the body, a server 400 lands under its field, and success opens
 * the new page.
 */
export function NewNamespaceForm({ what }: { what: NewWhat }) {
  const navigate = useNavigate();
  const [pathEdited, setPathEdited] = useState(false);
  const meta = { meta: { errorTitle: `The ${what.kind} was not created`, showsError: formShowsFieldErrors } };
  const createGroup = useCreateGroup(meta);
  const createProject = useCreateProject(meta);
  const form = useForm<Values>({ resolver: zodResolver(fields), defaultValues: { name: '', path: '', description: '', visibility: 'private' } });
  const path = useWatch({ control: form.control, name: 'path' });
  const parentPath = what.kind === 'subgroup' ? what.parent.full_path : what.kind === 'project' ? what.group.full_path : null;
  const busy = createGroup.isPending || createProject.isPending;

  const onValid = async (v: Values) => {
    const common = { name: v.name, path: v.path, description: v.description || undefined, visibility: v.visibility };
    try {
      if (what.kind === 'project') {
        const p = await createProject.mutateAsync(projectCreateBody.parse({ ...common, namespace_id: what.group.id }));
        void navigate(projectHref(p.path_with_namespace));
      } else {
        const g = await createGroup.mutateAsync(groupCreateBody.parse({ ...common, parent_id: what.kind === 'subgroup' ? what.parent.id : undefined }));
        void navigate(groupHref(g.full_path));
      }
    } catch (e) {
      showServerFieldErrors(form.setError, e, {
        fieldOf: (p) => FIELD_NAMES.find((f) => f === p.split('.')[0]) ?? null,
        title: `The ${what.kind} was not created`,
      });
    }
  };

  const nameField = form.register('name', {
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      if (!pathEdited) form.setValue('path', slugOf(e.target.value), { shouldValidate: form.formState.isSubmitted });
    },
  });
  const pathField = form.register('path', { onChange: () => setPathEdited(true) });

  return (
    <Paper withBorder radius="md" p="lg" maw={720}>
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label={TITLES[what.kind]}>
        <Stack gap="md">
          <div>
            <Title order={2} size="h3">
              {TITLES[what.kind]}
            </Title>
            <Text size="sm" c="dimmed">
              {what.kind === 'group' && 'A top-level group holds subgroups, projects and members of its own.'}
              {what.kind === 'subgroup' && `A group inside ${what.parent.full_name}; its members inherit access from it.`}
              {what.kind === 'project' && `A project in ${what.group.full_name}: a repository with its issues, merge requests and settings.`}
            </Text>
          </div>
          <TextInput label={`${what.kind === 'project' ? 'Project' : 'Group'} name`} withAsterisk data-autofocus autoComplete="off" error={sentence(form.formState.errors.name?.message)} {...nameField} />
          <TextInput
            label="Path"
            description={`Its address: ${parentPath ? `${parentPath}/` : ''}${path || '…'}`}
            withAsterisk
            autoComplete="off"
            leftSection={parentPath ? undefined : null}
            error={sentence(form.formState.errors.path?.message)}
            {...pathField}
          />
          <Textarea label="Description" autosize minRows={2} error={sentence(form.formState.errors.description?.message)} {...form.register('description')} />
          <NativeSelect
            label="Visibility"
            data={Object.entries(VISIBILITY_LABELS).map(([value, label]) => ({ value, label }))}
            error={sentence(form.formState.errors.visibility?.message)}
            {...form.register('visibility')}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => void navigate(-1)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Create {what.kind}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
