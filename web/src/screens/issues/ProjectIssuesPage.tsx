import { lazy, Suspense } from 'react';
import { Button } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { LoadingState, NotFoundState } from '../../components/states.tsx';
import { projectHref, sectionRest } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { IssueList } from './IssueList.tsx';

// The issue page brings the Markdown renderer (most of its weight): the list loads without it.
const IssuePage = lazy(() => import('./IssuePage.tsx').then((m) => ({ default: m.IssuePage })));

/** /projects/<path>/-/issues[/<iid>]: the project's issues, or one of them. */
export default function ProjectIssuesPage() {
  const { '*': splat = '' } = useParams();
  const { project } = useProjectContext();
  const rest = sectionRest(splat);
  if (rest.length === 0) return <IssueList key={project.id} of={{ scope: 'projects', id: project.id, name: project.name_with_namespace }} />;
  if (rest.length === 1 && /^\d{1,9}$/.test(rest[0])) {
    return (
      <Suspense fallback={<LoadingState label="Loading the issue…" />}>
        <IssuePage key={`${project.id}/${rest[0]}`} iid={Number(rest[0])} />
      </Suspense>
    );
  }
  return (
    <NotFoundState
      title="No such issue page"
      action={
        <Button component={Link} to={projectHref(project.path_with_namespace, 'issues')} variant="default">
          All issues
        </Button>
      }
    >
      There is nothing at “{rest.join('/')}” here.
    </NotFoundState>
  );
}
