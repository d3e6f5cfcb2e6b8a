import { IconAlert, IconBook, IconFlag, IconFlame, IconFolder, IconGroups, IconHome, IconInbox, IconKey, IconList, IconLock, IconRefresh, IconRepo, IconSend, IconSettings, IconShieldCheck, IconWebhook } from './components/icons.tsx';
import type { GroupSection } from './components/SectionedPage.tsx';

/*
 * The sections of the pages that have tabs: a group, a project and the admin area. Each list
 * draws its page's tabs and loads the chosen tab's screen; the page of each (loaded from
 * routes.ts) imports its list from here. Links to a section are built with paths.ts.
 */

/**
 * Sections of a group page, addressed as /groups/<full path>/-/<slug>. The same list draws the
 * group's tabs; a tab is hidden below its role, and its screen shows the forbidden state.
 */
export const groupSections: GroupSection[] = [
  { slug: '', label: 'Overview', icon: IconHome, load: () => import('./screens/groups/GroupOverview.tsx') },
  { slug: 'members', label: 'Members', icon: IconGroups, action: 'read_members', load: () => import('./screens/members/GroupMembersPage.tsx') },
  { slug: 'milestones', label: 'Milestones', icon: IconList, load: () => import('./screens/milestones/MilestonesPage.tsx') },
  { slug: 'iterations', label: 'Iterations', icon: IconRefresh, load: () => import('./screens/iterations/IterationsPage.tsx') },
  { slug: 'issues', label: 'Issues', icon: IconAlert, load: () => import('./screens/issues/GroupIssuesPage.tsx') },
  { slug: 'merge_requests', label: 'Merge requests', icon: IconSend, load: () => import('./screens/merge-requests/GroupMergeRequestsPage.tsx') },
  {
    slug: 'settings',
    label: 'Settings',
    icon: IconSettings,
    action: 'admin_group',
    load: () => import('./screens/groups/GroupSettingsPage.tsx'),
  },
  {
    slug: 'access_tokens',
    label: 'Access tokens',
    icon: IconKey,
    action: 'admin_group',
    load: () => import('./screens/group-access-tokens/AccessTokensPage.tsx'),
  },
  {
    slug: 'push_rules',
    label: 'Push rules',
    icon: IconShieldCheck,
    action: 'admin_group',
    load: () => import('./screens/group-push-rules/PushRulesPage.tsx'),
  },
  {
    slug: 'revoke_token',
    label: 'Leaked tokens',
    icon: IconFlame,
    action: 'revoke_group_tokens',
    load: () => import('./screens/token-revocation/RevokeTokenPage.tsx'),
  },
  {
    slug: 'hooks',
    label: 'Webhooks',
    icon: IconWebhook,
    action: 'admin_hooks',
    load: () => import('./screens/hooks/GroupHooksPage.tsx'),
  },
  { slug: 'deploy_tokens', label: 'Deploy tokens', icon: IconLock, action: 'admin_deploy_tokens', load: () => import('./screens/deploy-tokens/DeployTokensPage.tsx') },
  { slug: 'virtual_registries', label: 'Virtual registries', icon: IconBook, action: 'read_virtual_registry', load: () => import('./screens/virtual-registries/VirtualRegistriesPage.tsx') },
  { slug: 'vulnerabilities', label: 'Vulnerability report', icon: IconShieldCheck, action: 'read_vulnerability', load: () => import('./screens/vulnerabilities/GroupVulnerabilitiesPage.tsx') },
  { slug: 'exports', label: 'Exports', icon: IconInbox, action: 'create_vulnerability_export', load: () => import('./screens/exports/GroupExportsPage.tsx') },
  { slug: 'placeholders', label: 'Placeholders', icon: IconGroups, action: 'admin_placeholders', load: () => import('./screens/placeholders/PlaceholdersPage.tsx') },
  { slug: 'new_subgroup', label: 'New subgroup', icon: IconFolder, action: 'create_subgroup', load: () => import('./screens/new/NewSubgroupSection.tsx') },
  { slug: 'new_project', label: 'New project', icon: IconRepo, action: 'create_project', load: () => import('./screens/new/NewProjectSection.tsx') },
];

