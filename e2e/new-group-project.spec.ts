import { createUser, expect, signInAt, test } from './fixtures.ts';

test.describe('New group, subgroup and project', () => {
  test('root creates a group (path from the name), a subgroup and a project, landing on each new page', async ({ page, api }) => {
    const stamp = Date.now().toString(36);
    await signInAt(page, '/groups');
    await page.getByRole('link', { name: 'New group' }).click();
    const form = page.getByRole('form', { name: 'New group' });
    await form.getByLabel('Group name').fill(`Fleet Ops ${stamp}`);
    await expect(form.getByLabel('Path')).toHaveValue(`fleet-ops-${stamp}`);
    await form.getByRole('button', { name: 'Create group' }).click();
    await expect(page).toHaveURL(new RegExp(`/groups/fleet-ops-${stamp}$`));
    await expect(page.getByRole('heading', { level: 1, name: `Fleet Ops ${stamp}` })).toBeVisible();

    await page.getByRole('tab', { name: 'New subgroup' }).click();
    const sub = page.getByRole('form', { name: 'New subgroup' });
    await sub.getByLabel('Group name').fill('Radar');
    await sub.getByRole('button', { name: 'Create subgroup' }).click();
    await expect(page).toHaveURL(new RegExp(`/groups/fleet-ops-${stamp}/radar$`));
    expect((await api<{ parent_id: number }>('GET', `/groups/${encodeURIComponent(`fleet-ops-${stamp}/radar`)}`)).status).toBe(200);

    await page.getByRole('tab', { name: 'New project' }).click();
    const proj = page.getByRole('form', { name: 'New project' });
    await proj.getByLabel('Project name').fill('Tracker API');
    await expect(proj.getByLabel('Path')).toHaveValue('tracker-api');
    await proj.getByRole('button', { name: 'Create project' }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/fleet-ops-${stamp}/radar/tracker-api$`));
  });

  test('a taken path comes back from the server under the Path field, and nothing is created', async ({ page, api }) => {
    const path = `taken-${Date.now().toString(36)}`;
    expect((await api('POST', '/groups', { name: path, path })).status).toBe(201);
    await signInAt(page, '/groups/new');
    const form = page.getByRole('form', { name: 'New group' });
    await form.getByLabel('Group name').fill('Another');
    await form.getByLabel('Path').fill(path);
    await form.getByRole('button', { name: 'Create group' }).click();
    await expect(form.getByText('Has already been taken')).toBeVisible();
    await expect(page).toHaveURL(/\/groups\/new$/);
  });

  test('a Developer does not get the New subgroup tab, and its URL shows why', async ({ page, api }) => {
    const path = `nosub-${Date.now().toString(36)}`;
    const group = await api<{ id: number }>('POST', '/groups', { name: path, path });
    const dev = await createUser('dev');
    await api('POST', `/groups/${group.json.id}/members`, { user_id: dev.id, access_level: 30 });
    await signInAt(page, `/groups/${path}`, dev);
    await expect(page.getByRole('tab', { name: 'Overview' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'New subgroup' })).toHaveCount(0);
    await page.goto(`/groups/${path}/-/new_subgroup`);
    await expect(page.getByText('You cannot create subgroups here')).toBeVisible();
  });
});
