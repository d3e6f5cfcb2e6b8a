import { createContext, useContext } from 'react';
import type { ProjectSummary } from '../../../../shared/src/projects.ts';

/** The project a section screen works on, and the signed-in user's role in it (undefined while loading). */
export interface ProjectContextValue {
  project: ProjectSummary;
  /** `level` is for wording (administrators count as Owners); `can` asks the server's rules. */
  role: { level: number | undefined; can: (action: string) => boolean; isPending: boolean; error: unknown; refetch: () => void };
}

export const ProjectContext = createContext<ProjectContextValue | null>(null);

export function useProjectContext(): ProjectContextValue {
  const value = useContext(ProjectContext);
  if (!value) throw new Error('useProjectContext outside a project page');
  return value;
}
