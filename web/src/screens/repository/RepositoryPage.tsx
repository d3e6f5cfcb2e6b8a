import { Grid, Stack } from '@mantine/core';
import { useCurrentUser } from '../../api/session.ts';
import { RequireAbility } from '../../components/ResourcePage.tsx';
import { EmptyState } from '../../components/states.tsx';
import { useProjectContext } from '../projects/project-context.ts';
import { CloneCard } from './CloneCard.tsx';
import { PushRuleCard } from './PushRuleCard.tsx';
import { RefsSection } from './RefsSection.tsx';

/** /projects/<path with namespace>/-/repository: how to clone, the branches and tags, the push rule that applies. */
export default function RepositoryPage() {
  return (
    <RequireAbility action="download_code" title="You cannot see this project’s code" hint="Reporters and above see and clone the code of a private project; ask a Maintainer for access.">
      <Repository />
    </RequireAbility>
  );
}

function Repository() {
  const { project, role } = useProjectContext();
  const user = useCurrentUser();
  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 2, md: 1 }}>
        {project.empty_repo ? (
          <EmptyState title="This repository is empty">Clone it and push a first commit: its branches and tags will show here.</EmptyState>
        ) : (
          <RefsSection projectId={project.id} />
        )}
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 1, md: 2 }}>
        <Stack gap="lg">
          <CloneCard project={project} username={user.username} may={{ push: role.can('push_code'), pushDefault: role.can('push_to_default_branch') }} />
          <PushRuleCard group={{ id: project.namespace.id, full_path: project.namespace.full_path, name: project.namespace.name }} />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
