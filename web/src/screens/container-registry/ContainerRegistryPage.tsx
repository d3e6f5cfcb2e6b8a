import { Alert, Anchor, Button, Code, CopyButton, Group, List, Paper, Skeleton, Stack, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { useMemo, useState } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { ContainerRepository, ContainerRepositoryTag } from '../../../../shared/src/container-registry.ts';
import type { ProjectSummary } from '../../../../shared/src/projects.ts';
import { useContainerRepositories, useContainerTag, useDeleteContainerTag, useRegistryConnection } from '../../api/container-registry.ts';
import { useCurrentUser } from '../../api/session.ts';
import { CommandBlock } from '../../components/CommandBlock.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { IconAlert } from '../../components/icons.tsx';
import { useListParams } from '../../components/list-params.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { formatCount, formatDate, formatSize, fullDateTime } from '../../format.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { ProtectionRules } from './ProtectionRules.tsx';
import { dockerCommands } from './registry-model.ts';

const FORBIDDEN_TITLE = 'You need the Reporter role to see the container registry';
const FORBIDDEN_HINT = 'Reporters pull the project’s images; Developers push them; Maintainers protect paths.';

/** /projects/<path>/-/container_registry: the images pushed to the registry, how to push, and the protection rules. */
export default function ContainerRegistryPage() {
  const { project } = useProjectContext();
  return (
    <RequireAbility action="read_container_image" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      <ContainerRegistry key={project.id} project={project} />
    </RequireAbility>
  );
}

function ContainerRegistry({ project }: { project: ProjectSummary }) {
  const { role } = useProjectContext();
  const connection = useRegistryConnection(project.id);
  return (
    <Stack gap="xl">
      <div>
        <Title order={2} size="h3">
          Container registry
        </Title>
        <Text c="dimmed" size="sm" maw={680}>
          The project’s images, pushed and pulled with docker. Gatehouse decides who may: Reporters pull, Developers push, Maintainers delete, and protection rules raise that per path.
        </Text>
      </div>
      {!project.container_registry_enabled && (
        <Alert color="orange" variant="light" icon={<IconAlert />} title="The container registry is off for this project">
          Nobody may push or pull its images until a Maintainer turns it on again (the project’s container_registry_enabled setting).
        </Alert>
      )}
      <QueryContent query={connection} what="the registry’s address" errorTitle="Whether a registry is connected could not be checked" forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}>
        {(c) =>
          c.host && c.image_prefix ? (
            <>
              <Commands connection={{ host: c.host, image_prefix: c.image_prefix }} canPush={role.can('create_container_image')} />
              <Images project={project} />
            </>
          ) : (
            <NoRegistry />
          )
        }
      </QueryContent>
      {role.can('admin_container_image') && <ProtectionRules project={project} />}
    </Stack>
  );
}

/** Said when GATEHOUSE_REGISTRY_URL is unset: what an administrator does to connect one. */
function NoRegistry() {
  return (
    <Paper withBorder radius="md" p="lg" role="region" aria-labelledby="no-registry-title">
      <Stack gap="xs">
        <Title order={3} size="h4" id="no-registry-title">
          No container registry is connected
        </Title>
        <Text size="sm">Images cannot be pushed or listed until an administrator connects a registry (CNCF Distribution, such as Debian’s docker-registry) to Gatehouse:</Text>
        <List size="sm" spacing={4}>
          <List.Item>
            start Gatehouse with <Code>GATEHOUSE_REGISTRY_URL</Code> (the registry’s address, shown to users), <Code>GATEHOUSE_REGISTRY_KEY</Code> (the path of the PEM RSA
            private key its tokens are signed with) and <Code>GATEHOUSE_REGISTRY_ISSUER</Code> (the tokens’ issuer);
          </List.Item>
          <List.Item>
            configure the registry’s token authentication with the realm <Code>{`${window.location.origin}/jwt/auth`}</Code>, the service <Code>container_registry</Code>, that issuer,
            and a certificate of that key.
          </List.Item>
        </List>
        <Text size="sm" c="dimmed">
          The README’s “Container registry” section has the registry’s configuration. Maintainers may set protection rules meanwhile: they apply from the first push.
        </Text>
      </Stack>
    </Paper>
  );
}

