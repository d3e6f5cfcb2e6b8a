import { Button } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { RequireAbility } from '../../components/ResourcePage.tsx';
import { NotFoundState } from '../../components/states.tsx';
import { errorTrackingHref, sectionRest } from '../../paths.ts';
import { useProjectContext } from '../projects/project-context.ts';
import { ErrorDetailPage } from './ErrorDetail.tsx';
import { ErrorsList } from './ErrorsList.tsx';
import { ErrorTrackingSettings } from './ErrorTrackingSettings.tsx';
import { FORBIDDEN_HINT, FORBIDDEN_TITLE } from './error-model.ts';

const SETTINGS_FORBIDDEN_TITLE = 'You need the Maintainer role to change error tracking';
const SETTINGS_FORBIDDEN_HINT = 'Maintainers and Owners turn error tracking on or off and manage the keys (DSNs) applications report with.';

/** /projects/<path>/-/error_tracking[/<id>|/settings]: the project's errors, one error, or the settings. */
export default function ErrorTrackingPage() {
  const { '*': splat = '' } = useParams();
  const { project } = useProjectContext();
  const rest = sectionRest(splat);
  if (rest.length === 1 && rest[0] === 'settings') {
    return (
      <RequireAbility action="admin_error_tracking" title={SETTINGS_FORBIDDEN_TITLE} hint={SETTINGS_FORBIDDEN_HINT}>
        <ErrorTrackingSettings key={project.id} />
      </RequireAbility>
    );
  }
  let screen: React.ReactNode;
  if (rest.length === 0) screen = <ErrorsList key={project.id} />;
  else if (rest.length === 1 && /^\d{1,10}$/.test(rest[0])) screen = <ErrorDetailPage key={rest[0]} id={Number(rest[0])} />;
  else {
    screen = (
      <NotFoundState title="No such error page" action={<Button component={Link} to={errorTrackingHref(project.path_with_namespace)} variant="default">Errors</Button>}>
        There is nothing at “{rest.join('/')}” here.
      </NotFoundState>
    );
  }
  return (
    <RequireAbility action="read_error_tracking" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      {screen}
    </RequireAbility>
  );
}
