import { useMemo, useState } from 'react';
import { ActionIcon, Alert, Anchor, Button, Code, Group, Menu, Paper, Stack, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link, useNavigate, useParams } from 'react-router';
import type { GroupDetail } from '../../../../shared/src/groups.ts';
import type { RegistryCacheSummary, VirtualRegistry, VirtualRegistryUpstreamInRegistry } from '../../../../shared/src/virtual-registries.ts';
import { useCurrentUser } from '../../api/session.ts';
import {
  useDeleteRegistry,
  useDeleteUpstream,
  useMoveUpstream,
  usePurgeRegistryCache,
  useRegistryCache,
  useRegistryUpstreams,
  useTestUpstream,
  useVirtualRegistries,
  useVirtualRegistry,
} from '../../api/virtual-registries.ts';
import { CommandBlock } from '../../components/CommandBlock.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { IconAlert, IconArrowLeft, IconChevronDown, IconChevronUp, IconDots, IconPencil, IconPlus, IconTrash } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, NotFoundState, QueryContent } from '../../components/states.tsx';
import { formatCount, formatDate, formatSize } from '../../format.ts';
import { groupHref, sectionRest } from '../../paths.ts';
import { useGroupContext } from '../groups/group-context.ts';
import { RegistryDialog } from './RegistryDialog.tsx';
import { UpstreamDialog } from './UpstreamDialog.tsx';
import { connectionVerdict, mavenSettings, pullThroughUrl, validityText, type ConnectionVerdict } from './registry-model.ts';

const FORBIDDEN_TITLE = 'You need a role in the group to see its virtual registries';
const FORBIDDEN_HINT = 'Members of the group (Guest and up) read its virtual registries and resolve through them; Maintainers manage them.';
const SLUG = 'virtual_registries';

/** /groups/<full path>/-/virtual_registries[/<registry id>]: a top-level group's Maven virtual registries. */
export default function VirtualRegistriesPage() {
  const { group } = useGroupContext();
  return (
    <RequireAbility action="read_virtual_registry" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      {group.parent_id === null ? <RegistriesSection key={group.id} group={group} /> : <TopLevelOnly group={group} />}
    </RequireAbility>
  );
}

function Intro() {
  return (
    <div>
      <Title order={2} size="h3">
        Virtual registries
      </Title>
      <Text c="dimmed" size="sm" maw={680}>
        Maven resolves its dependencies through a virtual registry: Gatehouse asks the registry’s upstream repositories in their order, with the credentials it keeps for them,
        and caches what they serve, so builds keep working when an upstream is down.
      </Text>
    </div>
  );
}

/** Registries belong to the top-level group: a subgroup says so and links there. */
function TopLevelOnly({ group }: { group: GroupDetail }) {
  const topPath = group.full_path.split('/')[0]!;
  const topName = group.full_name.split(' / ')[0];
  return (
    <Stack gap="md">
      <Intro />
      <Alert color="blue" variant="light" icon={<IconAlert />} title="Virtual registries belong to the top-level group">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">
            {group.full_name} is a subgroup. Its members resolve through the registries of {topName}, the top-level group it belongs to, where they are created and managed.
          </Text>
          <Button component={Link} to={groupHref(topPath, SLUG)} variant="white" size="xs">
            Virtual registries of {topName}
          </Button>
        </Stack>
      </Alert>
    </Stack>
  );
}

function RegistriesSection({ group }: { group: GroupDetail }) {
  const { '*': splat = '' } = useParams();
  const [first] = sectionRest(splat);
  if (first === undefined) return <RegistryList group={group} />;
  if (!/^\d{1,10}$/.test(first)) return <NoSuchRegistry group={group} what={first} />;
  return <RegistryDetail key={first} group={group} registryId={Number(first)} />;
}

function NoSuchRegistry({ group, what }: { group: GroupDetail; what: string }) {
  return (
    <NotFoundState
      title="Registry not found"
      action={
        <Button component={Link} to={groupHref(group.full_path, SLUG)} variant="default">
          All virtual registries
        </Button>
      }
    >
      There is no virtual registry “{what}” in {group.full_name}, or you are not allowed to see it.
    </NotFoundState>
  );
}

