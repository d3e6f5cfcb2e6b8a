import { lazy } from 'react';
import { Button } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { RequireAbility } from '../../components/ResourcePage.tsx';
import { NotFoundState } from '../../components/states.tsx';
import { projectHref, sectionRest } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { MergeRequestDetail, MR_TABS, type MrTab } from './MergeRequestDetail.tsx';
import { FORBIDDEN_HINT, FORBIDDEN_TITLE } from './state.tsx';

// The list loads only where it is shown: a merge request's own address needs none of it.
const MergeRequestsList = lazy(() => import('./MergeRequestsList.tsx').then((m) => ({ default: m.MergeRequestsList })));

/** /projects/<path>/-/merge_requests[/<iid>[/commits|/diffs]]: the project's merge requests, or one of them on a tab. */
export default function ProjectMergeRequestsPage() {
  const { '*': splat = '' } = useParams();
  const { project } = useProjectContext();
  const rest = sectionRest(splat);
  const listHref = projectHref(project.path_with_namespace, 'merge_requests');
  let screen: React.ReactNode;
  if (rest.length === 0) {
    screen = <MergeRequestsList key={project.id} owner={{ scope: 'projects', id: project.id }} projectPath={project.path_with_namespace} name={project.name_with_namespace} />;
  } else if (/^\d{1,9}$/.test(rest[0]) && rest.length <= 2 && (rest.length === 1 || MR_TABS.some((t) => t.slug === rest[1]))) {
    const tab = (rest[1] ?? '') as MrTab;
    screen = <MergeRequestDetail key={`${project.id}/${rest[0]}`} iid={Number(rest[0])} tab={tab} />;
  } else {
    screen = (
      <NotFoundState
        title="No such merge request page"
        action={
          <Button component={Link} to={listHref} variant="default">
            All merge requests
          </Button>
        }
      >
        There is nothing at “{rest.join('/')}” here.
      </NotFoundState>
    );
  }
  return (
    <RequireAbility action="read_merge_request" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      {screen}
    </RequireAbility>
  );
}
