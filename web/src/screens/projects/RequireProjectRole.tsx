import type { ReactNode } from 'react';
import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorState, ForbiddenState, LoadingState } from '../../components/states.tsx';
import { roleName } from '../../components/format.ts';
import { projectHref } from '../../routes.ts';
import { useProjectContext } from './project-context.ts';

/** The refusal a project screen shows to someone below the role it needs: what they lack, what they have, whom to ask. */
export function ProjectRoleForbidden({ title, hint }: { title: string; hint: string }) {
  const { project, role } = useProjectContext();
  return (
    <ForbiddenState
      title={title}
      action={
        <Button component={Link} to={projectHref(project.path_with_namespace)} variant="default">
          Back to the project overview
        </Button>
      }
    >
      {role.level ? `Your role in ${project.name_with_namespace} is ${roleName(role.level)}.` : `You are not a member of ${project.name_with_namespace}.`} {hint}
    </ForbiddenState>
  );
}

/** Renders `children` for members with at least `minRole` (administrators count as Owners); everyone else gets the forbidden state. */
export function RequireProjectRole({ action, title, hint, children }: { action: string; title: string; hint: string; children: ReactNode }) {
  const { role } = useProjectContext();
  if (role.isPending) return <LoadingState label="Checking your role…" />;
  if (role.error) return <ErrorState title="Your role in this project could not be checked" error={role.error} onRetry={role.refetch} />;
  if (!role.can(action)) return <ProjectRoleForbidden title={title} hint={hint} />;
  return children;
}