const registryCol = createColumnHelper<VirtualRegistry>();

function RegistryList({ group }: { group: GroupDetail }) {
  const { role } = useGroupContext();
  const canManage = role.can('admin_virtual_registry');
  const navigate = useNavigate();
  const registries = useVirtualRegistries(group.id);
  const [editing, setEditing] = useState<VirtualRegistry | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<VirtualRegistry | null>(null);
  const remove = useDeleteRegistry(group.id, { meta: { errorTitle: 'The registry was not deleted' } });
  const columns = useMemo(
    () => [
      registryCol.accessor('name', {
        header: 'Name',
        cell: (i) => (
          <Anchor component={Link} to={groupHref(group.full_path, `${SLUG}/${i.row.original.id}`)} size="sm" fw={500}>
            {i.getValue()}
          </Anchor>
        ),
      }),
      registryCol.accessor('description', {
        header: 'Description',
        cell: (i) => (
          <Text size="sm" c={i.getValue() ? undefined : 'dimmed'}>
            {i.getValue() || 'No description'}
          </Text>
        ),
        meta: { hideNarrow: true },
      }),
      registryCol.accessor('created_at', { header: 'Created', cell: (i) => <Text size="sm">{formatDate(i.getValue())}</Text>, meta: { hideNarrow: true } }),
      ...(canManage
        ? [
            registryCol.display({
              id: 'actions',
              header: () => <span className="gh-visually-hidden">Actions</span>,
              cell: ({ row }) => (
                <Group gap={6} wrap="nowrap" justify="flex-end">
                  <Button size="compact-sm" variant="default" onClick={() => setEditing(row.original)} aria-label={`Edit ${row.original.name}`}>
                    Edit
                  </Button>
                  <Button size="compact-sm" variant="light" color="red" onClick={() => setDeleting(row.original)} aria-label={`Delete ${row.original.name}`}>
                    Delete
                  </Button>
                </Group>
              ),
            }),
          ]
        : []),
    ],
    [group.full_path, canManage],
  );
  const newButton = canManage && (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
      New registry
    </Button>
  );
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Intro />
        {(registries.data?.length ?? 0) > 0 && newButton}
      </Group>
      <QueryContent
        query={registries}
        what="virtual registries"
        forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
        empty={(data) =>
          data.length === 0 && (
            <EmptyState title="No virtual registries yet" action={newButton || undefined}>
              {canManage
                ? 'Create one, add the Maven repositories it pulls from, then point Maven at it.'
                : 'A Maintainer of the group creates them; until then Maven cannot resolve through Gatehouse here.'}
            </EmptyState>
          )
        }
      >
        {(data) => <DataTable label="Virtual registries" items={data} columns={columns} getRowId={(r) => String(r.id)} busy={registries.isFetching} minWidth={360} />}
      </QueryContent>
      <RegistryDialog
        groupId={group.id}
        registry={editing}
        opened={creating || editing !== null}
        onClose={() => (setCreating(false), setEditing(null))}
        onCreated={(r) => navigate(groupHref(group.full_path, `${SLUG}/${r.id}`))}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? `Delete the registry ${deleting.name}?` : ''}
        confirmLabel="Delete registry"
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifySuccess('Registry deleted', `${deleting.name} is gone, with its upstreams no other registry uses and their cache.`);
              setDeleting(null);
            },
          })
        }
        onClose={() => setDeleting(null)}
      >
        Maven builds pointed at it stop resolving. Its upstreams that no other registry uses are deleted too, with their cached files.
      </ConfirmDialog>
    </Stack>
  );
}

