import { lazy, Suspense } from 'react';
import { Badge, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import type { MergeRequest } from '../../../../shared/src/merge-requests.ts';
import { useMergeRequest } from '../../api/merge-requests.ts';
import { IconArrowLeft } from '../../components/icons.tsx';
import { RoleForbidden } from '../../components/ResourcePage.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { fromNow } from '../../format.ts';
import { mergeRequestHref, projectHref } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { LoadingState, NotFoundState, QueryContent } from '../../components/states.tsx';
import { Branches, FORBIDDEN_HINT, FORBIDDEN_TITLE, MrStateBadge } from './state.tsx';

// Each tab's code loads with the tab: the changes need no Markdown renderer nor comment form (45 KB compressed).
const NotesThread = lazy(() => import('../notes/NotesThread.tsx').then((m) => ({ default: m.NotesThread })));
const MergeRequestOverview = lazy(() => import('./MergeRequestOverview.tsx').then((m) => ({ default: m.MergeRequestOverview })));
const MergeRequestCommits = lazy(() => import('./MergeRequestCommits.tsx').then((m) => ({ default: m.MergeRequestCommits })));
const MergeRequestChanges = lazy(() => import('./MergeRequestChanges.tsx').then((m) => ({ default: m.MergeRequestChanges })));

/** The tabs of a merge request's page and the address of each after `…/merge_requests/<iid>` (the platform's own). */
export const MR_TABS = [
  { slug: '', label: 'Overview' },
  { slug: 'commits', label: 'Commits' },
  { slug: 'diffs', label: 'Changes' },
] as const;
export type MrTab = (typeof MR_TABS)[number]['slug'];

/** …/-/merge_requests/<iid>[/commits|/diffs]: one merge request on one of its tabs. */
export function MergeRequestDetail({ iid, tab }: { iid: number; tab: MrTab }) {
  const { project } = useProjectContext();
  const mr = useMergeRequest(project.id, iid);
  const listHref = projectHref(project.path_with_namespace, 'merge_requests');
  usePageTitle(mr.data ? `${mr.data.title} (!${iid}) · ${project.name_with_namespace}` : `Merge request !${iid} · ${project.name_with_namespace}`);
  return (
    <QueryContent
      query={mr}
      what="the merge request"
      notFound={
        <NotFoundState title="Merge request not found" action={<Button component={Link} to={listHref} variant="default">All merge requests</Button>}>
          There is no merge request !{iid} in {project.name_with_namespace}.
        </NotFoundState>
      }
      forbidden={<RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />}
    >
      {(m) => <MergeRequestPage mr={m} tab={tab} listHref={listHref} />}
    </QueryContent>
  );
}

function MergeRequestPage({ mr, tab, listHref }: { mr: MergeRequest; tab: MrTab; listHref: string }) {
  const { project, role } = useProjectContext();
  const canComment = role.can('create_note');
  const navigate = useNavigate();
  const href = (slug: string) => mergeRequestHref(project.path_with_namespace, mr.iid, slug);
  return (
    <Stack gap="md">
      <Button component={Link} to={listHref} variant="subtle" leftSection={<IconArrowLeft size={16} />} px={0} w="fit-content">
        Merge requests
      </Button>
      <Stack gap={6}>
        <Group gap="sm" align="center">
          <MrStateBadge state={mr.state} size="lg" />
          {mr.draft && (
            <Badge color="gray" variant="outline" size="lg" tt="none">
              Draft
            </Badge>
          )}
          <Title order={2} size="h3">
            {mr.title}
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          !{mr.iid} · opened {fromNow(mr.created_at)} by {mr.author.name} · <Branches source={mr.source_branch} target={mr.target_branch} />
        </Text>
      </Stack>
      {/* The tab values name the tabs; the overview's address has no slug after the number. */}
      <Tabs value={tab || 'overview'} onChange={(v) => navigate(href(v === 'overview' ? '' : (v ?? '')))} variant="outline">
        <Tabs.List aria-label="Merge request tabs">
          {MR_TABS.map((t) => (
            <Tabs.Tab key={t.label} value={t.slug || 'overview'} {...(t.slug !== tab && { 'aria-controls': undefined })}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={tab || 'overview'} pt="md">
          <Suspense fallback={<LoadingState />}>
            {tab === '' && (
              <MergeRequestOverview
                mr={mr}
                comments={<NotesThread projectId={project.id} noteable="merge_requests" iid={mr.iid} canComment={canComment} canReact={canComment} canDeleteOthers={role.can('admin_project')} />}
              />
            )}
            {tab === 'commits' && <MergeRequestCommits mr={mr} />}
            {tab === 'diffs' && <MergeRequestChanges mr={mr} />}
          </Suspense>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