/** `docker login` and `docker push` for the signed-in user; the access token is for them to paste. */
function Commands({ connection, canPush }: { connection: { host: string; image_prefix: string }; canPush: boolean }) {
  const me = useCurrentUser();
  const commands = dockerCommands(connection, me.username);
  return (
    <Stack gap="sm" component="section" aria-labelledby="registry-commands-title">
      <Title order={3} size="h4" id="registry-commands-title">
        Push and pull with docker
      </Title>
      <Text size="sm" c="dimmed" maw={680}>
        Sign in with a personal access token as the password: <Code>read_registry</Code> to pull{canPush && <>, <Code>write_registry</Code> to push</>}. Create one under{' '}
        <Anchor component={Link} to="/user/access_tokens">
          Access tokens
        </Anchor>
        .
      </Text>
      <CommandBlock id="registry-login" label="Sign in to the registry" command={commands.login} />
      {canPush ? <CommandBlock id="registry-push" label="Push an image" command={commands.push} /> : <CommandBlock id="registry-pull" label="Pull an image" command={commands.pull} />}
    </Stack>
  );
}

/** A tag's row: the tag, and where its image's details are read from. */
type TagRow = ContainerRepositoryTag & { projectId: number; repositoryId: number };

/** What the registry says of a row's image (one request per tag, shared by its cells). */
function TagImageCell({ row, show }: { row: TagRow; show: 'digest' | 'size' | 'created' }) {
  const image = useContainerTag(row.projectId, row.repositoryId, row.name);
  if (image.isPending) return <Skeleton height={14} width={90} aria-label={`Reading tag ${row.name} from the registry`} />;
  if (image.isError)
    return (
      <Text size="xs" c="dimmed">
        {image.error.status === 404 ? 'Deleted since' : 'Could not be read'}
      </Text>
    );
  const d = image.data;
  if (show === 'size') return <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{d.total_size === null ? 'Several platforms' : formatSize(d.total_size)}</Text>;
  if (show === 'created')
    return d.created_at ? (
      <Tooltip label={fullDateTime(d.created_at)}>
        <Text size="sm" component="time" dateTime={d.created_at} tabIndex={0} style={{ whiteSpace: 'nowrap' }}>
          {formatDate(d.created_at)}
        </Text>
      </Tooltip>
    ) : (
      <Text size="sm" c="dimmed">
        Not recorded
      </Text>
    );
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" ff="monospace" title={d.digest} style={{ whiteSpace: 'nowrap' }}>
        {d.digest.replace(/^(sha256:[0-9a-f]{12}).*$/, '$1…')}
      </Text>
      <CopyButton value={d.digest}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="default" onClick={copy} aria-label={`Copy the digest of tag ${row.name}`} style={{ flexShrink: 0 }}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

const tagCol = createColumnHelper<TagRow>();
const tagColumns = [
  tagCol.accessor('name', { header: 'Tag', cell: (i) => <Code style={{ whiteSpace: 'nowrap' }}>{i.getValue()}</Code> }),
  tagCol.accessor('location', {
    header: 'Image',
    cell: (i) => (
      <Group gap="xs" wrap="nowrap">
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {i.getValue()}
        </Text>
        <CopyButton value={i.getValue()}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="default" onClick={copy} aria-label={`Copy ${i.getValue()}`} style={{ flexShrink: 0 }}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    ),
  }),
  tagCol.display({ id: 'digest', header: 'Digest', cell: (i) => <TagImageCell row={i.row.original} show="digest" /> }),
  tagCol.display({ id: 'size', header: 'Size', cell: (i) => <TagImageCell row={i.row.original} show="size" /> }),
  tagCol.display({ id: 'created', header: 'Built', cell: (i) => <TagImageCell row={i.row.original} show="created" /> }),
];
/** The columns with a Delete button, for those who may delete images. */
const deletableTagColumns = (onDelete: (row: TagRow) => void) => [
  ...tagColumns,
  tagCol.display({
    id: 'actions',
    header: () => <VisuallyHidden>Actions</VisuallyHidden>,
    cell: (i) => (
      <Button variant="subtle" color="red" size="compact-sm" onClick={() => onDelete(i.row.original)} aria-label={`Delete tag ${i.row.original.name}`}>
        Delete
      </Button>
    ),
  }),
];

/** The repositories pushed to, each with its tags as the registry holds them. */
function Images({ project }: { project: ProjectSummary }) {
  const list = useListParams();
  const repositories = useContainerRepositories(project.id, { page: list.page });
  return (
    <Stack gap="sm" component="section" aria-labelledby="registry-images-title">
      <Title order={3} size="h4" id="registry-images-title">
        Images
      </Title>
      <QueryContent
        query={repositories}
        what="images"
        forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
        empty={(data) =>
          data.items.length === 0 && (
            <EmptyState title="No images yet">A repository appears here after its first push; the commands above push one.</EmptyState>
          )
        }
      >
        {(data) => (
          <Stack gap="md">
            {data.items.map((r) => (
              <RepositoryCard key={r.id} repository={r} busy={repositories.isFetching} />
            ))}
          </Stack>
        )}
      </QueryContent>
      <TablePager info={repositories.data?.page} shown={repositories.data?.items.length ?? 0} what={(n) => (n === 1 ? 'repository' : 'repositories')} onPage={list.setPage} />
    </Stack>
  );
}

/** Tags shown before "Show all": each reads its image from the registry. */
const FIRST_TAGS = 20;

function RepositoryCard({ repository, busy }: { repository: ContainerRepository; busy: boolean }) {
  const { role } = useProjectContext();
  const [all, setAll] = useState(false);
  const [deleting, setDeleting] = useState<TagRow | null>(null);
  const remove = useDeleteContainerTag(repository.project_id, { meta: { errorTitle: 'The tag was not deleted' } });
  const canDelete = role.can('destroy_container_image');
  const columns = useMemo(() => (canDelete ? deletableTagColumns(setDeleting) : tagColumns), [canDelete]);
  const tags = repository.tags ?? [];
  const rows = (all ? tags : tags.slice(0, FIRST_TAGS)).map((t) => ({ ...t, projectId: repository.project_id, repositoryId: repository.id }));
  const titleId = `repository-${repository.id}`;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" align="baseline" mb="xs">
        <Title order={4} size="h5" ff="monospace" id={titleId}>
          {repository.path}
        </Title>
        <Text size="sm" c="dimmed">
          {formatCount(tags.length, 'tag', 'tags')} · first pushed {formatDate(repository.created_at)}
        </Text>
      </Group>
      {tags.length ? (
        <Stack gap="xs">
          <DataTable label={`Tags of ${repository.path}`} items={rows} columns={columns} getRowId={(t) => t.name} busy={busy} />
          {rows.length < tags.length && (
            <Group>
              <Button variant="subtle" size="compact-sm" onClick={() => setAll(true)}>
                Show all {formatCount(tags.length, 'tag', 'tags')}
              </Button>
            </Group>
          )}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          The registry holds no tag of it now (every tag was deleted).
        </Text>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? `Delete tag ${deleting.name}?` : ''}
        confirmLabel="Delete tag"
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(
            { repositoryId: repository.id, tag: deleting.name },
            {
              onSuccess: () => {
                notifySuccess('Tag deleted', `${deleting.path} is gone from the registry.`);
                setDeleting(null);
              },
            },
          )
        }
        onClose={() => setDeleting(null)}
      >
        The registry deletes the image the tag names, and with it every other tag of the same image. Anyone pulling {deleting?.location} gets an error from then on.
      </ConfirmDialog>
    </Paper>
  );
}
