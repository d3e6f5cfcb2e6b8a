import type { Browser, BrowserContextOptions, Locator, Page } from '@playwright/test';
import { createMember, expect, expectAccessible, signInAt, test, type Account, type RootApi } from './fixtures.ts';

/**
 * axe-core on every screen and dialog of the console, each as the user who works there. A new
 * screen or dialog is one more row: where it is, who looks at it, what shows it is ready, and the
 * steps that open a dialog or menu (they return what opened, which must be visible).
 */
interface Row {
  name: string;
  url: () => string;
  /** Who looks: nobody signed in, root (the administrator), or a Maintainer of the demo project. */
  as?: 'anonymous' | 'root' | 'maintainer';
  /** Something on the screen that shows it has loaded. */
  ready: (page: Page) => Locator;
  open?: (page: Page) => Promise<Locator>;
  viewport?: { width: number; height: number };
}

const PHONE = { width: 390, height: 844 };
const TOKEN_NAME = `a11y-token-${Date.now().toString(36)}`;
let groupHookId = 0;
let projectHookId = 0;
let maintainer: Account;
/** The Umbrella group exported (its archive) and imported as a new group, whose placeholders the Placeholders rows show. */
let umbrellaArchive: Buffer;
let importedPath = '';
/** An error reported to acme/website (through the collector, as an SDK sends one), for the Errors rows. */
let trackedErrorId = 0;
/** A Maven virtual registry of acme with one upstream, for the Virtual registries rows. */
let virtualRegistryId = 0;
/** A system hook, for the System hooks row: made in beforeAll, deleted in afterAll (it would hear every other test's projects). */
let systemHookId = 0;

const h1 = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name });
const h2 = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 2, name });
const dialog = (page: Page, name?: string | RegExp) => page.getByRole('dialog', name ? { name } : undefined);
const openCreateToken = async (page: Page) => {
  await page.getByRole('button', { name: 'Create token' }).first().click();
  return dialog(page, 'Create a group access token');
};

