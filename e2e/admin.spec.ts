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
  });

  test('shows the sign-in limits read-only, and the instance overview with a refresh', async ({ rootPage: page, api }) => {
    await page.goto('/admin/settings');
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

  test('a non-administrator sees no Admin entry and gets the forbidden state by URL', async ({ page }) => {
    const user = await createUser('not-admin');
    const adminCalls: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/(v4\/(users|application)|console\/instance)/.test(r.url())) adminCalls.push(r.url());
    });
    await signInAt(page, '/groups', user);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Groups' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(0);
    for (const path of ['/admin', '/admin/users', '/admin/settings']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Only administrators can open the admin area' })).toBeVisible();
      await expect(page.getByText(`Your account, @${user.username}, is not an administrator`)).toBeVisible();
    }
    expect(adminCalls).toEqual([]);
  });
});