/** Sections of a project page, /projects/<path with namespace>[/-/<slug>], drawn and guarded like the group's. */
export const projectSections: GroupSection[] = [
  { slug: '', label: 'Overview', icon: IconHome, load: () => import('./screens/projects/ProjectOverview.tsx') },
  { slug: 'repository', label: 'Repository', icon: IconRepo, action: 'download_code', load: () => import('./screens/repository/RepositoryPage.tsx') },
  { slug: 'issues', label: 'Issues', icon: IconAlert, load: () => import('./screens/issues/ProjectIssuesPage.tsx') },
  { slug: 'merge_requests', label: 'Merge requests', icon: IconSend, action: 'read_merge_request', load: () => import('./screens/merge-requests/ProjectMergeRequestsPage.tsx') },
  { slug: 'members', label: 'Members', icon: IconGroups, action: 'read_members', load: () => import('./screens/members/ProjectMembersPage.tsx') },
  { slug: 'milestones', label: 'Milestones', icon: IconList, load: () => import('./screens/milestones/ProjectMilestonesPage.tsx') },
  { slug: 'pipelines', label: 'Pipelines', icon: IconRefresh, action: 'read_pipeline', load: () => import('./screens/pipelines/PipelinesPage.tsx') },
  { slug: 'merge_trains', label: 'Merge trains', icon: IconRefresh, action: 'push_code', load: () => import('./screens/merge-trains/MergeTrainsPage.tsx') },
  { slug: 'pipeline_triggers', label: 'Trigger tokens', icon: IconKey, action: 'admin_pipeline_triggers', load: () => import('./screens/pipeline-triggers/PipelineTriggersPage.tsx') },
  { slug: 'vulnerabilities', label: 'Vulnerability report', icon: IconShieldCheck, action: 'read_vulnerability', load: () => import('./screens/vulnerabilities/VulnerabilitiesPage.tsx') },
  { slug: 'dependencies', label: 'Dependencies', icon: IconBook, action: 'read_dependency', load: () => import('./screens/dependencies/DependenciesPage.tsx') },
  { slug: 'container_registry', label: 'Container registry', icon: IconFolder, action: 'read_container_image', load: () => import('./screens/container-registry/ContainerRegistryPage.tsx') },
  { slug: 'error_tracking', label: 'Errors', icon: IconFlame, action: 'read_error_tracking', load: () => import('./screens/error-tracking/ErrorTrackingPage.tsx') },
  {
    slug: 'hooks',
    label: 'Webhooks',
    icon: IconWebhook,
    action: 'admin_hooks',
    load: () => import('./screens/hooks/ProjectHooksPage.tsx'),
  },
  { slug: 'exports', label: 'Exports', icon: IconInbox, action: 'create_vulnerability_export', load: () => import('./screens/exports/ProjectExportsPage.tsx') },
];

/** Sections of the admin area, /admin[/<slug>[/…]], for administrators. */
export const adminSections: GroupSection[] = [
  { slug: '', label: 'Overview', icon: IconHome, load: () => import('./screens/admin/InstanceOverviewPage.tsx') },
  { slug: 'users', label: 'Users', icon: IconGroups, load: () => import('./screens/admin/UsersSection.tsx') },
  { slug: 'groups', label: 'Groups', icon: IconFolder, load: () => import('./screens/admin/GroupsPage.tsx') },
  { slug: 'projects', label: 'Projects', icon: IconRepo, load: () => import('./screens/admin/ProjectsPage.tsx') },
  { slug: 'hooks', label: 'System hooks', icon: IconWebhook, load: () => import('./screens/admin/SystemHooksPage.tsx') },
  { slug: 'jobs', label: 'Background jobs', icon: IconRefresh, load: () => import('./screens/admin/JobsPage.tsx') },
  { slug: 'settings', label: 'Settings', icon: IconSettings, load: () => import('./screens/admin/SettingsPage.tsx') },
  { slug: 'features', label: 'Feature flags', icon: IconFlag, load: () => import('./screens/features/FeaturesPage.tsx') },
];
