import path from 'node:path';
import { openDb } from '../bff/src/db/index.ts';
import { createUser, expect, signInAt, test } from './fixtures.ts';
import { Receiver } from './hooks-support.ts';

const receiver = new Receiver();
const suffix = Date.now().toString(36);
const GROUP_PATH = `admin-e2e-${suffix}`;
const LOCAL = 'allow_local_requests_from_web_hooks_and_services';
let groupId: number;
let allowedLocalBefore = false;

test.beforeAll(async ({ api }) => {
  await receiver.start();
  allowedLocalBefore = (await api<Record<string, boolean>>('GET', '/application/settings')).json[LOCAL];
  const group = await api<{ id: number }>('POST', '/groups', { name: `Admin E2E ${suffix}`, path: GROUP_PATH, visibility: 'private' });
  expect(group.status).toBe(201);
  groupId = group.json.id;
  // The hook is saved while local requests are allowed; the test below starts with them refused.
  expect((await api('PUT', '/application/settings', { [LOCAL]: true })).status).toBe(200);
  const hook = await api('POST', `/groups/${groupId}/hooks`, { url: `http://127.0.0.1:${receiver.port}/admin-e2e`, name: 'Local receiver', push_events: true });
  expect(hook.status).toBe(201);
});

test.afterAll(async ({ api }) => {
  await api('PUT', '/application/settings', { [LOCAL]: allowedLocalBefore });
  await receiver.stop();
});

