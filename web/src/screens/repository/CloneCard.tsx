import { ActionIcon, Anchor, Code, CopyButton, Group, List, Paper, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { Link } from 'react-router';
import type { ProjectSummary } from '../../../../shared/src/projects.ts';
import { IconCheck, IconCopy } from '../../components/icons.tsx';
import { cloneAdvice } from './clone-command.ts';

function Copy({ value, what }: { value: string; what: string }) {
  return (
    <CopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : `Copy ${what}`} withArrow>
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy ${what}`}>
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/** The clone URL and the `git clone` command that works for this user, with what git will ask. */
export function CloneCard({ project, username, may }: { project: ProjectSummary; username: string; may: { push: boolean; pushDefault: boolean } }) {
  const advice = cloneAdvice(project, username, may);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="clone-title">
      <Title order={2} size="h4" mb="sm" id="clone-title">
        Clone
      </Title>
      <Stack gap="sm">
        <TextInput
          label="Clone with HTTP"
          value={project.http_url_to_repo}
          readOnly
          onFocus={(e) => e.currentTarget.select()}
          rightSection={<Copy value={project.http_url_to_repo} what="clone URL" />}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <div>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" fw={500} id="clone-command-label">
              Command
            </Text>
            <Copy value={advice.command} what="git clone command" />
          </Group>
          <Code block aria-labelledby="clone-command-label" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {advice.command}
          </Code>
        </div>
        <List size="sm" spacing={4}>
          {advice.notes.map((n) => (
            <List.Item key={n}>{n}</List.Item>
          ))}
        </List>
        <Text size="sm">
          <Anchor component={Link} to="/user/access_tokens">
            Create a personal access token
          </Anchor>{' '}
          (shown once; git can keep it in its credential helper).
        </Text>
      </Stack>
    </Paper>
  );
}