function RegistryDetail({ group, registryId }: { group: GroupDetail; registryId: number }) {
  const { role } = useGroupContext();
  const canManage = role.can('admin_virtual_registry');
  const navigate = useNavigate();
  const registry = useVirtualRegistry(registryId);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteRegistry(group.id, { meta: { errorTitle: 'The registry was not deleted' } });
  const listHref = groupHref(group.full_path, SLUG);
  return (
    <Stack gap="xl">
      <Anchor component={Link} to={listHref} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} /> All virtual registries
        </Group>
      </Anchor>
      <QueryContent query={registry} what="the registry" notFound={<NoSuchRegistry group={group} what={String(registryId)} />} forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}>
        {(r) =>
          r.group_id !== group.id ? (
            <NoSuchRegistry group={group} what={String(registryId)} />
          ) : (
            <>
              <Group justify="space-between" align="flex-start">
                <div>
                  <Title order={2} size="h3">
                    {r.name}
                  </Title>
                  <Text c="dimmed" size="sm" maw={680}>
                    {r.description || 'A Maven virtual registry of this group.'}
                  </Text>
                </div>
                {canManage && (
                  <Group gap="xs">
                    <Button variant="default" onClick={() => setEditing(true)}>
                      Edit registry
                    </Button>
                    <Button variant="light" color="red" onClick={() => setDeleting(true)}>
                      Delete registry
                    </Button>
                  </Group>
                )}
              </Group>
              <Upstreams group={group} registry={r} canManage={canManage} />
              <MavenSettings registry={r} />
              <RegistryDialog groupId={group.id} registry={r} opened={editing} onClose={() => setEditing(false)} />
              <ConfirmDialog
                opened={deleting}
                title={`Delete the registry ${r.name}?`}
                confirmLabel="Delete registry"
                loading={remove.isPending}
                onConfirm={() =>
                  remove.mutate(r.id, {
                    onSuccess: () => {
                      notifySuccess('Registry deleted', `${r.name} is gone, with its upstreams no other registry uses and their cache.`);
                      setDeleting(false);
                      navigate(listHref);
                    },
                  })
                }
                onClose={() => setDeleting(false)}
              >
                Maven builds pointed at it stop resolving. Its upstreams that no other registry uses are deleted too, with their cached files.
              </ConfirmDialog>
            </>
          )
        }
      </QueryContent>
    </Stack>
  );
}

type Row = VirtualRegistryUpstreamInRegistry & { cached?: { entries: number; bytes: number } };
const upstreamCol = createColumnHelper<Row>();

