import { Alert, Anchor, Badge, Button, Code, CopyButton, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { ContainerRepository, ContainerRepositoryTag } from '../../../../shared/src/container-registry.ts';
import type { ProjectSummary } from '../../../../shared/src/projects.ts';
import { useContainerRepositories, useRegistryConnection } from '../../api/container-registry.ts';
import { useCurrentUser } from '../../api/session.ts';
import { CommandBlock } from '../../components/CommandBlock.tsx';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { useListParams } from '../../components/list-params.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { formatCount, formatDate } from '../../format.ts';
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

const tagCol = createColumnHelper<ContainerRepositoryTag>();
const tagColumns = [
  tagCol.accessor('name', { header: 'Tag', cell: (i) => <Badge variant="light" tt="none">{i.getValue()}</Badge> }),
  tagCol.accessor('location', {
    header: 'Image',
    cell: (i) => (
      <Group gap="xs" wrap="nowrap">
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {i.getValue()}
        </Text>
        <CopyButton value={i.getValue()}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="default" onClick={copy} aria-label={`Copy ${i.getValue()}`}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
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

function RepositoryCard({ repository, busy }: { repository: ContainerRepository; busy: boolean }) {
  const tags = repository.tags ?? [];
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
        <DataTable label={`Tags of ${repository.path}`} items={tags} columns={tagColumns} getRowId={(t) => t.name} busy={busy} />
      ) : (
        <Text size="sm" c="dimmed">
          The registry holds no tag of it now (every tag was deleted).
        </Text>
      )}
    </Paper>
  );
}
