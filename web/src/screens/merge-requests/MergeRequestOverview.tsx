import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Anchor, Badge, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { MergeRequest } from '../../../../shared/src/merge-requests.ts';
import { Fact } from '../../components/Fact.tsx';
import { IconPencil } from '../../components/icons.tsx';
import { Markdown } from '../../components/Markdown.tsx';
import { formatDate, fromNow } from '../../format.ts';
import { projectHref } from '../../paths.ts';
import { StatusBadge } from '../pipelines/status.tsx';
import { useProjectContext } from '../projects/project-context.ts';
import { ApprovalsPanel } from './ApprovalsPanel.tsx';
import { MergePanel } from './MergePanel.tsx';

// The edit dialog (and its form libraries) loads when it is first opened: the merge request's tabs load without it.
const MergeRequestEditDialog = lazy(() => import('./MergeRequestEditDialog.tsx').then((m) => ({ default: m.MergeRequestEditDialog })));

const people = (list: { id: number; name: string }[]) => (list.length ? list.map((p) => p.name).join(', ') : 'None');

/**
 * The Overview tab: the description, the merge panel (mergeability and the actions the user may
 * take), then `comments` (the merge request's thread, wired by the page); the facts beside them.
 */
export function MergeRequestOverview({ mr, comments }: { mr: MergeRequest; comments: ReactNode }) {
  const { project, role } = useProjectContext();
  const pipeline = mr.head_pipeline;
  // Developers and up edit any merge request of the project (the API's rule), merged ones too (their title and description).
  const canEdit = role.can('update_merge_request');
  const [editing, setEditing] = useState(false);
  // Kept once loaded, so closing it gives focus back to Edit as every dialog does.
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            <Paper withBorder radius="md" p="md" component="section" aria-labelledby="mr-description">
              <Group justify="space-between" mb="xs">
                <Title order={3} size="h5" id="mr-description">
                  Description
                </Title>
                {canEdit && (
                  <Button
                    size="compact-sm"
                    variant="default"
                    leftSection={<IconPencil size={14} />}
                    onClick={() => {
                      setLoaded(true);
                      setEditing(true);
                    }}
                    aria-label="Edit merge request"
                  >
                    Edit
                  </Button>
                )}
              </Group>
              {mr.description?.trim() ? <Markdown>{mr.description}</Markdown> : <Text size="sm" c="dimmed">No description.</Text>}
            </Paper>
            <ApprovalsPanel mr={mr} />
            <MergePanel mr={mr} />
            {comments}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder radius="md" p="md" component="section" aria-label="About this merge request">
            <Stack gap="sm">
              <Fact label="Author">{mr.author.name}</Fact>
              <Fact label="Assignees">{people(mr.assignees)}</Fact>
              <Fact label="Reviewers">{people(mr.reviewers)}</Fact>
              <Fact label="Labels">
                {mr.labels.length ? (
                  <Group gap={4} mt={2}>
                    {mr.labels.map((l) => (
                      <Badge key={l} size="sm" variant="light" color="indigo" tt="none">
                        {l}
                      </Badge>
                    ))}
                  </Group>
                ) : (
                  'None'
                )}
              </Fact>
              <Fact label="Milestone">{mr.milestone ? `${mr.milestone.title}${mr.milestone.due_date ? ` (due ${formatDate(mr.milestone.due_date)})` : ''}` : 'None'}</Fact>
              <Fact label="Pipeline">
                {pipeline ? (
                  <Group gap={6} mt={2}>
                    <StatusBadge status={pipeline.status} />
                    <Anchor component={Link} to={projectHref(project.path_with_namespace, `pipelines/${pipeline.id}`)} size="sm">
                      Pipeline #{pipeline.id}
                    </Anchor>
                  </Group>
                ) : (
                  'No pipeline for its latest commit'
                )}
              </Fact>
              {mr.state === 'merged' && mr.merged_at && (
                <Fact label="Merged">
                  {fromNow(mr.merged_at)}
                  {mr.merge_user ? ` by ${mr.merge_user.name}` : ''}
                </Fact>
              )}
              {mr.state === 'closed' && mr.closed_at && (
                <Fact label="Closed">
                  {fromNow(mr.closed_at)}
                  {mr.closed_by ? ` by ${mr.closed_by.name}` : ''}
                </Fact>
              )}
              <Fact label="Updated">
                <span title={mr.updated_at}>{fromNow(mr.updated_at)}</span>
              </Fact>
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>
      {canEdit && loaded && (
        <Suspense fallback={null}>
          <MergeRequestEditDialog projectId={project.id} mr={mr} opened={editing} onClose={() => setEditing(false)} />
        </Suspense>
      )}
    </>
  );
}