function Upstreams({ group, registry, canManage }: { group: GroupDetail; registry: VirtualRegistry; canManage: boolean }) {
  const upstreams = useRegistryUpstreams(registry.id);
  const cache = useRegistryCache(registry.id);
  const move = useMoveUpstream(registry.id, { meta: { errorTitle: 'The order was not changed' } });
  const test = useTestUpstream({ meta: { errorTitle: 'The connection was not tested' } });
  const remove = useDeleteUpstream(registry.id, { meta: { errorTitle: 'The upstream was not deleted' } });
  const purge = usePurgeRegistryCache(registry.id, { meta: { errorTitle: 'The cache was not purged' } });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<VirtualRegistryUpstreamInRegistry | null>(null);
  const [deleting, setDeleting] = useState<VirtualRegistryUpstreamInRegistry | null>(null);
  const [purging, setPurging] = useState(false);
  const [verdicts, setVerdicts] = useState<Record<number, ConnectionVerdict>>({});
  const [testing, setTesting] = useState<number | null>(null);

  const runTest = (u: VirtualRegistryUpstreamInRegistry) => {
    setTesting(u.id);
    test.mutate(u.id, {
      onSuccess: (result) => setVerdicts((v) => ({ ...v, [u.id]: connectionVerdict(u.name, result, u.username !== null) })),
      onSettled: () => setTesting(null),
    });
  };
  const moveTo = (u: VirtualRegistryUpstreamInRegistry, position: number) =>
    move.mutate({ linkId: u.registry_upstream.id, position }, { onSuccess: (moved) => notifySuccess('Order changed', `${u.name} is now number ${moved.position}: Maven’s requests reach it in that place.`) });

  const rows: Row[] = useMemo(() => {
    const by = new Map((cache.data?.upstreams ?? []).map((c) => [c.upstream_id, c]));
    return (upstreams.data ?? []).map((u) => ({ ...u, cached: by.get(u.id) }));
  }, [upstreams.data, cache.data]);
  const last = rows.length;

  const columns = useMemo(
    () => [
      upstreamCol.display({
        id: 'position',
        header: 'Order',
        cell: ({ row }) => {
          const u = row.original;
          const at = u.registry_upstream.position;
          return (
            <Group gap={4} wrap="nowrap">
              <Text size="sm" fw={600} w={20} ta="right">
                {at}
              </Text>
              {canManage && (
                <>
                  <ActionIcon variant="default" size="sm" aria-label={`Move ${u.name} up`} disabled={at <= 1 || move.isPending} onClick={() => moveTo(u, at - 1)}>
                    <IconChevronUp size={14} />
                  </ActionIcon>
                  <ActionIcon variant="default" size="sm" aria-label={`Move ${u.name} down`} disabled={at >= last || move.isPending} onClick={() => moveTo(u, at + 1)}>
                    <IconChevronDown size={14} />
                  </ActionIcon>
                </>
              )}
            </Group>
          );
        },
      }),
      upstreamCol.accessor('name', {
        header: 'Upstream',
        cell: ({ row }) => (
          <Stack gap={2}>
            <Text size="sm" fw={500}>
              {row.original.name}
            </Text>
            <Text size="xs" ff="monospace" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {row.original.url}
            </Text>
          </Stack>
        ),
      }),
      upstreamCol.accessor('username', {
        header: 'Signs in',
        cell: (i) => (i.getValue() ? <Text size="sm">as {i.getValue()}</Text> : <Text size="sm" c="dimmed">Anonymously</Text>),
        meta: { hideNarrow: true },
      }),
      upstreamCol.display({ id: 'validity', header: 'Cache validity', cell: ({ row }) => <Text size="sm">{validityText(row.original)}</Text>, meta: { hideNarrow: true } }),
      upstreamCol.display({
        id: 'cached',
        header: 'Cached',
        cell: ({ row }) => {
          const c = row.original.cached;
          return c ? <Text size="sm">{c.entries ? `${formatCount(c.entries, 'file', 'files')} · ${formatSize(c.bytes)}` : 'Empty'}</Text> : <Text size="sm" c="dimmed">—</Text>;
        },
      }),
      upstreamCol.display({
        id: 'actions',
        header: () => <span className="gh-visually-hidden">Actions</span>,
        cell: ({ row }) => {
          const u = row.original;
          return (
            <Group gap={6} wrap="nowrap" justify="flex-end">
              <Button size="compact-sm" variant="default" onClick={() => runTest(u)} loading={testing === u.id} aria-label={`Test the connection to ${u.name}`}>
                Test
              </Button>
              {canManage && (
                // Edit and delete in a menu: the pinned column stays narrow enough for a phone to show the names beside it.
                <Menu position="bottom-end" shadow="md" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="default" size={26} aria-label={`More actions for ${u.name}`}>
                      <IconDots size={16} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => setEditing(u)}>
                      Edit {u.name}
                    </Menu.Item>
                    <Menu.Item leftSection={<IconTrash size={14} />} color="red" onClick={() => setDeleting(u)}>
                      Delete {u.name}
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              )}
            </Group>
          );
        },
      }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- moveTo and runTest only call the mutations and state setters
    [canManage, last, move.isPending, testing],
  );

  const addButton = canManage && (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
      Add upstream
    </Button>
  );
  const tested = rows.filter((u) => verdicts[u.id]);
  return (
    <>
      <Stack gap="sm" component="section" aria-labelledby="upstreams-title">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={3} size="h4" id="upstreams-title">
              Upstreams, in the order Maven’s requests try them
            </Title>
            <Text c="dimmed" size="sm" maw={680}>
              For each file, the first upstream that has it serves it; Gatehouse keeps a copy and serves that until the upstream’s cache validity runs out.
            </Text>
          </div>
          {(upstreams.data?.length ?? 0) > 0 && addButton}
        </Group>
        <QueryContent
          query={upstreams}
          what="upstreams"
          empty={(data) =>
            data.length === 0 && (
              <EmptyState title="No upstreams yet" action={addButton || undefined}>
                Maven’s requests through this registry find nothing until it has an upstream, such as https://repo.maven.apache.org/maven2.
              </EmptyState>
            )
          }
        >
          {() => <DataTable label={`Upstreams of ${registry.name}`} items={rows} columns={columns} getRowId={(u) => String(u.id)} busy={move.isPending} minWidth={420} />}
        </QueryContent>
        {tested.length > 0 && (
          <Stack gap="xs" aria-live="polite">
            {tested.map((u) => {
              const v = verdicts[u.id]!;
              return (
                <Alert key={u.id} color={v.ok ? 'teal' : 'red'} variant="light" role="status" title={`${u.name}: ${v.ok ? 'connection works' : 'connection failed'}`}>
                  <Text size="sm">{v.text}</Text>
                  {v.detail && (
                    <Text size="xs" c="dimmed" mt={4}>
                      The server said: {v.detail}
                    </Text>
                  )}
                </Alert>
              );
            })}
          </Stack>
        )}
      </Stack>
      <CacheSection cache={cache} canManage={canManage} onPurge={() => setPurging(true)} />
      <UpstreamDialog groupId={group.id} registryId={registry.id} upstream={editing} opened={adding || editing !== null} onClose={() => (setAdding(false), setEditing(null))} />
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? `Delete the upstream ${deleting.name}?` : ''}
        confirmLabel="Delete upstream"
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifySuccess('Upstream deleted', `${deleting.name} is gone, with its cached files; the upstreams after it moved up one place.`);
              setVerdicts((all) => Object.fromEntries(Object.entries(all).filter(([id]) => Number(id) !== deleting.id)));
              setDeleting(null);
            },
          })
        }
        onClose={() => setDeleting(null)}
      >
        Its cached files are deleted with it, and every registry that used it stops asking it. The upstreams after it move up one place.
      </ConfirmDialog>
      <ConfirmDialog
        opened={purging}
        title={`Purge the cache of ${registry.name}?`}
        confirmLabel="Purge cache"
        loading={purge.isPending}
        onConfirm={() =>
          purge.mutate(undefined, {
            onSuccess: () => {
              notifySuccess('Cache purged', 'The next request for each file asks the upstreams again.');
              setPurging(false);
            },
          })
        }
        onClose={() => setPurging(false)}
      >
        Every file cached for the upstreams only this registry uses is deleted; the next request for each asks the upstreams again, and fails if they are down. Upstreams
        another registry shares keep their cache.
      </ConfirmDialog>
    </>
  );
}

