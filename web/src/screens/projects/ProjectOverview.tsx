import type { ReactNode } from 'react';
import { Anchor, Badge, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useCurrentUser } from '../../api/session.ts';
import { VisibilityBadge } from '../../components/VisibilityBadge.tsx';
import { IconFolder, IconWebhook } from '../../components/icons.tsx';
import { formatDate, roleName } from '../../format.ts';
import { groupHref, projectHref } from '../../paths.ts';
import { useProjectContext } from './project-context.ts';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" py={6} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right" component="div">
        {children}
      </Text>
    </Group>
  );
}

/** A project at a glance: its description, what it has switched on and its main facts. */
export default function ProjectOverview() {
  const { project: p, role } = useProjectContext();
  const user = useCurrentUser();
  const features = [
    ['Issues', p.issues_enabled],
    ['Merge requests', p.merge_requests_enabled],
    ['Wiki', p.wiki_enabled],
    ['CI/CD jobs', p.jobs_enabled],
    ['Snippets', p.snippets_enabled],
    ['Container registry', p.container_registry_enabled],
  ] as const;

  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack gap="lg">
          {p.description ? (
            <Text>{p.description}</Text>
          ) : (
            <Text size="sm" c="dimmed">
              This project has no description.
            </Text>
          )}
          <Paper withBorder radius="md" p="md" component="section" aria-label="Features">
            <Title order={2} size="h4" mb="sm">
              Features
            </Title>
            <Group gap="xs">
              {features.map(([label, on]) => (
                <Badge key={label} variant={on ? 'light' : 'outline'} color={on ? 'teal' : 'gray'} tt="none" fw={500}>
                  {label}: {on ? 'on' : 'off'}
                </Badge>
              ))}
            </Group>
            {p.topics.length > 0 && (
              <Group gap={6} mt="sm">
                {p.topics.map((t) => (
                  <Badge key={t} variant="outline" color="gray" tt="none" fw={500}>
                    {t}
                  </Badge>
                ))}
              </Group>
            )}
          </Paper>
          {role.can('admin_hooks') && (
            <Anchor component={Link} to={projectHref(p.path_with_namespace, 'hooks')} size="sm">
              <Group gap={6} component="span">
                <IconWebhook size={16} />
                Manage the project’s webhooks
              </Group>
            </Anchor>
          )}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Paper withBorder radius="md" p="md" component="section" aria-label="About">
          <Title order={2} size="h4" mb="sm">
            About
          </Title>
          <Stack gap={0}>
            <Fact label="Your role">
              {user.is_admin ? 'Administrator' : role.isPending ? '…' : role.level ? roleName(role.level) : 'Not a member'}
            </Fact>
            <Fact label="Visibility">
              <VisibilityBadge visibility={p.visibility} size="xs" />
            </Fact>
            <Fact label="Default branch">{p.default_branch ?? '—'}</Fact>
            <Fact label="Created">{formatDate(p.created_at)}</Fact>
            <Fact label="Last activity">{formatDate(p.last_activity_at)}</Fact>
            <Fact label="Group">
              <Anchor component={Link} to={groupHref(p.namespace.full_path)} size="sm">
                <Group gap={4} component="span" wrap="nowrap">
                  <IconFolder size={14} />
                  {p.namespace.name}
                </Group>
              </Anchor>
            </Fact>
          </Stack>
        </Paper>
      </Grid.Col>
    </Grid>
  );
}
