import type { ReactNode } from 'react';
import { Anchor, Badge, Grid, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useSubgroups } from '../../api/groups.ts';
import { useCurrentUser } from '../../api/session.ts';
import { GroupAvatar } from '../../components/GroupAvatar.tsx';
import { VisibilityBadge } from '../../components/VisibilityBadge.tsx';
import { IconFolder, IconRepo } from '../../components/icons.tsx';
import { QueryContent } from '../../components/states.tsx';
import { formatDate, roleName } from '../../format.ts';
import { groupHref, projectHref } from '../../paths.ts';
import { useGroupContext } from './group-context.ts';

function Section({ title, count, children }: { title: string; count?: number; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Group gap="xs" mb="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {count !== undefined && (
          <Badge variant="light" color="gray" size="sm" circle={count < 10}>
            {count}
          </Badge>
        )}
      </Group>
      {children}
    </Paper>
  );
}

function Quiet({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed" py="xs">
      {children}
    </Text>
  );
}

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

/** A group at a glance: description, subgroups and projects, and its main facts. */
export default function GroupOverview() {
  const { group, role } = useGroupContext();
  const user = useCurrentUser();
  const subgroups = useSubgroups(group);
  const projects = group.projects ?? [];

  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack gap="lg">
          {group.description ? <Text>{group.description}</Text> : <Quiet>This group has no description.</Quiet>}

          <Section title="Subgroups" count={subgroups.data?.length}>
            <QueryContent query={subgroups} what="subgroups" empty={(data) => data.length === 0 && <Quiet>No subgroups.</Quiet>}>
              {(data) => (
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  {data.map((s) => (
                    <Paper key={s.id} withBorder radius="md" p="sm">
                      <Group gap="sm" wrap="nowrap" align="flex-start">
                        <GroupAvatar id={s.id} name={s.name} url={s.avatar_url} size={32} />
                        <Stack gap={2} style={{ minWidth: 0 }}>
                          <Group gap={6}>
                            <Anchor component={Link} to={groupHref(s.full_path)} fw={600} size="sm">
                              {s.name}
                            </Anchor>
                            <VisibilityBadge visibility={s.visibility} size="xs" />
                          </Group>
                          <Text size="xs" c="dimmed" lineClamp={2}>
                            {s.description || 'No description'}
                          </Text>
                        </Stack>
                      </Group>
                    </Paper>
                  ))}
                </SimpleGrid>
              )}
            </QueryContent>
          </Section>

          <Section title="Projects" count={projects.length}>
            {projects.length === 0 ? (
              <Quiet>No projects in this group yet.</Quiet>
            ) : (
              <Stack gap={0}>
                {projects.map((p) => (
                  <Group
                    key={p.id}
                    gap="sm"
                    wrap="nowrap"
                    py="xs"
                    style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                    align="flex-start"
                  >
                    <Text c="dimmed" mt={2}>
                      <IconRepo size={18} />
                    </Text>
                    <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
                      <Group gap={6}>
                        <Anchor component={Link} to={projectHref(p.path_with_namespace)} fw={600} size="sm">
                          {p.name}
                        </Anchor>
                        <VisibilityBadge visibility={p.visibility} size="xs" />
                      </Group>
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {p.description || p.path_with_namespace}
                      </Text>
                    </Stack>
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} className="gh-hide-narrow">
                      Updated {formatDate(p.last_activity_at)}
                    </Text>
                  </Group>
                ))}
              </Stack>
            )}
          </Section>
        </Stack>
      </Grid.Col>

      <Grid.Col span={{ base: 12, md: 4 }}>
        <Section title="About">
          <Stack gap={0}>
            <Fact label="Your role">
              {user.is_admin ? 'Administrator' : role.isPending ? '…' : role.level ? roleName(role.level) : 'Not a member'}
            </Fact>
            <Fact label="Visibility">
              <VisibilityBadge visibility={group.visibility} size="xs" />
            </Fact>
            <Fact label="Created">{formatDate(group.created_at)}</Fact>
            <Fact label="Default branch">{group.default_branch ?? 'Instance default'}</Fact>
            <Fact label="Two-factor authentication">{group.require_two_factor_authentication ? 'Required' : 'Optional'}</Fact>
            <Fact label="Parent">
              {group.parent_id === null ? (
                'Top-level group'
              ) : (
                <Anchor component={Link} to={groupHref(group.full_path.split('/').slice(0, -1).join('/'))} size="sm">
                  <Group gap={4} component="span" wrap="nowrap">
                    <IconFolder size={14} />
                    {group.full_name.split(' / ').slice(-2, -1)[0]}
                  </Group>
                </Anchor>
              )}
            </Fact>
          </Stack>
        </Section>
      </Grid.Col>
    </Grid>
  );
}
