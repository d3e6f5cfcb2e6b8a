import { lazy, Suspense, useState } from 'react';
import { Button } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { IconPlus } from '../../components/icons.tsx';
import { LoadingState, NotFoundState } from '../../components/states.tsx';
import { projectHref, sectionRest } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { IssueList } from './IssueList.tsx';

// The dialog comes with its form's weight only when it is opened.
const NewIssueDialog = lazy(() => import('./IssueEditDialog.tsx').then((m) => ({ default: m.NewIssueDialog })));

// The issue page brings the Markdown renderer (most of its weight): the list loads without it.
const IssuePage = lazy(() => import('./IssuePage.tsx').then((m) => ({ default: m.IssuePage })));

/** /projects/<path>/-/issues[/<iid>]: the project's issues, or one of them. */
export default function ProjectIssuesPage() {
  const { '*': splat = '' } = useParams();
  const { project } = useProjectContext();
  const rest = sectionRest(splat);
  if (rest.length === 0) return <IssueList key={project.id} of={{ scope: 'projects', id: project.id, name: project.name_with_namespace }} action={<NewIssue />} />;
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

/** "New issue" for those who may open one (anyone signed in who sees the project), and its dialog. */
function NewIssue() {
  const { project, role } = useProjectContext();
  const [opened, setOpened] = useState(false);
  // Kept once loaded, so closing it gives focus back to the button as every dialog does.
  const [loaded, setLoaded] = useState(false);
  if (!role.can('create_issue')) return null;
  return (
    <>
      <Button leftSection={<IconPlus size={16} />} onClick={() => {
          setLoaded(true);
          setOpened(true);
        }} style={{ flexShrink: 0 }}>
        New issue
      </Button>
      {loaded && (
        <Suspense fallback={null}>
          <NewIssueDialog projectId={project.id} canTriage={role.can('admin_issue')} opened={opened} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
