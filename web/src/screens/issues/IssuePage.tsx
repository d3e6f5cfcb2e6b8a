import { useMemo, useState } from 'react';
import { Anchor, Badge, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Issue as IssueEntity } from '../../../../shared/src/issues.ts';
import { useIssue, useUpdateIssue } from '../../api/issues.ts';
import { useLabels } from '../../api/labels.ts';
import { useCurrentUser } from '../../api/session.ts';
import { Fact } from '../../components/Fact.tsx';
import { IconArrowLeft, IconPencil } from '../../components/icons.tsx';
import { Markdown } from '../../components/Markdown.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { NotFoundState, QueryContent } from '../../components/states.tsx';
import { formatDate, fromNow, fullDateTimeToMinute } from '../../format.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { projectHref } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { NotesThread } from '../notes/NotesThread.tsx';
import { Reactions } from '../notes/Reactions.tsx';
import { IssueEditDialog } from './IssueEditDialog.tsx';
import { IssueStateBadge, LabelBadges, labelColors, PeopleList } from './issue-parts.tsx';
import { milestoneHrefOf } from './issue-model.ts';
import { RelatedIssues } from './RelatedIssues.tsx';
import { StateHistory } from './StateHistory.tsx';

/** …/-/issues/<iid>: one issue, its description, links, history and comments; the moves its reader may make. */
export function IssuePage({ iid }: { iid: number }) {
  const { project } = useProjectContext();
  const found = useIssue(project.id, iid);
  const listHref = projectHref(project.path_with_namespace, 'issues');
  usePageTitle(found.data ? `${found.data.title} (#${iid}) · ${project.name_with_namespace}` : `Issue #${iid} · ${project.name_with_namespace}`);
  return (
    <QueryContent
      query={found}
      what="the issue"
      notFound={
        <NotFoundState
          title="Issue not found"
          action={
            <Button component={Link} to={listHref} variant="default">
              All issues
            </Button>
          }
        >
          {project.name_with_namespace} has no issue #{iid}, or you are not allowed to see it.
        </NotFoundState>
      }
    >
      {(issue) => <Issue issue={issue} listHref={listHref} />}
    </QueryContent>
  );
}

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={fullDateTimeToMinute(iso)}>
      {fromNow(iso)}
    </time>
  );
}

function Issue({ issue, listHref }: { issue: IssueEntity; listHref: string }) {
  const { project, role } = useProjectContext();
  const me = useCurrentUser();
  // Reporters and up triage anyone's issue; the author edits, closes and reopens their own (the API's rule).
  const canTriage = role.can('admin_issue');
  const canEdit = canTriage || (role.can('create_issue') && issue.author.id === me.id);
  const canComment = role.can('create_note');
  const [editing, setEditing] = useState(false);
  const move = useUpdateIssue(project.id, issue.iid, { meta: { errorTitle: 'The issue’s state was not changed' } });
  const labels = useLabels({ scope: 'projects', id: project.id });
  const colors = useMemo(() => labelColors(labels.data), [labels.data]);
  const open = issue.state === 'opened';
  const toggle = () => move.mutate({ state_event: open ? 'close' : 'reopen' }, { onSuccess: () => notifySuccess(open ? 'Issue closed' : 'Issue reopened', `“${issue.title}” is ${open ? 'closed' : 'open again'}.`) });
  const milestoneHref = issue.milestone ? milestoneHrefOf(issue.milestone, project.path_with_namespace) : null;
  const noteable = { projectId: project.id, noteable: 'issues' as const, iid: issue.iid };

  return (
    <Stack gap="md">
      <Button component={Link} to={listHref} variant="subtle" leftSection={<IconArrowLeft size={16} />} px={0} w="fit-content">
        All issues
      </Button>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="sm" align="center">
            <IssueStateBadge state={issue.state} size="lg" />
            {issue.confidential && (
              <Badge size="lg" variant="light" color="orange">
                Confidential
              </Badge>
            )}
            <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
              {issue.title}
            </Title>
          </Group>
          <Text size="sm" c="dimmed">
            #{issue.iid} · opened <When iso={issue.created_at} /> by {issue.author.name} (@{issue.author.username})
            {issue.closed_at && (
              <>
                {' '}
                · closed <When iso={issue.closed_at} />
                {issue.closed_by ? ` by ${issue.closed_by.name}` : ''}
              </>
            )}
            {' '}· updated <When iso={issue.updated_at} />
          </Text>
        </Stack>
        {canEdit && (
          <Group gap="xs">
            <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button variant="light" color={open ? 'red' : 'green'} loading={move.isPending} onClick={toggle}>
              {open ? 'Close issue' : 'Reopen issue'}
            </Button>
          </Group>
        )}
      </Group>

      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="xl">
            <Paper withBorder radius="md" p="md" component="section" aria-label="Description">
              {issue.description?.trim() ? (
                <Markdown>{issue.description}</Markdown>
              ) : (
                <Text size="sm" c="dimmed">
                  No description.
                </Text>
              )}
              <Group mt="sm">
                <Reactions target={noteable} canReact={canComment} what="the issue" />
              </Group>
            </Paper>
            <RelatedIssues project={project} issue={issue} canLink={canTriage} />
            <StateHistory projectId={project.id} issue={issue} />
            <NotesThread {...noteable} canComment={canComment} canReact={canComment} canDeleteOthers={role.can('admin_project')} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder radius="md" p="md" component="aside" aria-label="Issue details">
            <Stack gap="md">
              <Fact label="Assignees">
                <PeopleList people={issue.assignees} />
              </Fact>
              <Fact label="Labels">{issue.labels.length ? <LabelBadges names={issue.labels} colors={colors} /> : 'None'}</Fact>
              <Fact label="Milestone">
                {issue.milestone ? (
                  milestoneHref ? (
                    <Anchor component={Link} to={milestoneHref} size="sm">
                      {issue.milestone.title}
                    </Anchor>
                  ) : (
                    issue.milestone.title
                  )
                ) : (
                  'None'
                )}
              </Fact>
              <Fact label="Iteration">{issue.iteration ? (issue.iteration.title ?? `Iteration ${formatDate(issue.iteration.start_date)} – ${formatDate(issue.iteration.due_date)}`) : 'None'}</Fact>
              <Fact label="Due date">{issue.due_date ? formatDate(issue.due_date) : 'None'}</Fact>
              <Fact label="Weight">{issue.weight ?? 'None'}</Fact>
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>
      {canEdit && <IssueEditDialog projectId={project.id} issue={issue} canTriage={canTriage} opened={editing} onClose={() => setEditing(false)} />}
    </Stack>
  );
}
