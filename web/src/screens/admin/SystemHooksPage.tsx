import { adminHref } from '../../paths.ts';
import { SYSTEM_HOOKS_OWNER } from '../../api/hooks.ts';
import { HookScopeContext, parseSystemHookRoute, type HookScopeValue } from '../hooks/hook-scope.ts';
import { HooksSection } from '../hooks/HooksSection.tsx';
import { AdminForbidden } from './admin-states.tsx';

/**
 * The instance's webhooks (system hooks): the webhook screens of groups and projects, in their third
 * scope. The admin area lets only administrators in, so there is no role to check here.
 */
const scope: HookScopeValue = {
  owner: SYSTEM_HOOKS_OWNER,
  ownerName: 'this instance',
  href: (sub) => adminHref('hooks', ...(sub ? [sub] : [])),
  forbidden: () => <AdminForbidden />,
  parseRoute: parseSystemHookRoute,
};

/** /admin/hooks[/new | /<id>/edit | /<id>/events]. */
export default function SystemHooksPage() {
  return (
    <HookScopeContext.Provider value={scope}>
      <HooksSection />
    </HookScopeContext.Provider>
  );
}
