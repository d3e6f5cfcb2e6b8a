import { useMemo } from 'react';
import { groupHref } from '../../paths.ts';
import { useGroupContext } from '../groups/group-context.ts';
import { RequireAbility, RoleForbidden } from '../../components/ResourcePage.tsx';
import { HookScopeContext, type HookScopeValue } from './hook-scope.ts';
import { HooksSection } from './HooksSection.tsx';

const FORBIDDEN_TITLE = 'You need the Owner role to manage webhooks';
const FORBIDDEN_HINT = 'The webhooks of a group, and their deliveries, are managed by Owners of the group and administrators.';

/** /groups/<full path>/-/hooks[/…]: the group's webhooks, for Owners and administrators. */
export default function GroupHooksPage() {
  const { group } = useGroupContext();
  const scope = useMemo<HookScopeValue>(
    () => ({
      owner: { scope: 'groups', id: group.id },
      ownerName: group.full_name,
      href: (sub) => groupHref(group.full_path, sub ? `hooks/${sub}` : 'hooks'),
      forbidden: () => <RoleForbidden title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT} />,
    }),
    [group.id, group.full_name, group.full_path],
  );
  return (
    <RequireAbility action="admin_hooks" title={FORBIDDEN_TITLE} hint={FORBIDDEN_HINT}>
      <HookScopeContext.Provider value={scope}>
        <HooksSection key={group.id} />
      </HookScopeContext.Provider>
    </RequireAbility>
  );
}
