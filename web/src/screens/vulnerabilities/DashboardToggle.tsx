import { Switch } from '@mantine/core';
import { useDashboardProjects, useToggleDashboardProject } from '../../api/security-dashboard.ts';

/** Whether the project is on the user's security dashboard, which the instance-level vulnerability export covers. */
export function DashboardToggle({ projectId }: { projectId: number }) {
  const projects = useDashboardProjects();
  const toggle = useToggleDashboardProject({ meta: { errorTitle: 'Your security dashboard was not changed' } });
  const on = projects.data?.some((p) => p.id === projectId) ?? false;
  return (
    <Switch
      label="On my security dashboard"
      description="Included in your dashboard’s vulnerability exports"
      checked={on}
      disabled={projects.isPending || projects.isError || toggle.isPending}
      onChange={(e) => toggle.mutate({ projectId, on: e.currentTarget.checked })}
    />
  );
}
