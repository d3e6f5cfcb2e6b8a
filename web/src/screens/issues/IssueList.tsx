import { useMemo, type ReactNode } from 'react';
import { Anchor, Button, Group, MultiSelect, NativeSelect, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { Issue } from '../../../../shared/src/issues.ts';
import { useIssues, useMilestoneChoices, type IssuesOwner } from '../../api/issues.ts';
import { useLabels } from '../../api/labels.ts';
import { DataTable, TablePager } from '../../components/DataTable.tsx';
import { IconSearch } from '../../components/icons.tsx';
import { sortValue, useListParams, useSearchBox } from '../../components/list-params.ts';
import { EmptyState, QueryContent } from '../../components/states.tsx';
import { formatDate, fromNow } from '../../format.ts';
import { issueHrefOf } from '../../paths.ts';
import { AssigneeAvatars, IssueStateBadge, LabelBadges, labelColors } from './issue-parts.tsx';
import { DEFAULT_ISSUE_SORT, ISSUE_SORT_KEYS, ISSUE_SORTS, ISSUE_STATES, isFiltered, issuesQueryOf, labelsParam, readIssueFilters, type IssueSortKey, type IssueState } from './issue-list-params.ts';

/** Whose issues the list shows, as its sentences name them. */
export interface IssuesOf extends IssuesOwner {
  /** "Acme Corp / Website": the project's name with its namespace, or the group's full name. */
  name: string;
}

/** Filters, order and page live in the URL, in the platform's names. */
function useIssueListParams() {
  const list = useListParams({ sortKeys: ISSUE_SORT_KEYS, defaultSort: DEFAULT_ISSUE_SORT });
  const filters = readIssueFilters(list.get);
  const sort = list.sort ?? DEFAULT_ISSUE_SORT;
  return { ...list, filters, sort, query: issuesQueryOf(filters, sort, list.page, list.perPage), filtered: isFiltered(filters) };
}

const col = createColumnHelper<Issue>();

/** How each order reads, descending then ascending. */
const ORDER_WORDS: Record<IssueSortKey, [string, string]> = {
  created: ['newest first', 'oldest first'],
  updated: ['newest first', 'oldest first'],
  due_date: ['latest first', 'soonest first'],
  milestone_due: ['latest first', 'soonest first'],
  title: ['Z to A', 'A to Z'],
  weight: ['heaviest first', 'lightest first'],
  popularity: ['most liked first', 'least liked first'],
};

/** A project's issues, or those of a group's projects: filtered, ordered and paged by the server. */
export function IssueList({ of, action }: { of: IssuesOf; /** What the reader may do beside the heading (a project's "New issue"). */ action?: ReactNode }) {
  const params = useIssueListParams();
  const { filters } = params;
  const issues = useIssues(of, params.query);
  const labels = useLabels(of);
  const milestones = useMilestoneChoices(of);
  const searchBox = useSearchBox(params.search, params.update);
  // The username boxes write the URL after a pause, as the search box does.
  const assigneeBox = useSearchBox(filters.assignee, (c, o) => params.update({ assignee_username: c.search }, o));
  const authorBox = useSearchBox(filters.author, (c, o) => params.update({ author_username: c.search }, o));
  const colors = useMemo(() => labelColors(labels.data), [labels.data]);
  const inGroup = of.scope === 'groups';

  const columns = useMemo(
    () => [
      col.accessor('title', {
        header: 'Issue',
        meta: { sortKey: 'title' },
        cell: ({ row }) => {
          const i = row.original;
          return (
            <Stack gap={4}>
              <Anchor component={Link} to={issueHrefOf(i)} fw={600} size="sm">
                {i.title}
              </Anchor>
              <Text size="xs" c="dimmed">
                {inGroup ? i.references.full : `#${i.iid}`} · opened {fromNow(i.created_at)} by {i.author.name}
                {i.confidential ? ' · confidential' : ''}
              </Text>
              <LabelBadges names={i.labels} colors={colors} />
            </Stack>
          );
        },
      }),
      col.accessor((i) => i.milestone?.title ?? '', { id: 'milestone', header: 'Milestone', meta: { hideNarrow: true }, cell: (c) => c.getValue() || <Text span size="sm" c="dimmed">None</Text> }),
      col.accessor('assignees', { header: 'Assignees', cell: (c) => <AssigneeAvatars people={c.getValue()} /> }),
      col.accessor('updated_at', {
        header: 'Updated',
        meta: { sortKey: 'updated', hideNarrow: true },
        cell: (c) => (
          <Text size="sm" title={formatDate(c.getValue())}>
            {fromNow(c.getValue())}
          </Text>
        ),
      }),
      col.accessor('state', { header: 'State', meta: { width: 90 }, cell: (c) => <IssueStateBadge state={c.getValue()} /> }),
    ],
    [colors, inGroup],
  );

  const items = issues.data?.items ?? [];
  const stateLabel = ISSUE_STATES.find((s) => s.value === filters.state)!.label;
  const clear = () => params.update({ search: null, labels: null, milestone: null, assignee_username: null, author_username: null });
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Title order={2} size="h3">
            Issues
          </Title>
          <Text c="dimmed" size="sm" maw={680}>
            {inGroup ? `The issues of every project in ${of.name} you can see.` : `What ${of.name} tracks: bugs, features and tasks.`} Open one to comment, react, close it or change it.
          </Text>
        </div>
        {action}
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput label="Search" placeholder="Title or description" leftSection={<IconSearch size={16} />} value={searchBox.value} onChange={searchBox.onChange} w={240} />
        <MultiSelect
          label="Labels"
          placeholder={filters.labels.length ? undefined : 'Any label'}
          data={[...new Set([...(labels.data ?? []).map((l) => l.name), ...filters.labels])]}
          value={filters.labels}
          onChange={(names) => params.update({ labels: labelsParam(names) })}
          searchable
          clearable
          w={240}
        />
        <NativeSelect
          label="Milestone"
          value={filters.milestone}
          onChange={(e) => params.update({ milestone: e.currentTarget.value || null })}
          data={[
            { value: '', label: 'Any or none' },
            { value: 'None', label: 'No milestone' },
            { value: 'Any', label: 'Any milestone' },
            ...[...new Set([...(milestones.data ?? []).map((m) => m.title), ...(filters.milestone && !['None', 'Any'].includes(filters.milestone) ? [filters.milestone] : [])])].map((t) => ({ value: t, label: t })),
          ]}
        />
        <TextInput label="Assignee" placeholder="Username" value={assigneeBox.value} onChange={assigneeBox.onChange} w={150} />
        <TextInput label="Author" placeholder="Username" value={authorBox.value} onChange={authorBox.onChange} w={150} />
        <NativeSelect
          label="Sort by"
          value={sortValue(params.sort)}
          onChange={(e) => {
            const [key, dir] = [e.currentTarget.value.replace(/_(asc|desc)$/, ''), e.currentTarget.value.endsWith('_asc') ? 'asc' : 'desc'] as const;
            params.setSort({ key, dir });
          }}
          data={ISSUE_SORT_KEYS.flatMap((k) => [
            { value: `${k}_desc`, label: `${ISSUE_SORTS[k].label}, ${ORDER_WORDS[k][0]}` },
            { value: `${k}_asc`, label: `${ISSUE_SORTS[k].label}, ${ORDER_WORDS[k][1]}` },
          ])}
        />
        {params.filtered && (
          <Button variant="subtle" onClick={clear}>
            Clear filters
          </Button>
        )}
      </Group>
      <Tabs value={filters.state} onChange={(v) => params.update({ state: v === 'opened' ? null : v })} variant="outline">
        <Tabs.List aria-label="Issue state">
          {ISSUE_STATES.map((s) => (
            <Tabs.Tab key={s.value} value={s.value} {...(s.value !== filters.state && { 'aria-controls': undefined })}>
              {s.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={filters.state} pt="md">
          <QueryContent
            query={issues}
            what="issues"
            empty={(data) =>
              data.items.length === 0 &&
              (params.filtered ? (
                <EmptyState title="No issue matches these filters" action={<Button variant="default" onClick={clear}>Clear filters</Button>} />
              ) : (
                <EmptyState title={emptyTitle(filters.state)}>{action ? 'Open one with “New issue”, or through the API (POST /projects/:id/issues) and the platform’s clients.' : 'Issues are opened through the API (POST /projects/:id/issues) or by the platform’s clients; they show up here.'}</EmptyState>
              ))
            }
          >
            {(data) => (
              <DataTable label={`${stateLabel} issues`} items={data.items} columns={columns} getRowId={(i) => String(i.id)} busy={issues.isFetching && issues.isPlaceholderData} sort={params.sort} onSort={params.setSort} minWidth={760} />
            )}
          </QueryContent>
        </Tabs.Panel>
      </Tabs>
      <TablePager info={issues.data?.page} shown={items.length} what={(n) => (n === 1 ? 'issue' : 'issues')} onPage={params.setPage} />
    </Stack>
  );
}

const emptyTitle = (state: IssueState) => (state === 'opened' ? 'No open issues' : state === 'closed' ? 'No closed issues' : 'No issues yet');