const ROWS: Row[] = [
  { name: 'sign-in', url: () => '/sign-in', as: 'anonymous', ready: h1('Sign in to Gatehouse') },
  {
    name: 'sign-in, refused',
    url: () => '/sign-in',
    as: 'anonymous',
    ready: h1('Sign in to Gatehouse'),
    open: async (page) => {
      await page.getByLabel('Username', { exact: true }).fill('root');
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      return page.getByRole('alert').filter({ hasText: 'Invalid username or password' });
    },
  },
  { name: 'groups list', url: () => '/groups', ready: (page) => page.getByRole('table', { name: 'Groups' }) },
  { name: 'groups list on a phone', url: () => '/groups', viewport: PHONE, ready: h1('Groups') },
  {
    name: 'navigation on a phone',
    url: () => '/groups',
    viewport: PHONE,
    ready: h1('Groups'),
    open: async (page) => {
      await page.getByRole('button', { name: 'Open navigation' }).click();
      return page.getByRole('navigation', { name: 'Main navigation' });
    },
  },
  {
    name: 'account menu',
    url: () => '/groups',
    ready: h1('Groups'),
    open: async (page) => {
      await page.getByRole('button', { name: /account menu/i }).click();
      return page.getByRole('menu');
    },
  },
  { name: 'group overview', url: () => '/groups/acme', ready: h1('Acme Corp') },
  { name: 'group settings', url: () => '/groups/acme/-/settings', ready: (page) => page.getByRole('button', { name: /Save/ }).first() },
  {
    // Toasts are scanned like the rest: their colours on the page's white (a success and a refusal).
    name: 'a success toast',
    url: () => '/groups/umbrella/-/settings',
    ready: (page) => page.getByRole('button', { name: 'Save changes' }),
    open: async (page) => {
      await page.getByLabel('Description', { exact: true }).fill(`Scanned ${Date.now().toString(36)}`);
      await page.getByRole('button', { name: 'Save changes' }).click();
      return page.getByRole('alert').filter({ hasText: 'Settings saved' });
    },
  },
  {
    name: 'an error toast',
    url: () => '/groups/umbrella/-/settings',
    ready: (page) => page.getByRole('button', { name: 'Save changes' }),
    open: async (page) => {
      await page.getByLabel('Group name', { exact: true }).fill('');
      await page.getByRole('button', { name: 'Save changes' }).click();
      return page.getByRole('alert').filter({ hasText: 'Some settings need attention' });
    },
  },
  { name: 'access tokens', url: () => '/groups/umbrella/-/access_tokens', ready: (page) => page.getByRole('table', { name: 'Access tokens' }) },
  {
    name: 'create token dialog',
    url: () => '/groups/umbrella/-/access_tokens',
    ready: h2('Group access tokens'),
    open: openCreateToken,
  },
  {
    name: 'create token dialog with errors',
    url: () => '/groups/umbrella/-/access_tokens',
    ready: h2('Group access tokens'),
    open: async (page) => {
      const create = await openCreateToken(page);
      await create.getByRole('button', { name: 'Create token' }).click();
      await expect(create.getByText('Select at least one scope')).toBeVisible();
      return create;
    },
  },
  {
    name: 'reveal-once dialog',
    url: () => '/groups/umbrella/-/access_tokens',
    ready: h2('Group access tokens'),
    open: async (page) => {
      const create = await openCreateToken(page);
      await create.getByLabel('Token name').fill(`${TOKEN_NAME}-revealed`);
      await create.getByRole('checkbox', { name: 'read_api' }).check();
      await create.getByRole('button', { name: 'Create token' }).click();
      return dialog(page, 'Token created: copy it now');
    },
  },
  {
    name: 'rotate dialog',
    url: () => '/groups/umbrella/-/access_tokens',
    ready: (page) => page.getByRole('table', { name: 'Access tokens' }),
    open: async (page) => {
      await page.getByRole('button', { name: `Rotate ${TOKEN_NAME}`, exact: true }).click();
      return dialog(page, `Rotate “${TOKEN_NAME}”?`);
    },
  },
  {
    name: 'revoke confirmation',
    url: () => '/groups/umbrella/-/access_tokens',
    ready: (page) => page.getByRole('table', { name: 'Access tokens' }),
    open: async (page) => {
      await page.getByRole('button', { name: `Revoke ${TOKEN_NAME}`, exact: true }).click();
      return dialog(page, `Revoke “${TOKEN_NAME}”?`);
    },
  },
  { name: 'access tokens, inactive', url: () => '/groups/umbrella/-/access_tokens?state=inactive', ready: h2('Group access tokens') },
  { name: 'push rules', url: () => '/groups/acme/-/push_rules', ready: h2('Push rules') },
  { name: 'leaked tokens', url: () => '/groups/umbrella/-/revoke_token', ready: h2('Revoke a leaked token') },
  { name: 'group webhooks', url: () => '/groups/acme/-/hooks', ready: (page) => page.getByRole('table', { name: 'Webhooks' }) },
  {
    name: 'webhook test menu',
    url: () => '/groups/acme/-/hooks',
    ready: (page) => page.getByRole('table', { name: 'Webhooks' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Test CI notifier (demo)' }).click();
      return page.getByRole('menu');
    },
  },
  {
    name: 'webhook delete confirmation',
    url: () => '/groups/acme/-/hooks',
    ready: (page) => page.getByRole('table', { name: 'Webhooks' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Delete CI notifier (demo)' }).click();
      return dialog(page, 'Delete “CI notifier (demo)”?');
    },
  },
  { name: 'new webhook form', url: () => '/groups/acme/-/hooks/new', ready: h2('Add a webhook') },
  { name: 'edit webhook form', url: () => `/groups/acme/-/hooks/${groupHookId}/edit`, ready: h2('Edit “CI notifier (demo)”') },
  { name: 'group webhook deliveries', url: () => `/groups/acme/-/hooks/${groupHookId}/events`, ready: (page) => page.getByRole('table', { name: 'Deliveries' }) },
  {
    name: 'delivery drawer',
    url: () => `/groups/acme/-/hooks/${groupHookId}/events`,
    ready: (page) => page.getByRole('table', { name: 'Deliveries' }),
    open: async (page) => {
      await page.getByRole('button', { name: /^Details of delivery \d+/ }).first().click();
      return dialog(page, /^Delivery \d+/);
    },
  },
  { name: 'project overview', url: () => '/projects/acme/website', as: 'maintainer', ready: h1('Website') },
  { name: 'project webhooks', url: () => '/projects/acme/website/-/hooks', as: 'maintainer', ready: (page) => page.getByRole('table', { name: 'Webhooks' }) },
  {
    name: 'project webhook deliveries',
    url: () => `/projects/acme/website/-/hooks/${projectHookId}/events`,
    as: 'maintainer',
    ready: (page) => page.getByRole('table', { name: 'Deliveries' }),
  },
  { name: 'group webhooks, refused', url: () => '/groups/acme/-/hooks', as: 'maintainer', ready: (page) => page.getByRole('heading', { level: 3 }) },
  { name: 'group members', url: () => '/groups/acme/-/members', ready: (page) => page.getByRole('table', { name: 'Members' }) },
  {
    name: 'add member dialog',
    url: () => '/groups/acme/-/members',
    ready: (page) => page.getByRole('table', { name: 'Members' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Add member' }).first().click();
      return dialog(page, /Add members to/);
    },
  },
  {
    name: 'add member dialog, inviting by email',
    url: () => '/groups/acme/-/members',
    ready: (page) => page.getByRole('table', { name: 'Members' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Add member' }).first().click();
      await dialog(page, /Add members to/).getByRole('textbox', { name: 'Users or email addresses' }).fill('a11y-invitee@example.org');
      await expect(page.getByRole('option', { name: 'Invite a11y-invitee@example.org by email' })).toBeVisible();
      return dialog(page, /Add members to/);
    },
  },
  // The pending invitation is made in beforeAll.
  {
    name: 'revoke invitation dialog',
    url: () => '/groups/acme/-/members',
    ready: (page) => page.getByRole('table', { name: 'Pending invitations' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Revoke the invitation of a11y-pending@example.org' }).click();
      return dialog(page, 'Revoke the invitation of a11y-pending@example.org?');
    },
  },
  { name: 'project issues', url: () => '/projects/acme/website/-/issues', as: 'maintainer', ready: (page) => page.getByRole('table', { name: 'Open issues' }) },
  { name: 'group issues', url: () => '/groups/acme/-/issues?state=all', ready: (page) => page.getByRole('table', { name: 'All issues' }) },
  { name: 'issue page', url: () => '/projects/acme/website/-/issues/1', as: 'maintainer', ready: (page) => page.getByRole('heading', { level: 3, name: 'Comments and activity' }) },
  {
    name: 'issue edit dialog',
    url: () => '/projects/acme/website/-/issues/1',
    as: 'maintainer',
    ready: h2('Dark mode resets after sign-out'),
    open: async (page) => {
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      return dialog(page, 'Edit issue #1');
    },
  },
  {
    name: 'new issue dialog',
    url: () => '/projects/acme/website/-/issues',
    as: 'maintainer',
    ready: (page) => page.getByRole('table', { name: 'Open issues' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'New issue' }).click();
      return dialog(page, 'New issue');
    },
  },
  {
    name: 'comment delete dialog',
    url: () => '/projects/acme/website/-/issues/1',
    as: 'maintainer',
    ready: (page) => page.getByRole('list', { name: 'Comments' }),
    open: async (page) => {
      await page.getByRole('button', { name: /^Delete the comment by / }).first().click();
      return dialog(page, 'Delete this comment?');
    },
  },
  { name: 'project members', url: () => '/projects/acme/website/-/members', as: 'maintainer', ready: (page) => page.getByRole('table', { name: 'Members' }) },
  { name: 'pipelines', url: () => '/projects/acme/website/-/pipelines', as: 'maintainer', ready: (page) => page.getByRole('table', { name: 'Pipelines' }) },
  { name: 'vulnerability report', url: () => '/projects/acme/website/-/vulnerabilities', as: 'maintainer', ready: (page) => page.getByRole('table', { name: 'Vulnerabilities' }) },
  { name: 'vulnerability with its dismiss dialog', url: () => '/projects/acme/website/-/vulnerabilities?severity=critical', as: 'maintainer', ready: (page) => page.getByRole('table', { name: 'Vulnerabilities' }), open: async (page) => {
    await page.getByRole('table', { name: 'Vulnerabilities' }).getByRole('link').first().click();
    await page.getByRole('button', { name: 'Dismiss…' }).click();
    return page.getByRole('dialog', { name: 'Dismiss vulnerability' });
  } },
  { name: 'dependencies', url: () => '/projects/acme/website/-/dependencies', as: 'maintainer', ready: (page) => page.getByRole('table', { name: 'Dependencies' }) },
  // The rule is made in beforeAll; no registry runs here, so the screen says none is connected.
  { name: 'container registry', url: () => '/projects/acme/website/-/container_registry', as: 'maintainer', ready: (page) => page.getByRole('table', { name: 'Protection rules' }) },
  {
    name: 'container registry, add-rule dialog',
    url: () => '/projects/acme/website/-/container_registry',
    as: 'maintainer',
    ready: (page) => page.getByRole('table', { name: 'Protection rules' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Add rule' }).click();
      return dialog(page, 'Add a protection rule');
    },
  },
  // The registry and its upstream are made in beforeAll (the upstream is never contacted here).
  { name: 'virtual registry', url: () => `/groups/acme/-/virtual_registries/${virtualRegistryId}`, ready: (page) => page.getByRole('table', { name: /^Upstreams of / }) },
  {
    name: 'virtual registry, add-upstream dialog',
    url: () => `/groups/acme/-/virtual_registries/${virtualRegistryId}`,
    ready: (page) => page.getByRole('table', { name: /^Upstreams of / }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Add upstream' }).click();
      return dialog(page, 'Add an upstream');
    },
  },
  { name: 'pipeline', url: () => '/projects/acme/website/-/pipelines?source=trigger', as: 'maintainer', ready: (page) => page.getByRole('table', { name: 'Pipelines' }), open: async (page) => {
    await page.getByRole('table', { name: 'Pipelines' }).getByRole('link').first().click();
    return page.getByRole('table', { name: 'Jobs' });
  } },
  {
    name: 'pipeline trigger tokens',
    url: () => '/projects/acme/website/-/pipeline_triggers',
    as: 'maintainer',
    ready: (page) => page.getByRole('table', { name: 'Pipeline trigger tokens' }),
  },
  {
    name: 'created trigger token with its curl example',
    url: () => '/projects/acme/website/-/pipeline_triggers',
    as: 'maintainer',
    ready: (page) => page.getByRole('table', { name: 'Pipeline trigger tokens' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Create trigger token' }).first().click();
      await dialog(page, 'Create a pipeline trigger token').getByRole('textbox', { name: 'Description' }).fill('a11y');
      await dialog(page, 'Create a pipeline trigger token').getByRole('button', { name: 'Create trigger token' }).click();
      return dialog(page, 'Trigger token created');
    },
  },
  { name: 'project repository', url: () => '/projects/acme/website/-/repository', as: 'maintainer', ready: (page) => page.getByRole('table', { name: 'Branches' }) },
  { name: 'project repository tags', url: () => '/projects/acme/website/-/repository?refs=tags', ready: (page) => page.getByRole('table', { name: 'Tags' }) },
  {
    name: 'deploy tokens',
    url: () => '/groups/acme/-/deploy_tokens',
    ready: (page) => page.getByRole('table', { name: 'Deploy tokens' }).or(page.getByRole('heading', { name: 'No active deploy tokens' })),
  },
  {
    name: 'create deploy token dialog',
    url: () => '/groups/acme/-/deploy_tokens',
    ready: (page) => page.getByRole('table', { name: 'Deploy tokens' }).or(page.getByRole('heading', { name: 'No active deploy tokens' })),
    open: async (page) => {
      await page.getByRole('button', { name: 'Create deploy token' }).first().click();
      return dialog(page, 'Create a deploy token');
    },
  },
  { name: 'merge requests', url: () => '/projects/acme/website/-/merge_requests?state=all', as: 'maintainer', ready: (page) => page.getByRole('table', { name: 'All merge requests' }) },
  { name: 'group merge requests', url: () => '/groups/acme/-/merge_requests', ready: (page) => page.getByRole('table', { name: 'Open merge requests' }) },
  { name: 'merge request overview', url: () => '/projects/acme/website/-/merge_requests/4', as: 'maintainer', ready: (page) => page.getByRole('region', { name: 'Merge', exact: true }) },
  {
    name: 'merge request edit dialog',
    url: () => '/projects/acme/website/-/merge_requests/4',
    as: 'maintainer',
    ready: (page) => page.getByRole('region', { name: 'Approvals' }).getByRole('button', { name: 'Approve' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Edit merge request' }).click();
      return dialog(page, 'Edit merge request !4');
    },
  },
  {
    name: 'merge request merge dialog',
    url: () => '/projects/acme/website/-/merge_requests/1',
    as: 'maintainer',
    ready: (page) => page.getByRole('region', { name: 'Merge', exact: true }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Merge', exact: true }).click();
      return dialog(page, /^Merge !1 into /);
    },
  },
  {
    name: 'merge request changes, a long file shown',
    url: () => '/projects/acme/website/-/merge_requests/4/diffs',
    as: 'maintainer',
    ready: (page) => page.getByRole('region', { name: 'File src/pricing/catalogue.js' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Show file' }).click();
      return page.getByRole('table', { name: 'Changes of src/pricing/catalogue.js' });
    },
  },
  { name: 'milestones', url: () => '/groups/acme/-/milestones', ready: (page) => page.getByRole('table', { name: 'Open milestones' }) },
  { name: 'project milestones', url: () => '/projects/acme/website/-/milestones', as: 'maintainer', ready: h2('Milestones') },
  {
    name: 'new milestone dialog',
    url: () => '/groups/acme/-/milestones',
    ready: (page) => page.getByRole('table', { name: 'Open milestones' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'New milestone' }).first().click();
      return dialog(page, 'New milestone');
    },
  },
  { name: 'milestone with charts', url: () => '/groups/acme/-/milestones/2', ready: (page) => page.getByRole('heading', { name: 'Burnup chart' }) },
  { name: 'iterations', url: () => '/groups/acme/-/iterations', ready: (page) => page.getByRole('region', { name: 'Cadence Two-week sprints' }).getByRole('region', { name: /^Open issues of / }).getByRole('list') },
  { name: 'new subgroup', url: () => '/groups/acme/-/new_subgroup', ready: (page) => page.getByRole('form', { name: 'New subgroup' }) },
  { name: 'new project', url: () => '/groups/acme/-/new_project', ready: (page) => page.getByRole('form', { name: 'New project' }) },
  { name: 'new group', url: () => '/groups/new', ready: (page) => page.getByRole('form', { name: 'New group' }) },
  { name: 'group export, ready to download', url: () => '/groups/umbrella/-/settings', ready: (page) => page.getByRole('region', { name: 'Export group' }).getByRole('link', { name: 'Download export' }) },
  {
    name: 'import group, a refused archive',
    url: () => '/groups/new?import=1',
    ready: (page) => page.getByRole('form', { name: 'Import group' }),
    open: async (page) => {
      const form = page.getByRole('form', { name: 'Import group' });
      await form.locator('input[type="file"]').setInputFiles({ name: 'not-an-archive.tar.gz', mimeType: 'application/gzip', buffer: Buffer.from('not gzip') });
      await form.getByLabel('Group name').fill(`Refused ${Date.now().toString(36)}`);
      await form.getByRole('button', { name: 'Import group' }).click();
      return form.getByRole('alert').filter({ hasText: 'The archive was refused' });
    },
  },
  {
    name: 'import group, finished',
    url: () => '/groups/new?import=1',
    ready: (page) => page.getByRole('form', { name: 'Import group' }),
    open: async (page) => {
      const form = page.getByRole('form', { name: 'Import group' });
      await form.locator('input[type="file"]').setInputFiles({ name: 'umbrella.tar.gz', mimeType: 'application/gzip', buffer: umbrellaArchive });
      await form.getByLabel('Group name').fill(`A11y import ${Date.now().toString(36)}`);
      await form.getByRole('button', { name: 'Import group' }).click();
      return page.getByRole('link', { name: 'Open group' });
    },
  },
  { name: 'placeholders', url: () => `/groups/${importedPath}/-/placeholders`, ready: (page) => page.getByRole('table', { name: 'Placeholder users awaiting reassignment' }) },
  {
    name: 'placeholders, a refused CSV',
    url: () => `/groups/${importedPath}/-/placeholders`,
    ready: (page) => page.getByRole('table', { name: 'Placeholder users awaiting reassignment' }),
    open: async (page) => {
      const form = page.getByRole('form', { name: 'Upload the filled-in CSV' });
      await form.locator('input[type="file"]').setInputFiles({ name: 'filled.csv', mimeType: 'text/csv', buffer: Buffer.from('Name,Username\nsomeone,someone\n') });
      await form.getByRole('button', { name: 'Upload and reassign' }).click();
      return page.getByRole('alert').filter({ hasText: 'The CSV file was refused' });
    },
  },
  {
    name: 'personal access tokens',
    url: () => '/user/access_tokens',
    ready: (page) => page.getByRole('table', { name: 'Personal access tokens' }).or(page.getByRole('heading', { name: 'No active personal access tokens' })),
  },
  {
    name: 'create personal access token dialog',
    url: () => '/user/access_tokens',
    ready: (page) => page.getByRole('table', { name: 'Personal access tokens' }).or(page.getByRole('heading', { name: 'No active personal access tokens' })),
    open: async (page) => {
      await page.getByRole('button', { name: 'Create token' }).first().click();
      return dialog(page, 'Create a personal access token');
    },
  },
  { name: 'admin overview', url: () => '/admin', ready: (page) => page.getByRole('heading', { name: 'Instance overview' }) },
  { name: 'admin users', url: () => '/admin/users', ready: (page) => page.getByRole('table', { name: 'Users' }) },
  {
    name: 'admin new user dialog',
    url: () => '/admin/users',
    ready: (page) => page.getByRole('table', { name: 'Users' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'New user' }).first().click();
      return dialog(page, 'New user');
    },
  },
  { name: 'admin groups', url: () => '/admin/groups', ready: (page) => page.getByRole('table', { name: 'Groups' }) },
  {
    name: 'admin delete group dialog',
    url: () => '/admin/groups',
    ready: (page) => page.getByRole('table', { name: 'Groups' }),
    open: async (page) => {
      await page.getByRole('table', { name: 'Groups' }).getByRole('button', { name: /^Delete / }).first().click();
      return page.getByRole('dialog', { name: /^Delete / });
    },
  },
  { name: 'admin projects', url: () => '/admin/projects', ready: (page) => page.getByRole('table', { name: 'Projects' }) },
  {
    name: 'admin transfer project dialog',
    url: () => '/admin/projects',
    ready: (page) => page.getByRole('table', { name: 'Projects' }),
    open: async (page) => {
      await page.getByRole('table', { name: 'Projects' }).getByRole('button', { name: /^Transfer / }).first().click();
      return page.getByRole('dialog', { name: /^Transfer / });
    },
  },
  { name: 'admin system hooks', url: () => '/admin/hooks', ready: (page) => page.getByRole('table', { name: 'Webhooks' }) },
  { name: 'admin background jobs', url: () => '/admin/jobs', ready: (page) => page.getByRole('table', { name: 'Background jobs' }) },
  { name: 'admin settings', url: () => '/admin/settings', ready: (page) => page.getByRole('form', { name: 'Instance settings' }) },
  { name: 'admin settings, repositories topic', url: () => '/admin/settings/repositories', ready: (page) => page.getByRole('form', { name: 'Instance settings: Repositories' }) },
  { name: 'admin settings, sign-in topic', url: () => '/admin/settings/sign-in', ready: (page) => page.getByRole('region', { name: 'Sign-in limits' }) },
  { name: 'admin settings, new accounts topic', url: () => '/admin/settings/accounts', ready: (page) => page.getByRole('form', { name: 'Instance settings: New accounts' }) },
  { name: 'admin feature flags', url: () => '/admin/features', ready: (page) => page.getByRole('table', { name: 'Feature flags' }) },
  {
    name: 'admin feature flag gate dialog',
    url: () => '/admin/features',
    ready: (page) => page.getByRole('table', { name: 'Feature flags' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Turn vulnerabilities_pdf_export on for a user, group or project' }).click();
      return dialog(page, 'Turn vulnerabilities_pdf_export on for…');
    },
  },
  { name: 'admin area, refused', url: () => '/admin', as: 'maintainer', ready: (page) => page.getByRole('heading', { name: 'Only administrators can open the admin area' }) },
  { name: 'not found', url: () => '/no-such-page', ready: (page) => page.getByRole('heading', { name: 'Page not found' }) },
  { name: 'project exports', url: () => '/projects/acme/website/-/exports', as: 'maintainer', ready: (page) => page.getByRole('button', { name: 'Start export' }) },
  { name: 'group exports', url: () => '/groups/acme/-/exports', ready: (page) => page.getByRole('button', { name: 'Start export' }) },
  { name: 'dashboard exports', url: () => '/security/exports', ready: (page) => page.getByRole('button', { name: 'Start export' }) },
  {
    // The maintainer puts the project on their security dashboard, so the dashboard's report lists its findings.
    name: 'security dashboard vulnerabilities',
    url: () => '/projects/acme/website/-/vulnerabilities',
    as: 'maintainer',
    ready: (page) => page.getByRole('switch', { name: 'On my security dashboard' }),
    open: async (page) => {
      const toggle = page.getByRole('switch', { name: 'On my security dashboard' });
      await expect(toggle).toBeEnabled();
      if (!(await toggle.isChecked())) await toggle.click();
      await expect(toggle).toBeChecked();
      await page.goto('/security/vulnerabilities');
      return page.getByRole('table', { name: 'Vulnerabilities of your dashboard’s projects' });
    },
  },
  { name: 'group vulnerability report', url: () => '/groups/acme/-/vulnerabilities?state=all', ready: (page) => page.getByRole('table', { name: 'Vulnerabilities of the group’s projects' }) },
  {
    name: 'vulnerability report with an export in progress',
    url: () => '/projects/acme/website/-/vulnerabilities?severity=critical',
    as: 'maintainer',
    ready: (page) => page.getByRole('table', { name: 'Vulnerabilities' }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      await page.getByRole('menuitem', { name: /^CSV/ }).click();
      return page.getByLabel('Export progress');
    },
  },
  { name: 'errors list', url: () => '/projects/acme/website/-/error_tracking', as: 'maintainer', ready: (page) => page.getByRole('table', { name: 'Unresolved errors' }) },
  { name: 'an error with its stack trace', url: () => `/projects/acme/website/-/error_tracking/${trackedErrorId}`, as: 'maintainer', ready: (page) => page.getByRole('list', { name: 'Stack trace' }) },
  {
    name: 'error tracking settings with the revoke dialog',
    url: () => '/projects/acme/website/-/error_tracking/settings',
    as: 'maintainer',
    ready: (page) => page.getByRole('table', { name: 'Client keys' }),
    open: async (page) => {
      await page.getByRole('button', { name: /^Revoke key glet_/ }).first().click();
      return dialog(page, /^Revoke key glet_/);
    },
  },
];

test.beforeAll(async ({ api }) => {
  // A pending invitation of acme, for the members screen's Pending invitations rows.
  expect((await api<{ status: string }>('POST', '/groups/acme/invitations', { email: 'a11y-pending@example.org', access_level: 30 })).json.status).toMatch(/success|error/);
  const groupHooks = await api<{ id: number }[]>('GET', '/groups/acme/hooks');
  const projectHooks = await api<{ id: number }[]>('GET', `/projects/${encodeURIComponent('acme/website')}/hooks`);
  expect(groupHooks.json.length).toBeGreaterThan(0);
  expect(projectHooks.json.length).toBeGreaterThan(0);
  groupHookId = groupHooks.json[0].id;
  projectHookId = projectHooks.json[0].id;
  // Pointed at a closed local port (saved while local requests are allowed, then refused again as
  // before): its deliveries fail at once, and it chooses no project events.
  const LOCAL = 'allow_local_requests_from_web_hooks_and_services';
  const localBefore = (await api<Record<string, boolean>>('GET', '/application/settings')).json[LOCAL];
  expect((await api('PUT', '/application/settings', { [LOCAL]: true })).status).toBe(200);
  const systemHook = await api<{ id: number }>('POST', '/hooks', { url: 'http://127.0.0.1:9/a11y-system-hook', name: 'A11y system hook' });
  expect((await api('PUT', '/application/settings', { [LOCAL]: localBefore })).status).toBe(200);
  expect(systemHook.status, JSON.stringify(systemHook.json)).toBe(201);
  systemHookId = systemHook.json.id;
  const token = await api('POST', '/groups/umbrella/access_tokens', { name: TOKEN_NAME, scopes: ['read_api'] });
  expect(token.status).toBe(201);
  maintainer = await createMember({ scope: 'projects', id: 'acme/website' }, 'maintainer', 'a11y');
  ({ archive: umbrellaArchive, importedPath } = await exportAndImport('umbrella', api));
  trackedErrorId = await reportError(api);
  const rule = await api('POST', `/projects/${encodeURIComponent('acme/website')}/registry/protection/repository/rules`, { repository_path_pattern: 'acme/website/prod-*', minimum_access_level_for_push: 'maintainer' });
  expect(rule.status).toBe(201);
  const registry = await api<{ id: number }>('POST', '/groups/acme/-/virtual_registries/packages/maven/registries', { name: `a11y-${Date.now().toString(36)}`, description: 'Scanned by axe' });
  expect(registry.status).toBe(201);
  virtualRegistryId = registry.json.id;
  const upstream = await api('POST', `/virtual_registries/packages/maven/registries/${virtualRegistryId}/upstreams`, { url: 'https://1.1.1.1/maven2', name: 'Public mirror', username: 'reader', password: 'a11y-secret' });
  expect(upstream.status).toBe(201);
});

/** Turns error tracking on for acme/website and reports one exception with a stack trace to its collector, as an SDK's store request; its error's id. */
async function reportError(api: RootApi): Promise<number> {
  const project = 'acme%2Fwebsite';
  expect((await api('PUT', `/projects/${project}/error_tracking/settings`, { active: true, integrated: true })).status).toBe(200);
  const key = await api<{ public_key: string }>('POST', `/projects/${project}/error_tracking/client_keys`);
  expect(key.status).toBe(201);
  const { json: site } = await api<{ id: number }>('GET', `/projects/${project}`);
  const frames = [
    { filename: 'node:internal/process/task_queues', function: 'processTicksAndRejections', lineno: 95, in_app: false },
    { filename: '/app/node_modules/express/lib/router/layer.js', function: 'Layer.handle', lineno: 95, in_app: false },
    { filename: '/app/src/cart.js', function: 'checkout', lineno: 12, pre_context: ['function checkout(cart) {'], context_line: '  return cart.items.map(price);', post_context: ['}'], in_app: true },
  ];
  const event = { event_id: crypto.randomUUID().replaceAll('-', ''), platform: 'node', level: 'error', user: { id: 'a11y-user' }, exception: { values: [{ type: 'TypeError', value: 'cart.items is undefined', stacktrace: { frames } }] } };
  const res = await fetch(`${process.env.E2E_BASE_URL}/api/v4/error_tracking/collector/api/${site.id}/store?sentry_key=${key.json.public_key}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(event) });
  expect(res.status).toBe(200);
  const errors = await api<{ id: number }[]>('GET', `/projects/${project}/error_tracking/errors?query=${encodeURIComponent('cart.items is undefined')}`);
  expect(errors.json.length).toBeGreaterThan(0);
  return errors.json[0].id;
}

test.afterAll(async ({ api }) => {
  if (systemHookId) await api('DELETE', `/hooks/${systemHookId}`);
});

/** Exports a group, waits for its archive, imports it under a new top-level path and waits for the import to finish. */
async function exportAndImport(group: string, api: RootApi): Promise<{ archive: Buffer; importedPath: string }> {
  const ask = (path: string, init: RequestInit = {}) => fetch(`${process.env.E2E_BASE_URL}/api/v4${path}`, { ...init, headers: { 'PRIVATE-TOKEN': process.env.E2E_ROOT_TOKEN! } });
  expect((await api('POST', `/groups/${group}/export`)).status).toBe(202);
  let archive: Buffer | null = null;
  await expect.poll(async () => {
    const res = await ask(`/groups/${group}/export/download`);
    if (res.ok) archive = Buffer.from(await res.arrayBuffer());
    return res.status;
  }, { timeout: 30_000 }).toBe(200);
  const path = `a11y-import-${Date.now().toString(36)}`;
  const form = new FormData();
  form.set('name', `A11y import ${path}`);
  form.set('path', path);
  form.set('file', new Blob([new Uint8Array(archive!)]), 'export.tar.gz');
  expect((await ask('/groups/import', { method: 'POST', body: form })).status).toBe(202);
  await expect.poll(async () => (await api<{ import_status?: string }>('GET', `/groups/${path}`)).json.import_status, { timeout: 30_000 }).toBe('finished');
  return { archive: archive!, importedPath: path };
}

/** Each role signs in once per run; its rows start from that session (signing in is made slow on purpose). */
const sessions = new Map<string, BrowserContextOptions['storageState']>();
async function sessionOf(browser: Browser, as: Row['as']) {
  if (as === 'anonymous') return undefined;
  const who = as ?? 'root';
  if (!sessions.has(who)) {
    const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    await signInAt(await context.newPage(), '/groups', who === 'maintainer' ? maintainer : undefined);
    sessions.set(who, await context.storageState());
    await context.close();
  }
  return sessions.get(who);
}

/**
 * One tab per role, kept for the rows that follow (each row loads its screen afresh): a user
 * going from screen to screen, and the console's assets loaded once per role rather than per row.
 */
const tabs = new Map<string, Page>();
async function tabOf(browser: Browser, as: Row['as']) {
  const who = as ?? 'root';
  if (!tabs.has(who)) {
    const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, storageState: await sessionOf(browser, as) });
    tabs.set(who, await context.newPage());
  }
  return tabs.get(who)!;
}
test.afterAll(async () => {
  for (const tab of tabs.values()) await tab.context().close();
  tabs.clear();
});

/**
 * Opens `url` in the tab. A tab already showing another address of the console goes there as a
 * link would, in the app already running (the router's own navigation): no reload of the app per
 * row. Every element on the screen before is marked, and what the row waits for must be new, so
 * nothing is scanned before the new screen is drawn. The same screen (a row that opened a dialog
 * or a menu there, or another query of it: the screen stays, drawn over) is loaded afresh.
 * Returns the locator of elements drawn since.
 */
async function visit(page: Page, url: string): Promise<Locator> {
  const fresh = page.locator(':not([data-scanned-before])');
  const here = page.url().startsWith(process.env.E2E_BASE_URL!) ? new URL(page.url()) : null;
  if (!here || here.pathname === new URL(url, here).pathname) {
    await page.goto(url);
    return fresh;
  }
  await page.evaluate((to) => {
    for (const element of document.body.querySelectorAll('*')) element.setAttribute('data-scanned-before', '');
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, url);
  return fresh;
}

test.describe('Accessibility (axe-core, WCAG 2.1 AA)', () => {
  // A full-page scan is slow on a busy machine; the verdict does not depend on time.
  test.describe.configure({ timeout: 120_000 });
  for (const row of ROWS) {
    test(`${row.name}${row.as && row.as !== 'root' ? ` as ${row.as === 'anonymous' ? 'a visitor' : 'a Maintainer'}` : ''}`, async ({ browser }) => {
      const page = await tabOf(browser, row.as);
      await page.setViewportSize(row.viewport ?? { width: 1280, height: 800 });
      const fresh = await visit(page, row.url());
      // Generous waits: screens load slowly on a busy machine, and only what axe finds decides.
      await expect(row.ready(page).and(fresh)).toBeVisible({ timeout: 60_000 });
      if (row.open) await expect(await row.open(page)).toBeVisible({ timeout: 30_000 });
      await expectAccessible(page, row.name);
    });
  }
});

test.describe('Orientation', () => {
  test('the Groups entry of the navigation is current on a project page', async ({ page }) => {
    await signInAt(page, '/projects/acme/website');
    await expect(page.getByRole('heading', { level: 1, name: 'Website' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Groups' })).toHaveAttribute('aria-current', 'true');
  });
});
