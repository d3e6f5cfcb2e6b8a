import { Text, ThemeIcon } from '@mantine/core';
import { useParams } from 'react-router';
import type { ProjectSummary } from '../../../../shared/src/projects.ts';
import { useProject, useProjectRole } from '../../api/projects.ts';
import { useCurrentUser } from '../../api/session.ts';
import { VisibilityBadge } from '../../components/VisibilityBadge.tsx';
import { IconRepo } from '../../components/icons.tsx';
import { callerRole, ResourcePage, type CallerRole } from '../../components/ResourcePage.tsx';
import { resourceStates, screensOf } from '../../components/SectionedPage.tsx';
import { QueryContent } from '../../components/states.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { groupHref, parseGroupSplat, projectHref } from '../../paths.ts';
import { projectSections } from '../../sections.ts';
import { ProjectContext } from './project-context.ts';

const sectionScreens = screensOf(projectSections);

/** /projects/<path with namespace>[/-/<section>]: the project's header, its tabs and the chosen section. */
export default function ProjectPage() {
  const { '*': splat = '' } = useParams();
  // A project's path splits like a group's: everything before /-/ is the path.
  const { fullPath, section } = parseGroupSplat(splat);
  const user = useCurrentUser();
  const project = useProject(fullPath);
  const abilities = useProjectRole(project.data, user);
  const current = projectSections.find((s) => s.slug === section);
  usePageTitle(project.data ? `${current && current.slug ? `${current.label} · ` : ''}${project.data.name_with_namespace}` : 'Project');

  return (
    <QueryContent query={project} {...resourceStates('project', fullPath)}>
      {(p) => <ProjectFrame project={p} role={callerRole(abilities, user)} section={section} />}
    </QueryContent>
  );
}

function ProjectFrame({ project: p, role, section }: { project: ProjectSummary; role: CallerRole; section: string }) {
  const segments = p.namespace.full_path.split('/');
  const names = p.name_with_namespace.split(' / ');
  const trail = [
    ...segments.map((_, i) => ({ label: names[i] ?? segments[i], href: groupHref(segments.slice(0, i + 1).join('/')) })),
    { label: p.name, href: projectHref(p.path_with_namespace) },
  ];

  return (
    <ProjectContext.Provider value={{ project: p, role }}>
      <ResourcePage
        scope={{ kind: 'project', name: p.name_with_namespace, overviewHref: projectHref(p.path_with_namespace), role }}
        trail={trail}
        avatar={
          <ThemeIcon size={56} radius="md" variant="light" color="gray" aria-hidden>
            <IconRepo size={28} />
          </ThemeIcon>
        }
        title={p.name}
        badges={
          <>
            <VisibilityBadge visibility={p.visibility} />
            {p.archived && (
              <Text size="sm" c="dimmed">
                Archived
              </Text>
            )}
          </>
        }
        subtitle={`${p.path_with_namespace} · ID ${p.id}`}
        sections={projectSections}
        screens={sectionScreens}
        section={section}
        hrefOf={(slug) => projectHref(p.path_with_namespace, slug)}
      />
    </ProjectContext.Provider>
  );
}
