import { lazy, Suspense, useEffect, useRef } from 'react';
import { Anchor, Breadcrumbs, Button, Group, Stack, Tabs, Text, ThemeIcon, Title } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { useProject, useProjectRole } from '../../api/projects.ts';
import { useCurrentUser } from '../../api/session.ts';
import { VisibilityBadge } from '../../components/VisibilityBadge.tsx';
import { IconRepo } from '../../components/icons.tsx';
import { ErrorState, ForbiddenState, LoadingState, NotFoundState } from '../../components/states.tsx';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { groupHref, parseGroupSplat, projectHref, projectSections } from '../../routes.ts';
import { ProjectContext, type ProjectContextValue } from './project-context.ts';

const OVERVIEW = 'overview';
const sectionScreens = new Map(projectSections.map((s) => [s.slug, lazy(s.load)]));

/** /projects/<path with namespace>[/-/<section>]: the project's header, its tabs and the chosen section. */
export default function ProjectPage() {
  const { '*': splat = '' } = useParams();
  // A project's path splits like a group's: everything before /-/ is the path.
  const { fullPath, section } = parseGroupSplat(splat);
  const user = useCurrentUser();
  const navigate = useNavigate();
  const project = useProject(fullPath);
  const role = useProjectRole(project.data, user);
  const current = projectSections.find((s) => s.slug === section);
  const tabList = useRef<HTMLDivElement>(null);
  useEffect(() => {
    tabList.current?.querySelector('[data-active]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [section, role.data]);
  usePageTitle(project.data ? `${current && current.slug ? `${current.label} · ` : ''}${project.data.name_with_namespace}` : 'Project');

  const ctx: ProjectContextValue | null = project.data
    ? { project: project.data, role: { level: role.data, isPending: role.isPending, error: role.error, refetch: () => void role.refetch() } }
    : null;

  if (project.isPending) return <LoadingState label="Loading project…" />;
  if (project.isError) {
    if (project.error.status === 404) {
      return (
        <NotFoundState
          title="Project not found"
          action={
            <Button component={Link} to="/groups" variant="default">
              Back to groups
            </Button>
          }
        >
          There is no project at <b>{fullPath}</b>, or you are not allowed to see it.
        </NotFoundState>
      );
    }
    if (project.error.status === 403) return <ForbiddenState>You are not allowed to see this project.</ForbiddenState>;
    return <ErrorState title="The project could not be loaded" error={project.error} onRetry={() => void project.refetch()} />;
  }

  const p = project.data;
  const tabs = projectSections.filter((s) => !s.minRole || (role.data ?? 0) >= s.minRole);
  const Screen = current ? sectionScreens.get(current.slug) : undefined;
  const segments = p.namespace.full_path.split('/');
  const names = p.name_with_namespace.split(' / ');

  return (
    <ProjectContext.Provider value={ctx}>
      <Stack gap="lg">
        <nav aria-label="Breadcrumb">
          <Breadcrumbs separator="/" separatorMargin={6}>
            <Anchor component={Link} to="/groups" size="sm">
              Groups
            </Anchor>
            {segments.map((_, i) => {
              const path = segments.slice(0, i + 1).join('/');
              return (
                <Anchor key={path} component={Link} to={groupHref(path)} size="sm">
                  {names[i] ?? segments[i]}
                </Anchor>
              );
            })}
            {section ? (
              <Anchor component={Link} to={projectHref(p.path_with_namespace)} size="sm">
                {p.name}
              </Anchor>
            ) : (
              <Text size="sm" c="dimmed" aria-current="page">
                {p.name}
              </Text>
            )}
            {current?.slug ? (
              <Text size="sm" c="dimmed" aria-current="page">
                {current.label}
              </Text>
            ) : null}
          </Breadcrumbs>
        </nav>

        <Group gap="md" wrap="nowrap" align="center">
          <ThemeIcon size={56} radius="md" variant="light" color="gray" aria-hidden>
            <IconRepo size={28} />
          </ThemeIcon>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap="sm" wrap="wrap">
              <Title order={1} size="h2">
                {p.name}
              </Title>
              <VisibilityBadge visibility={p.visibility} />
              {p.archived && (
                <Text size="sm" c="dimmed">
                  Archived
                </Text>
              )}
            </Group>
            <Text size="sm" c="dimmed" ff="monospace" truncate>
              {p.path_with_namespace} · ID {p.id}
            </Text>
          </Stack>
        </Group>

        <Tabs
          value={section || OVERVIEW}
          onChange={(value) => navigate(projectHref(p.path_with_namespace, value === OVERVIEW ? '' : (value ?? '')))}
          keepMounted={false}
          aria-label="Project sections"
        >
          <Tabs.List ref={tabList} className="gh-tabs-scroll">
            {tabs.map((s) => (
              <Tabs.Tab key={s.slug} value={s.slug || OVERVIEW} leftSection={<s.icon size={16} />}>
                {s.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>

        {Screen ? (
          <Suspense fallback={<LoadingState />}>
            {/* The lazy screens are made once, at module load; the rule cannot see that through the Map. */}
            {/* eslint-disable-next-line react-hooks/static-components */}
            <Screen />
          </Suspense>
        ) : (
          <NotFoundState title="No such page in this project">This project has no “{section}” page.</NotFoundState>
        )}
      </Stack>
    </ProjectContext.Provider>
  );
}