test.describe('Admin area', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });

  test('an administrator allows local webhook requests from the admin area', async ({ rootPage: page, api }) => {
    expect((await api('PUT', '/application/settings', { [LOCAL]: false })).status).toBe(200);
    const sendTest = async () => {
      await page.goto(`/groups/${GROUP_PATH}/-/hooks`);
      await page.getByRole('button', { name: 'Test Local receiver' }).click();
      await page.getByRole('menuitem', { name: 'Push events', exact: true }).click();
    };

    // Refused while local requests are not allowed: nothing reaches the receiver.
    await sendTest();
    await expect(page.getByText('Test failed: Push events')).toBeVisible();
    await expect(page.getByText(/Requests to the local network are not allowed/)).toBeVisible();
    expect(receiver.requests).toHaveLength(0);

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Admin' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/admin\/settings$/);
    await page.getByRole('navigation', { name: 'Settings topics' }).getByRole('link', { name: 'Webhooks and outbound requests' }).click();
    await expect(page).toHaveURL(/\/admin\/settings\/outbound$/);
    const allow = page.getByRole('switch', { name: 'Allow requests to the local network from webhooks' });
    await expect(allow).not.toBeChecked();
    await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    await allow.check();
    await expect(page.getByText('Unsaved changes')).toBeVisible();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Settings saved')).toBeVisible();
    await expect(page.getByText('No unsaved changes')).toBeVisible();
    // Saved on the server, and only what changed was sent.
    const saved = await api<Record<string, boolean>>('GET', '/application/settings');
    expect(saved.json[LOCAL]).toBe(true);
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Allow requests to the local network from webhooks' })).toBeChecked();

    // The same test now reaches the receiver on 127.0.0.1.
    await sendTest();
    await expect(page.getByText('Test delivered: Push events')).toBeVisible();
    expect(receiver.byEvent('Push Hook')).toHaveLength(1);

    // System hooks: the instance's webhooks, in the admin area, with the webhook screens.
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'System hooks' }).click();
    await expect(page).toHaveURL(/\/admin\/hooks$/);
    await page.getByRole('link', { name: 'Add webhook' }).first().click();
    await expect(page).toHaveURL(/\/admin\/hooks\/new$/);
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByRole('textbox', { name: 'URL', exact: true }).fill(`http://127.0.0.1:${receiver.port}/system-e2e`);
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill(`Instance receiver ${suffix}`);
    // Only a system hook's events are offered: the platform's four, no branch filter.
    await expect(form.getByRole('group', { name: 'Repository' }).getByRole('checkbox')).toHaveCount(3);
    await expect(form.getByRole('checkbox', { name: /Merge request events/ })).toHaveCount(1);
    await expect(form.getByRole('checkbox', { name: 'Member events' })).toHaveCount(0);
    await form.getByRole('checkbox', { name: 'Tag push events' }).check();
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await expect(page).toHaveURL(/\/admin\/hooks$/);
    const sysTitle = `Instance receiver ${suffix}`;
    const sysRow = page.getByRole('table', { name: 'Webhooks' }).getByRole('row', { name: new RegExp(sysTitle) });
    await expect(sysRow).toContainText('Tag push events');
    await expect(sysRow).toContainText('No deliveries in the past 7 days');
    // Its test is a sample system event; the health column then counts it.
    await sysRow.getByRole('button', { name: `Test ${sysTitle}` }).click();
    await expect(page.getByText('Test sent: a sample project_create event')).toBeVisible();
    await expect.poll(() => receiver.requests.filter((r) => r.path === '/system-e2e' && JSON.parse(r.body).event_name === 'project_create').length).toBeGreaterThanOrEqual(1);
    await expect(sysRow).toContainText('succeeded');
    // Its delivery log, with the delivery and a resend.
    await sysRow.getByRole('link', { name: `Deliveries of ${sysTitle}` }).click();
    await expect(page).toHaveURL(/\/admin\/hooks\/\d+\/events$/);
    await expect(page.getByRole('heading', { name: `Deliveries of “${sysTitle}”` })).toBeVisible();
    const sysLog = page.getByRole('table', { name: 'Deliveries' });
    await sysLog.getByRole('button', { name: /^Details of delivery \d+: System events$/ }).first().click();
    const sysDrawer = page.getByRole('dialog', { name: /^Delivery \d+ · System events$/ });
    const before = receiver.requests.filter((r) => r.path === '/system-e2e').length;
    await sysDrawer.getByRole('button', { name: 'Resend' }).click();
    await expect(sysDrawer.getByText('Resent: HTTP 200')).toBeVisible();
    expect(receiver.requests.filter((r) => r.path === '/system-e2e').length).toBeGreaterThan(before);
    await page.keyboard.press('Escape');
    // Deleted again, so that it hears no other test's projects.
    await page.getByRole('link', { name: /All webhooks/ }).first().click();
    await page.getByRole('button', { name: `Delete ${sysTitle}` }).click();
    await page.getByRole('dialog', { name: `Delete “${sysTitle}”?` }).getByRole('button', { name: 'Delete webhook' }).click();
    await expect(page.getByText(sysTitle)).toHaveCount(0);

    // The New accounts topic: what a user an administrator creates may do.
    await page.goto('/admin/settings/accounts');
    const groupsSwitch = page.getByRole('switch', { name: 'New users can create top-level groups' });
    await expect(groupsSwitch).toBeChecked();
    await groupsSwitch.uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Settings saved')).toBeVisible();
    expect((await api<Record<string, boolean>>('GET', '/application/settings')).json.can_create_group).toBe(false);
    expect((await api('PUT', '/application/settings', { can_create_group: true })).status).toBe(200);
  });

  test('shows the sign-in limits read-only, and the instance overview with a refresh', async ({ rootPage: page, api }) => {
    await page.goto('/admin/settings');
    await page.getByRole('navigation', { name: 'Settings topics' }).getByRole('link', { name: 'Sign-in and sessions' }).click();
    const limits = page.getByRole('region', { name: 'Sign-in limits' });
    await expect(limits.getByText('10 in 10 minutes')).toBeVisible();
    await expect(limits.getByText('50 in 10 minutes')).toBeVisible();
    await expect(limits.getByRole('switch')).toHaveCount(0);

    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(page.getByRole('heading', { name: 'Instance overview' })).toBeVisible();
    const groups = page.getByRole('region', { name: 'Contents' }).locator('dl').filter({ hasText: 'Groups' }).locator('dd').first();
    const before = Number((await groups.textContent())!.replace(/\D/g, ''));
    expect((await api('POST', '/groups', { name: `Counted ${suffix}`, path: `counted-${suffix}` })).status).toBe(201);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(groups).toHaveText((before + 1).toLocaleString('en-US'));
    await expect(page.getByText('SQLite', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Job queue' }).getByText('Failed jobs')).toBeVisible();
  });

  test('an administrator creates a user, blocks and unblocks them, makes them an administrator, and manages their tokens', async ({ rootPage: page, api }) => {
    const taken = await createUser('taken');
    const username = `admin-made-${suffix}`;
    await page.goto('/admin/users');
    await page.getByRole('button', { name: 'New user' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await expect(dialog.getByText('Enter a password, or choose a random one')).toBeVisible();
    await dialog.getByRole('textbox', { name: /^Name\b/ }).fill('Made By Admin');
    await dialog.getByRole('textbox', { name: /^Username\b/ }).fill(taken.username);
    await dialog.getByRole('textbox', { name: /^Email\b/ }).fill(`${username}@example.com`);
    await dialog.getByLabel('Initial password').fill('made-by-admin-1');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    // The taken username comes back as a 409 and lands under its field.
    await expect(dialog.getByText('Username has already been taken')).toBeVisible();
    await dialog.getByRole('textbox', { name: /^Username\b/ }).fill(username);
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await expect(page.getByText('User created')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Made By Admin' })).toBeVisible();
    const created = await api<{ id: number; state: string; is_admin: boolean }[]>('GET', `/users?username=${username}`);
    expect(created.json).toHaveLength(1);
    const id = created.json[0].id;
    await expect(page).toHaveURL(new RegExp(`/admin/users/${id}$`));

    // Block, with a confirmation that says what blocking does.
    await page.getByRole('button', { name: 'Block user' }).click();
    const confirm = page.getByRole('dialog', { name: `Block @${username}?` });
    await expect(confirm.getByText(/signed out everywhere/)).toBeVisible();
    await confirm.getByRole('button', { name: 'Block user' }).click();
    await expect(page.getByText('User blocked')).toBeVisible();
    expect((await api<{ state: string }>('GET', `/users/${id}`)).json.state).toBe('blocked');

    // The list filters by state in the URL.
    await page.goto(`/admin/users?state=blocked&search=${username}`);
    await expect(page.getByLabel('Show')).toHaveValue('blocked');
    await expect(page.getByRole('table', { name: 'Users' }).getByRole('link', { name: 'Made By Admin' })).toBeVisible();
    await page.getByLabel('Show').selectOption('active');
    await expect(page).toHaveURL(/state=active/);
    await expect(page.getByRole('heading', { name: 'No users match' })).toBeVisible();
    await page.goto(`/admin/users/${id}`);

    await page.getByRole('button', { name: 'Unblock user' }).click();
    await page.getByRole('dialog', { name: `Unblock @${username}?` }).getByRole('button', { name: 'Unblock user' }).click();
    await expect(page.getByText('User unblocked')).toBeVisible();
    expect((await api<{ state: string }>('GET', `/users/${id}`)).json.state).toBe('active');

    await page.getByRole('button', { name: 'Make administrator' }).click();
    await page.getByRole('dialog', { name: `Make @${username} an administrator?` }).getByRole('button', { name: 'Make administrator' }).click();
    await expect(page.getByText('Administrator added')).toBeVisible();
    expect((await api<{ is_admin: boolean }>('GET', `/users/${id}`)).json.is_admin).toBe(true);
    await page.getByRole('button', { name: 'Remove administrator' }).click();
    await page.getByRole('dialog', { name: /Remove the administrator access/ }).getByRole('button', { name: 'Remove administrator' }).click();
    await expect(page.getByText('Administrator removed')).toBeVisible();
    expect((await api<{ is_admin: boolean }>('GET', `/users/${id}`)).json.is_admin).toBe(false);

    // A token for them: shown once, listed, revoked.
    const tokens = page.getByRole('region', { name: 'Personal access tokens' });
    await expect(tokens.getByRole('heading', { name: 'No active personal access tokens' })).toBeVisible();
    await tokens.getByRole('button', { name: 'Create token' }).click();
    const form = page.getByRole('dialog', { name: `New token for @${username}` });
    await form.getByRole('textbox', { name: /^Token name\b/ }).fill('deploy script');
    await form.getByRole('checkbox', { name: 'read_api' }).check();
    await form.getByRole('button', { name: 'Create token' }).click();
    const reveal = page.getByRole('dialog', { name: 'Token created: copy it now' });
    const plaintext = await reveal.getByLabel('New token “deploy script”').inputValue();
    const self = await fetch(`${process.env.E2E_BASE_URL}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': plaintext } });
    expect(((await self.json()) as { username: string }).username).toBe(username);
    await reveal.getByRole('button', { name: 'I have copied it' }).click();
    await tokens.getByRole('button', { name: 'Revoke deploy script' }).click();
    await page.getByRole('dialog', { name: 'Revoke “deploy script”?' }).getByRole('button', { name: 'Revoke token' }).click();
    await expect(page.getByText('Token revoked')).toBeVisible();
    await expect(tokens.getByRole('heading', { name: 'No active personal access tokens' })).toBeVisible();
    expect((await fetch(`${process.env.E2E_BASE_URL}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': plaintext } })).status).toBe(401);
  });

  test('an administrator’s own page explains why they cannot block themselves or remove their own administrator access', async ({ rootPage: page, api }) => {
    const root = await api<{ id: number }>('GET', '/user');
    await page.goto(`/admin/users/${root.json.id}`);
    await expect(page.getByText(/You cannot remove your own administrator access/)).toBeVisible();
    await expect(page.getByText(/You cannot block yourself/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Remove administrator' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Block user' })).toHaveCount(0);
  });

  test('a settings topic saves only what changed in it, and asks before leaving with unsaved changes', async ({ rootPage: page, api }) => {
    const before = (await api<Record<string, unknown>>('GET', '/application/settings')).json;
    try {
      await page.goto('/admin/settings');
      const topics = page.getByRole('navigation', { name: 'Settings topics' });
      await expect(topics.getByRole('link', { name: 'Visibility and access' })).toHaveAttribute('aria-current', 'page');
      const form = page.getByRole('form', { name: 'Instance settings: Visibility and access' });
      const projects = form.getByLabel('Default visibility of new projects');
      const other = before.default_project_visibility === 'internal' ? 'public' : 'internal';
      await projects.selectOption(other);
      await expect(page.getByText('Unsaved changes')).toBeVisible();

      // Another topic is another page: the guard asks first, and staying keeps the edit.
      await topics.getByRole('link', { name: 'Repositories' }).click();
      const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
      await leave.getByRole('button', { name: 'Cancel' }).click();
      await expect(page).toHaveURL(/\/admin\/settings$/);
      await expect(projects).toHaveValue(other);

      const sent = page.waitForRequest((r) => r.url().endsWith('/api/v4/application/settings') && r.method() === 'PUT');
      await form.getByRole('button', { name: 'Save changes' }).click();
      expect((await sent).postDataJSON()).toEqual({ default_project_visibility: other });
      await expect(page.getByText('Settings saved')).toBeVisible();
      await expect(page.getByText('No unsaved changes')).toBeVisible();
      const saved = (await api<Record<string, unknown>>('GET', '/application/settings')).json;
      expect(saved.default_project_visibility).toBe(other);
      expect(saved.default_group_visibility).toBe(before.default_group_visibility);

      // A bad branch name comes back under its field, and nothing is saved.
      await topics.getByRole('link', { name: 'Repositories' }).click();
      const branch = page.getByRole('form', { name: 'Instance settings: Repositories' }).getByRole('textbox', { name: 'Initial branch name' });
      await branch.fill('bad..name');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(branch).toHaveAttribute('aria-invalid', 'true');
      expect((await api<Record<string, unknown>>('GET', '/application/settings')).json.default_branch_name).toBe(before.default_branch_name);
    } finally {
      await api('PUT', '/application/settings', { default_project_visibility: before.default_project_visibility, default_branch_name: before.default_branch_name ?? '' });
    }
  });

  test('an administrator finds a group by search and deletes it after a confirmation naming it', async ({ rootPage: page, api }) => {
    const doomed = await api<{ id: number }>('POST', '/groups', { name: `Doomed ${suffix}`, path: `doomed-${suffix}` });
    expect(doomed.status).toBe(201);
    const inside = await api<{ id: number }>('POST', '/projects', { name: 'Inside', path: 'inside', namespace_id: doomed.json.id });
    expect(inside.status).toBe(201);
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Groups' }).click();
    await expect(page).toHaveURL(/\/admin\/groups$/);
    const table = page.getByRole('table', { name: 'Groups' });
    await page.getByRole('searchbox', { name: 'Search' }).fill(`doomed-${suffix}`);
    await expect(page).toHaveURL(new RegExp(`search=doomed-${suffix}`));
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('link', { name: `Doomed ${suffix}` })).toBeVisible();

    await table.getByRole('button', { name: `Delete doomed-${suffix}` }).click();
    const confirm = page.getByRole('dialog', { name: `Delete doomed-${suffix}?` });
    await expect(confirm.getByText(/deleted at once, with all of its subgroups, projects/)).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    expect((await api('GET', `/groups/${doomed.json.id}`)).status).toBe(200);

    await table.getByRole('button', { name: `Delete doomed-${suffix}` }).click();
    await confirm.getByRole('button', { name: 'Delete group' }).click();
    await expect(page.getByText('Group deleted')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No groups match' })).toBeVisible();
    expect((await api('GET', `/groups/${doomed.json.id}`)).status).toBe(404);
    expect((await api('GET', `/projects/${inside.json.id}`)).status).toBe(404);
  });

  test('an administrator finds a project by search, transfers it to another group, and deletes it', async ({ rootPage: page, api }) => {
    const project = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: `Old tool ${suffix}`, path: `old-tool-${suffix}`, namespace_id: groupId });
    expect(project.status).toBe(201);
    const target = await api<{ id: number; full_path: string }>('POST', '/groups', { name: `Tools ${suffix}`, path: `tools-${suffix}`, visibility: 'private' });
    // A project of the same path there: the first try is refused.
    const twin = await api<{ id: number }>('POST', '/projects', { name: `Twin ${suffix}`, path: `old-tool-${suffix}`, namespace_id: target.json.id });
    expect(twin.status).toBe(201);
    await page.goto(`/admin/projects?search=old-tool-${suffix}`);
    const table = page.getByRole('table', { name: 'Projects' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByRole('link', { name: `Old tool ${suffix}` })).toHaveAttribute('href', `/projects/${GROUP_PATH}/old-tool-${suffix}`);
    const transferButton = table.getByRole('button', { name: `Transfer ${project.json.path_with_namespace}` });
    await transferButton.click();
    const dialog = page.getByRole('dialog', { name: `Transfer ${project.json.path_with_namespace}` });
    const picker = dialog.getByRole('textbox', { name: 'New group' });
    await expect(picker).toBeFocused();
    await picker.fill(`tools-${suffix}`);
    await page.getByRole('option', { name: target.json.full_path }).click();
    await dialog.getByRole('button', { name: 'Transfer' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Project with same name or path in target namespace already exists');
    expect((await api('DELETE', `/projects/${twin.json.id}`)).status).toBe(202);
    await dialog.getByRole('button', { name: 'Transfer' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Project transferred')).toBeVisible();
    const moved = `${target.json.full_path}/old-tool-${suffix}`;
    // Focus is back on the row's button, which now names the new path.
    await expect(table.getByRole('button', { name: `Transfer ${moved}` })).toBeFocused();
    await expect(table.getByRole('link', { name: `Old tool ${suffix}` })).toHaveAttribute('href', `/projects/${moved}`);
    expect((await api<{ path_with_namespace: string }>('GET', `/projects/${project.json.id}`)).json.path_with_namespace).toBe(moved);
    await table.getByRole('button', { name: `Delete ${moved}` }).click();
    await page.getByRole('dialog', { name: `Delete ${moved}?` }).getByRole('button', { name: 'Delete project' }).click();
    await expect(page.getByText('Project deleted')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No projects match' })).toBeVisible();
    expect((await api('GET', `/projects/${project.json.id}`)).status).toBe(404);
  });

  test('an administrator retries a failed background job, which leaves the failed list and runs', async ({ rootPage: page }) => {
    // A housekeeping run that gave up (as one does when the database stays locked), with a credential in its error.
    const db = openDb({ sqliteFile: path.join(process.env.E2E_DATA_DIR!, 'gatehouse.sqlite3'), poolSize: 1 });
    let id: number;
    try {
      const now = new Date().toISOString();
      const error = `Error: database is locked (e2e ${suffix}) while calling https://bot:hunter2@example.com/x\n    at purge (bff/src/jobs/housekeeping.ts:24:5)`;
      const job = { kind: 'housekeeping', payload: '{}', state: 'failed' as const, run_at: now, attempts: 5, max_attempts: 5, last_error: error, created_at: now, updated_at: now };
      id = (await db.insertInto('jobs').values(job).returning('id').executeTakeFirstOrThrow()).id;
    } finally {
      await db.destroy();
    }
    await page.goto('/admin/jobs');
    await page.getByRole('tab', { name: /^Failed \(\d+\)$/ }).click();
    await expect(page).toHaveURL(/state=failed/);
    const table = page.getByRole('table', { name: 'Background jobs' });
    const row = table.getByRole('row').filter({ hasText: `#${id} · housekeeping` });
    await expect(row.getByText('5 of 5 attempts')).toBeVisible();
    await expect(row.getByText(`Error: database is locked (e2e ${suffix}) while calling https://***@example.com/x`)).toBeVisible();
    await expect(row.getByText('hunter2')).toHaveCount(0);
    await row.getByText(/^Error: database is locked/).click();
    await expect(row.getByText('at purge (bff/src/jobs/housekeeping.ts:24:5)')).toBeVisible();

    await row.getByRole('button', { name: `Retry job #${id}` }).click();
    await expect(page.getByText('Job queued again')).toBeVisible();
    await expect(row).toHaveCount(0);
    // It ran: the Done tab lists it with one attempt.
    await page.getByRole('tab', { name: /^Done/ }).click();
    await expect(table.getByRole('row').filter({ hasText: `#${id} · housekeeping` }).getByText('1 of 5 attempts')).toBeVisible({ timeout: 20_000 });
  });

  test('a non-administrator sees no Admin entry and gets the forbidden state by URL', async ({ page }) => {
    const user = await createUser('not-admin');
    const adminCalls: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/(v4\/(users|application)|console\/(instance|admin))/.test(r.url())) adminCalls.push(r.url());
    });
    await signInAt(page, '/groups', user);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Groups' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(0);
    for (const url of ['/admin', '/admin/users', '/admin/settings', '/admin/groups', '/admin/jobs']) {
      await page.goto(url);
      await expect(page.getByRole('heading', { name: 'Only administrators can open the admin area' })).toBeVisible();
      await expect(page.getByText(`Your account, @${user.username}, is not an administrator`)).toBeVisible();
    }
    expect(adminCalls).toEqual([]);
  });
});
