import { createContext, useContext } from 'react';
import type { CallerRole } from '../../components/ResourcePage.tsx';
import type { ProjectSummary } from '../../../../shared/src/projects.ts';

/** The project a section screen works on, and the signed-in user's role in it (undefined while loading). */
export interface ProjectContextValue {
  project: ProjectSummary;
  role: CallerRole;
}

export const ProjectContext = createContext<ProjectContextValue | null>(null);

export function useProjectContext(): ProjectContextValue {
  const value = useContext(ProjectContext);
  if (!value) throw new Error('useProjectContext outside a project page');
  return value;
}