function CacheSection({ cache, canManage, onPurge }: { cache: ReturnType<typeof useRegistryCache>; canManage: boolean; onPurge: () => void }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="cache-title">
      <Title order={3} size="h4" id="cache-title">
        Cache
      </Title>
      <QueryContent query={cache} what="the cache">
        {(c: RegistryCacheSummary) => (
          <Paper withBorder radius="md" p="md">
            <Group justify="space-between" align="center">
              <Text size="sm" data-testid="cache-total">
                {c.entries ? `${formatCount(c.entries, 'file', 'files')}, ${formatSize(c.bytes)} in all` : 'Empty: nothing has been fetched through this registry yet.'}
              </Text>
              {canManage && (
                <Button variant="light" color="red" onClick={onPurge}>
                  Purge cache
                </Button>
              )}
            </Group>
          </Paper>
        )}
      </QueryContent>
    </Stack>
  );
}

/** The settings.xml a user pastes: the registry as Maven's mirror, with their name and a token placeholder. */
function MavenSettings({ registry }: { registry: VirtualRegistry }) {
  const me = useCurrentUser();
  const url = pullThroughUrl(window.location.origin, registry.id);
  return (
    <Stack gap="sm" component="section" aria-labelledby="maven-settings-title">
      <Title order={3} size="h4" id="maven-settings-title">
        Resolve with Maven
      </Title>
      <Text size="sm" c="dimmed" maw={680}>
        Put this in <Code>~/.m2/settings.xml</Code> (or merge the mirror and the server into yours): Maven then asks this registry for every dependency and plugin. Replace the
        placeholder with a personal access token with the <Code>read_api</Code> scope, created under{' '}
        <Anchor component={Link} to="/user/access_tokens">
          Access tokens
        </Anchor>
        .
      </Text>
      <CommandBlock id="maven-settings" label="settings.xml" command={mavenSettings(registry, url, me.username)} wrap={false} />
    </Stack>
  );
}
