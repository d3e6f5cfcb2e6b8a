import { useMemo } from 'react';
import { Anchor, Badge, Button, Group, NativeSelect, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { MergeRequestBasic } from '../../../../shared/src/merge-requests.ts';
import { useMergeRequests, type MergeRequestOwner } from '../../api/merge-requests.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { IconSearch } from '../../components/icons.tsx';
import { useListParams, useSearchBox, type ParamChanges } from '../../components/list-params.ts';
import { RoleForbidden } from '../../components/ResourcePage.tsx';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { fromNow } from '../../format.ts';
import { mergeRequestHref } from '../../paths.ts';
import { ORDERS, STATE_TABS, TEXT_FILTERS, orderChange, projectPathOf, readListQuery, type StateTab } from './mr-model.ts';
import { Branches, FORBIDDEN_HINT, FORBIDDEN_TITLE, MrStateBadge, RowPipeline } from './state.tsx';

const col = createColumnHelper<MergeRequestBasic>();

const EMPTY_WORDS: Record<StateTab, string> = { opened: 'No open merge requests', merged: 'No merged merge requests', closed: 'No closed merge requests', all: 'No merge requests yet' };

/** A text filter bound to its URL parameter: the URL follows after a pause in typing. */
function useFilterBox(name: (typeof TEXT_FILTERS)[number], value: string, update: (changes: ParamChanges, opts?: { replace?: boolean }) => void) {
  return useSearchBox(value, (changes, opts) => update({ [name]: changes.search ?? null }, opts));
}

/**
 * The merge requests of a project, or of every project of a group (`owner`): state tabs, the
 * platform's filters and order in the URL, a page at a time. `projectPath` is the project's, for
 * links; a group's rows link through each one's own project.
 */
export function MergeRequestsList({ owner, projectPath, name }: { owner: MergeRequestOwner; projectPath?: string; name: string }) {
  const list = useListParams();
  const { query, state, order, filtered } = readListQuery(list.get, list.page);
  const mrs = useMergeRequests(owner, query);
  const search = useFilterBox('search', query.search ?? '', list.update);
  const author = useFilterBox('author_username', query.author_username ?? '', list.update);
  const target = useFilterBox('target_branch', query.target_branch ?? '', list.update);
  const labels = useFilterBox('labels', query.labels ?? '', list.update);
  const inGroup = owner.scope === 'groups';

  const columns = useMemo(
    () => [
      col.accessor('title', {
        header: 'Merge request',
        meta: { sortKey: 'title' },
        cell: ({ row }) => {
          const m = row.original;
          const path = projectPath ?? projectPathOf(m.references.full);
          return (
            <Stack gap={4}>
              <Anchor component={Link} to={mergeRequestHref(path, m.iid)} size="sm" fw={600}>
                {m.title}
              </Anchor>
              <Group gap={6}>
                {m.state !== 'opened' && <MrStateBadge state={m.state} />}
                <Text size="xs" c="dimmed">
                  {inGroup ? m.references.full : `!${m.iid}`}
                </Text>
                {m.draft && (
                  <Badge size="xs" color="gray" variant="outline" tt="none">
                    Draft
                  </Badge>
                )}
                {m.labels.map((l) => (
                  <Badge key={l} size="xs" variant="light" color="indigo" tt="none">
                    {l}
                  </Badge>
                ))}
              </Group>
            </Stack>
          );
        },
      }),
      col.display({ id: 'branches', header: 'Branches', cell: ({ row }) => <Branches source={row.original.source_branch} target={row.original.target_branch} /> }),
      col.accessor((m) => m.author.name, { id: 'author', header: 'Author', meta: { hideNarrow: true, width: 130 } }),
      col.display({ id: 'pipeline', header: 'Pipeline', meta: { width: 130 }, cell: ({ row }) => <RowPipeline projectId={row.original.project_id} branch={row.original.source_branch} sha={row.original.sha} /> }),
      col.accessor('updated_at', { header: 'Updated', meta: { sortKey: 'updated_at' }, cell: (i) => <Text size="sm" title={i.getValue()}>{fromNow(i.getValue())}</Text> }),
    ],
    [projectPath, inGroup],
  );

  const clear: ParamChanges = Object.fromEntries(TEXT_FILTERS.map((k) => [k, null]));
  const items = mrs.data?.items ?? [];
  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          Merge requests
        </Title>
        <Text c="dimmed" size="sm" maw={680}>
          Changes proposed from one branch into another{inGroup ? ` in the projects of ${name}` : ''}: review their commits and changes, and merge them once their pipeline passes.
        </Text>
      </div>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput label="Search" placeholder="Title or description" leftSection={<IconSearch size={16} />} value={search.value} onChange={search.onChange} w={240} autoComplete="off" />
        <TextInput label="Author" placeholder="Username" value={author.value} onChange={author.onChange} w={160} autoComplete="off" />
        <TextInput label="Target branch" placeholder="Any branch" value={target.value} onChange={target.onChange} w={160} autoComplete="off" />
        <TextInput label="Labels" placeholder="bug, feature" value={labels.value} onChange={labels.onChange} w={160} autoComplete="off" />
        <NativeSelect label="Sort by" value={order} onChange={(e) => list.update(orderChange(e.currentTarget.value))} data={ORDERS.map((o) => ({ value: o.value, label: o.label }))} />
        {filtered && (
          <Button variant="subtle" onClick={() => list.update(clear)}>
            Clear filters
          </Button>
        )}
      </Group>
      <Tabs value={state} onChange={(v) => list.update({ state: v === 'opened' ? null : v })} variant="outline">
        <Tabs.List aria-label="Merge request state">
          {STATE_TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value} {...(t.value !== state && { 'aria-controls': undefined })}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={state} pt="md">
          <QueryContent
            query={mrs}
            what="merge requests"
            forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
            empty={(data) =>
              data.items.length === 0 &&
              (filtered ? (
                <EmptyState title="No merge request matches these filters" action={<Button variant="default" onClick={() => list.update(clear)}>Clear filters</Button>} />
              ) : (
                <EmptyState title={EMPTY_WORDS[state]}>
                  A merge request proposes the commits of one branch for another. Open one with <Text span ff="monospace" inherit>POST /projects/:id/merge_requests</Text>, or with
                  your Git client’s tooling.
                </EmptyState>
              ))
            }
          >
            {(data) => (
              <DataTable
                label={`${STATE_TABS.find((t) => t.value === state)!.label} merge requests`}
                items={data.items}
                columns={columns}
                getRowId={(m) => String(m.id)}
                busy={mrs.isFetching && mrs.isPlaceholderData}
                sort={{ key: query.order_by ?? 'created_at', dir: query.sort ?? 'desc' }}
                onSort={(s) => list.update(orderChange(`${s.key}_${s.dir}`))}
                minWidth={700}
              />
            )}
          </QueryContent>
        </Tabs.Panel>
      </Tabs>
      <TablePager info={mrs.data?.page} shown={items.length} what={(n) => (n === 1 ? 'merge request' : 'merge requests')} onPage={list.setPage} />
    </Stack>
  );
}
