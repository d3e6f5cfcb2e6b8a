import { createUser, expect, signInAt, test } from './fixtures.ts';

/** A fresh group made by root, with an Owner who is not root. */
async function groupWithOwner(api: Parameters<Parameters<typeof test>[2]>[0]['api'], prefix: string) {
  const path = `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const group = await api<{ id: number; full_path: string }>('POST', '/groups', { name: path, path });
  expect(group.status).toBe(201);
  const owner = await createUser('owner', `Owner of ${path}`);
  expect((await api('POST', `/groups/${group.json.id}/members`, { user_id: owner.id, access_level: 50 })).status).toBe(201);
  return { group: group.json, owner };
}

test.describe('Members (/groups/:id/members, /projects/:id/members)', () => {
  test('an Owner adds users with a role (several at once, bots not offered) and invites an address in the same go, filters by role, changes the role, removes them and revokes the invitation', async ({ page, api }) => {
    const { group, owner } = await groupWithOwner(api, 'members');
    const newcomer = await createUser('newcomer', `Newcomer ${Date.now().toString(36)}`);
    const second = await createUser('second', `Second ${Date.now().toString(36)}`);
    // Another group's access token has a bot user: the picker does not offer it.
    const other = await api<{ id: number }>('POST', '/groups', { name: `bots-${Date.now().toString(36)}`, path: `bots-${Date.now().toString(36)}` });
    const token = await api<{ user_id: number }>('POST', `/groups/${other.json.id}/access_tokens`, { name: 'ci', scopes: ['read_api'], access_level: 30, expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) });
    expect(token.status).toBe(201);
    const bot = await api<{ username: string }>('GET', `/users/${token.json.user_id}`);
    await signInAt(page, `/groups/${group.full_path}/-/members`, owner);
    await expect(page.getByRole('table', { name: 'Members' }).getByText(`@${owner.username}`)).toBeVisible();

    await page.getByRole('button', { name: 'Add member' }).click();
    const dialog = page.getByRole('dialog', { name: `Add members to ${group.full_path}` });
    await dialog.getByRole('button', { name: 'Add member' }).click();
    await expect(dialog.getByText('Choose at least one user or email address from the list')).toBeVisible();
    const users = dialog.getByRole('textbox', { name: 'Users or email addresses' });
    await users.fill(bot.json.username);
    await expect(page.getByText('No user matches')).toBeVisible();
    // Two users picked, one of them already the Owner: the other is added and the refusal is told in the dialog.
    for (const who of [newcomer.username, owner.username]) {
      await users.fill(who);
      await page.getByRole('option', { name: new RegExp(who) }).click();
    }
    await dialog.getByLabel('Role').selectOption({ label: 'Developer' });
    await dialog.getByRole('button', { name: 'Add 2 members' }).click();
    await expect(dialog.getByRole('alert')).toContainText(/Added Newcomer .*Not added: Owner of .*already a member/);
    const added = await api<{ access_level: number }>('GET', `/groups/${group.id}/members/${newcomer.id}`);
    expect([added.status, added.json.access_level]).toEqual([200, 30]);
    expect((await api<{ access_level: number }>('GET', `/groups/${group.id}/members/${owner.id}`)).json.access_level).toBe(50);
    // The added user left the picker; the refused one stays. Swapped for another user and an
    // address with no account (invited by email in the same go), the dialog closes.
    await expect(dialog.getByRole('button', { name: 'Add member' })).toBeVisible();
    await dialog.locator('.mantine-Pill-remove').first().click();
    await users.fill(second.username);
    await page.getByRole('option', { name: new RegExp(second.username) }).click();
    const invitee = `invitee-${Date.now().toString(36)}@example.org`;
    await users.fill(invitee);
    await page.getByRole('option', { name: `Invite ${invitee} by email` }).click();
    await dialog.getByRole('button', { name: 'Add member and invite 1' }).click();
    await expect(dialog).toHaveCount(0);
    expect((await api<{ access_level: number }>('GET', `/groups/${group.id}/members/${second.id}`)).json.access_level).toBe(30);
    const pending = page.getByRole('table', { name: 'Pending invitations' });
    await expect(pending.getByRole('row').filter({ hasText: invitee })).toContainText('Developer');
    expect((await api<{ invite_email: string }[]>('GET', `/groups/${group.id}/invitations`)).json.map((i) => i.invite_email)).toEqual([invitee]);

    // The role filter lives in the URL and narrows the list.
    await page.getByLabel('Role').selectOption({ label: 'Developer' });
    await expect(page).toHaveURL(/[?&]role=30/);
    const table = page.getByRole('table', { name: 'Members' });
    await expect(table.getByText(`@${newcomer.username}`)).toBeVisible();
    await expect(table.getByText(`@${owner.username}`)).toHaveCount(0);

    await page.getByRole('button', { name: `Change ${newcomer.username}` }).or(page.getByRole('button', { name: /^Change Newcomer/ })).click();
    const change = page.getByRole('dialog');
    await change.getByLabel('Role').selectOption({ label: 'Maintainer' });
    await change.getByRole('button', { name: 'Save' }).click();
    await expect(change).toHaveCount(0);
    expect((await api<{ access_level: number }>('GET', `/groups/${group.id}/members/${newcomer.id}`)).json.access_level).toBe(40);

    await page.getByLabel('Role').selectOption({ label: 'Any role' });
    await page.getByRole('button', { name: /^Remove Newcomer/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect((await api('GET', `/groups/${group.id}/members/${newcomer.id}`)).status).toBe(404);

    // The invitation is revoked: the pending list goes, and so does the invitation.
    await page.getByRole('button', { name: `Revoke the invitation of ${invitee}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke invitation' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(pending).toHaveCount(0);
    expect((await api<unknown[]>('GET', `/groups/${group.id}/invitations`)).json).toEqual([]);
  });

  test('a long list is searched and paged on the server, search and page in the URL', async ({ page, api }) => {
    // Making 21 users takes a while on a busy machine: a budget for the setup, not a figure tested.
    test.setTimeout(90_000);
    const { group, owner } = await groupWithOwner(api, 'members-many');
    // root and the Owner, and 21 more: two pages of 20.
    const reporters = [];
    for (let i = 0; i < 21; i++) {
      const user = await createUser(`rep${String(i).padStart(2, '0')}`, `Reporter ${String(i).padStart(2, '0')}`);
      expect((await api('POST', `/groups/${group.id}/members`, { user_id: user.id, access_level: 20 })).status).toBe(201);
      reporters.push(user);
    }
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/members')) requests.push(r.url());
    });
    await signInAt(page, `/groups/${group.full_path}/-/members`, owner);
    const table = page.getByRole('table', { name: 'Members' });
    await expect(page.getByText('Showing 1–20 of 23 members')).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(21);
    // No list is read whole: each request asks for one page.
    expect(requests.filter((u) => u.includes('/members/all')).every((u) => /[?&]page=1\b/.test(u) && /per_page=20\b/.test(u))).toBe(true);

    await page.getByRole('button', { name: 'next page' }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(page.getByText('Showing 21–23 of 23 members')).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(4);

    // The role filter narrows the page the server sent, and says so.
    await page.getByRole('button', { name: 'previous page' }).click();
    await expect(page).not.toHaveURL(/[?&]page=/);
    await page.getByLabel('Role').selectOption({ label: 'Owner' });
    await expect(page.getByText('The role filter applies to the members on this page')).toBeVisible();

    const wanted = reporters[20];
    await page.getByLabel('Role').selectOption({ label: 'Any role' });
    await page.getByLabel('Search').fill(wanted.username);
    await expect(page).toHaveURL(new RegExp(`[?&]search=${wanted.username}`));
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByText(`@${wanted.username}`)).toBeVisible();
    await expect(page.getByText('Showing 1–1 of 1 member')).toBeVisible();
    expect(requests.some((u) => u.includes('/members/all') && u.includes(`query=${wanted.username}`))).toBe(true);
    // A direct member of this group: not marked inherited, and an Owner may change them.
    await expect(table.getByRole('row').filter({ hasText: wanted.username }).getByText('Inherited')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Change Reporter 20' })).toBeVisible();
  });

  test('a filter changed just before a search is typed stays changed when the search is written, on a slow machine too', async ({ page, api }) => {
    const { group, owner } = await groupWithOwner(api, 'members-race');
    await signInAt(page, `/groups/${group.full_path}/-/members?role=50`, owner);
    await expect(page.getByLabel('Role')).toHaveValue('50');
    // The role changes, then a search is typed: on a slow machine the role's render is still to
    // come when the search reaches the URL (300 ms after the last key). A 20× slower CPU makes it so.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
    await page.getByLabel('Role').selectOption({ label: 'Any role' });
    await page.getByLabel('Search').fill('owner');
    await expect(page).toHaveURL(/[?&]search=owner/);
    await expect(page).not.toHaveURL(/[?&]role=/);
    await expect(page.getByLabel('Role')).toHaveValue('');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  });

  test('the last Owner cannot be demoted, and the refusal says why in plain words', async ({ page, api }) => {
    const { group, owner } = await groupWithOwner(api, 'last-owner');
    // Only the one Owner stays: root (the creator) leaves.
    const rootId = (await api<{ id: number }>('GET', '/user')).json.id;
    await api('DELETE', `/groups/${group.id}/members/${rootId}`);
    await signInAt(page, `/groups/${group.full_path}/-/members`, owner);
    await page.getByRole('button', { name: /^Change Owner of/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Role').selectOption({ label: 'Developer' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toContainText('A group must always have an Owner');
    expect((await api<{ access_level: number }>('GET', `/groups/${group.id}/members/${owner.id}`)).json.access_level).toBe(50);
  });

  test('a Developer reads the list without edit controls; a subgroup shows inherited members apart', async ({ page, api }) => {
    const { group, owner } = await groupWithOwner(api, 'members-read');
    const sub = await api<{ full_path: string }>('POST', '/groups', { name: 'child', path: 'child', parent_id: group.id });
    expect(sub.status).toBe(201);
    const developer = await createUser('dev');
    await api('POST', `/groups/${group.id}/members`, { user_id: developer.id, access_level: 30 });
    await signInAt(page, `/groups/${sub.json.full_path}/-/members`, developer);
    const row = page.getByRole('row').filter({ hasText: `@${owner.username}` });
    await expect(row.getByText('Inherited')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add member' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  });

  test('project members are listed with the group’s as inherited', async ({ page, api }) => {
    const { group, owner } = await groupWithOwner(api, 'members-project');
    const project = await api<{ path_with_namespace: string }>('POST', '/projects', { name: 'app', path: 'app', namespace_id: group.id });
    expect(project.status).toBe(201);
    await signInAt(page, `/projects/${project.json.path_with_namespace}/-/members`, owner);
    await expect(page.getByRole('row').filter({ hasText: `@${owner.username}` }).getByText('Inherited')).toBeVisible();
  });
});
