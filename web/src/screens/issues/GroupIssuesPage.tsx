import { Button } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { NotFoundState } from '../../components/states.tsx';
import { groupHref, sectionRest } from '../../paths.ts';
import { useGroupContext } from '../groups/group-context.ts';
import { IssueList } from './IssueList.tsx';

/** /groups/<full path>/-/issues: the issues of the group's projects (and its subgroups'); each opens on its project's page. */
export default function GroupIssuesPage() {
  const { '*': splat = '' } = useParams();
  const { group } = useGroupContext();
  const rest = sectionRest(splat);
  if (rest.length === 0) return <IssueList key={group.id} of={{ scope: 'groups', id: group.id, name: group.full_name }} />;
  return (
    <NotFoundState
      title="No such issue page"
      action={
        <Button component={Link} to={groupHref(group.full_path, 'issues')} variant="default">
          All issues
        </Button>
      }
    >
      An issue lives in its project: open it from the list.
    </NotFoundState>
  );
}
