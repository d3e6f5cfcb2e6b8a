import { useId } from 'react';
import { List, Stack, Text, Title } from '@mantine/core';
import type { Issue } from '../../../../shared/src/issues.ts';
import { useIssueStateEvents } from '../../api/issues.ts';
import { QueryContent } from '../../components/states.tsx';
import { fromNow, fullDateTimeToMinute } from '../../format.ts';
import { STATE_EVENT_WORDS } from './issue-model.ts';

/** When the issue was opened, and each close and reopen since (resource state events), oldest first. */
export function StateHistory({ projectId, issue }: { projectId: number; issue: Issue }) {
  const events = useIssueStateEvents(projectId, issue.iid);
  const headingId = useId();
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>
        State history
      </Title>
      <QueryContent query={events} what="the state history">
        {(data) => (
          <List size="sm" spacing={4}>
            <List.Item>
              Opened by {issue.author.name} <When iso={issue.created_at} />
            </List.Item>
            {data.items.map((e) => (
              <List.Item key={e.id}>
                {sentenceCase(STATE_EVENT_WORDS[e.state] ?? e.state)} by {e.user?.name ?? 'the platform'} <When iso={e.created_at} />
              </List.Item>
            ))}
            {data.items.length === 0 && (
              <Text component="li" size="sm" c="dimmed">
                Not closed since.
              </Text>
            )}
          </List>
        )}
      </QueryContent>
    </Stack>
  );
}

const sentenceCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function When({ iso }: { iso: string }) {
  return (
    <Text span size="sm" c="dimmed">
      <time dateTime={iso} title={fullDateTimeToMinute(iso)}>
        {fromNow(iso)}
      </time>
    </Text>
  );
}
