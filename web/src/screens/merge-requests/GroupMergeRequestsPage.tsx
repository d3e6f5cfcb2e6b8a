import { Button } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { NotFoundState } from '../../components/states.tsx';
import { groupHref, sectionRest } from '../../paths.ts';
import { useGroupContext } from '../groups/group-context.ts';
import { MergeRequestsList } from './MergeRequestsList.tsx';

/** /groups/<full path>/-/merge_requests: the merge requests of every project of the group and its subgroups the user may read. */
export default function GroupMergeRequestsPage() {
  const { '*': splat = '' } = useParams();
  const { group } = useGroupContext();
  const rest = sectionRest(splat);
  if (rest.length > 0) {
    return (
      <NotFoundState
        title="No such merge request page"
        action={
          <Button component={Link} to={groupHref(group.full_path, 'merge_requests')} variant="default">
            All merge requests
          </Button>
        }
      >
        A merge request’s own page is under its project.
      </NotFoundState>
    );
  }
  return <MergeRequestsList key={group.id} owner={{ scope: 'groups', id: group.id }} name={group.full_name} />;
}
