import { useId, useState } from 'react';
import { ActionIcon, Anchor, Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ISSUE_LINK_TYPES, type IssueLinkType } from '../../../../shared/src/issue-links.ts';
import type { Issue } from '../../../../shared/src/issues.ts';
import type { ProjectSummary } from '../../../../shared/src/projects.ts';
import { useAddIssueLink, useIssueLinks, useRemoveIssueLink } from '../../api/issues.ts';
import { IconX } from '../../components/icons.tsx';
import { notifySuccess } from '../../components/notify.ts';
import { QueryContent } from '../../components/states.tsx';
import { issueHrefOf } from '../../paths.ts';
import { IssueStateBadge } from './issue-parts.tsx';
import { parseIssueReference } from './issue-model.ts';

const LINK_WORDS: Record<IssueLinkType, string> = { blocks: 'Blocks', is_blocked_by: 'Is blocked by', relates_to: 'Relates to' };

/** The issues linked to this one, by kind of link; those who triage add and remove links. */
export function RelatedIssues({ project, issue, canLink }: { project: ProjectSummary; issue: Issue; canLink: boolean }) {
  const links = useIssueLinks(project.id, issue.iid);
  const remove = useRemoveIssueLink(project.id, issue.iid, { meta: { errorTitle: 'The link was not removed' } });
  const headingId = useId();
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>
        Related issues{links.data ? ` (${links.data.length})` : ''}
      </Title>
      <QueryContent
        query={links}
        what="the related issues"
        empty={(data) =>
          data.length === 0 && (
            <Text size="sm" c="dimmed">
              No linked issues.{canLink ? ' Link one that blocks this issue, that this one blocks, or that relates to it.' : ''}
            </Text>
          )
        }
      >
        {(data) => (
          <Stack gap="xs">
            {ISSUE_LINK_TYPES.map((type) => {
              const held = data.filter((l) => l.link_type === type);
              if (held.length === 0) return null;
              return (
                <div key={type}>
                  <Text size="xs" c="dimmed" tt="uppercase" fw={600} mb={4}>
                    {LINK_WORDS[type]}
                  </Text>
                  <Paper withBorder radius="md" component="ul" aria-label={LINK_WORDS[type]} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                    {held.map((l, n) => (
                      <Group key={l.issue_link_id} component="li" justify="space-between" wrap="nowrap" px="sm" py={6} style={n ? { borderTop: '1px solid var(--mantine-color-gray-3)' } : undefined}>
                        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                          <IssueStateBadge state={l.state} />
                          <Anchor component={Link} to={issueHrefOf(l)} size="sm" fw={500} truncate>
                            {l.title}
                          </Anchor>
                          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                            {l.project_id === project.id ? `#${l.iid}` : l.references.full}
                          </Text>
                        </Group>
                        {canLink && (
                          <ActionIcon
                            variant="subtle"
                            color="gray"
                            aria-label={`Remove the link to ${l.title}`}
                            loading={remove.isPending && remove.variables === l.issue_link_id}
                            onClick={() => remove.mutate(l.issue_link_id, { onSuccess: () => notifySuccess('Link removed', `“${l.title}” is no longer linked.`) })}
                          >
                            <IconX size={16} />
                          </ActionIcon>
                        )}
                      </Group>
                    ))}
                  </Paper>
                </div>
              );
            })}
          </Stack>
        )}
      </QueryContent>
      {canLink && <AddLinkForm project={project} issue={issue} />}
    </Stack>
  );
}

function AddLinkForm({ project, issue }: { project: ProjectSummary; issue: Issue }) {
  const [text, setText] = useState('');
  const [type, setType] = useState<IssueLinkType>('relates_to');
  const [problem, setProblem] = useState<string | null>(null);
  const add = useAddIssueLink(project.id, issue.iid, { meta: { errorTitle: 'The issue was not linked' } });
  return (
    <form
      aria-label="Link an issue"
      onSubmit={(e) => {
        e.preventDefault();
        const ref = parseIssueReference(text);
        if (!ref) {
          setProblem('Enter an issue as #12, or group/project#12 for another project');
          return;
        }
        if (ref.project === null && ref.iid === issue.iid) {
          setProblem('An issue cannot be linked to itself');
          return;
        }
        setProblem(null);
        add.mutate(
          { target_project_id: ref.project ?? String(project.id), target_issue_iid: ref.iid, link_type: type },
          {
            onSuccess: () => {
              setText('');
              notifySuccess('Issue linked', `${ref.project ?? ''}#${ref.iid} is linked.`);
            },
          },
        );
      }}
    >
      <Group gap="xs" align="flex-start" wrap="wrap">
        <NativeSelect label="This issue" value={type} onChange={(e) => setType(e.currentTarget.value as IssueLinkType)} data={ISSUE_LINK_TYPES.map((t) => ({ value: t, label: LINK_WORDS[t].toLowerCase() }))} />
        <TextInput label="Issue" placeholder="#12 or group/project#12" value={text} onChange={(e) => setText(e.currentTarget.value)} error={problem} w={240} />
        <Button type="submit" variant="default" mt={25} loading={add.isPending}>
          Link issue
        </Button>
      </Group>
    </form>
  );
}
