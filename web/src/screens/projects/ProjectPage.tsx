import { ACCESS_LEVELS } from '../../../../shared/src/roles.ts';
import { Anchor, Breadcrumbs, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useProject, useProjectRole } from '../../api/projects.ts';
import { useCurrentUser } from '../../api/session.ts';
import { VisibilityBadge } from '../../components/VisibilityBadge.tsx';
import { IconRepo } from '../../components/icons.tsx';
import { resourceState, screensOf, SectionScreen, SectionTabs } from '../../components/SectionedPage.tsx';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { groupHref, parseGroupSplat, projectHref, projectSections } from '../../routes.ts';
import { ProjectContext, type ProjectContextValue } from './project-context.ts';

const sectionScreens = screensOf(projectSections);

/** /projects/<path with namespace>[/-/<section>]: the project's header, its tabs and the chosen section. */
/** The caller's role as the console uses it: the server's abilities, and a level for wording. */
function roleOf(role: ReturnType<typeof useProjectRole>, user: { is_admin: boolean }) {
  const level = role.data ? (user.is_admin ? ACCESS_LEVELS.owner : role.data.access_level) : undefined;
  return { level, can: (action: string) => role.data?.abilities[action] === true, isPending: role.isPending, error: role.error, refetch: () => void role.refetch() };
}

export default function ProjectPage() {
  const { '*': splat = '' } = useParams();
  // A project's path splits like a group's: everything before /-/ is the path.
  const { fullPath, section } = parseGroupSplat(splat);
  const user = useCurrentUser();
  const project = useProject(fullPath);
  const role = useProjectRole(project.data, user);
  const current = projectSections.find((s) => s.slug === section);
  usePageTitle(project.data ? `${current && current.slug ? `${current.label} · ` : ''}${project.data.name_with_namespace}` : 'Project');

  const ctx: ProjectContextValue | null = project.data
    ? { project: project.data, role: roleOf(role, user) }
    : null;

  const state = resourceState(project, 'project', fullPath);
  if (state || !project.data) return state;

  const p = project.data;
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

        <SectionTabs sections={projectSections} section={section} can={roleOf(role, user).can} kind="project" hrefOf={(slug) => projectHref(p.path_with_namespace, slug)} />

        <SectionScreen screens={sectionScreens} section={section} kind="project" />
      </Stack>
    </ProjectContext.Provider>
  );
}
