import { createUser, expect, signInAt, test } from './fixtures.ts';

test.describe('Deploy tokens of a group (/groups/:id/deploy_tokens)', () => {
  test('a Maintainer creates a deploy token (username and token shown once) and revokes it', async ({ page, api }) => {
    const path = `deploy-${Date.now().toString(36)}`;
    const group = await api<{ id: number }>('POST', '/groups', { name: path, path });
    const maintainer = await createUser('maint');
    await api('POST', `/groups/${group.json.id}/members`, { user_id: maintainer.id, access_level: 40 });

    await signInAt(page, `/groups/${path}`, maintainer);
    await page.getByRole('tab', { name: 'Deploy tokens' }).click();
    await expect(page.getByText('No active deploy tokens')).toBeVisible();
    await page.getByRole('button', { name: 'Create deploy token' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create a deploy token' });
    await dialog.getByRole('textbox', { name: 'Token name', exact: true }).fill('mirror');
    await dialog.getByLabel('Username').fill('bad name');
    await dialog.getByRole('checkbox', { name: 'read_repository' }).check();
    await dialog.getByRole('button', { name: 'Create deploy token' }).click();
    await expect(dialog.getByText(/contain only letters/i)).toBeVisible();
    await dialog.getByLabel('Username').fill('mirror-bot');
    await dialog.getByRole('button', { name: 'Create deploy token' }).click();

    const reveal = page.getByRole('dialog', { name: 'Deploy token created: copy it now' });
    await expect(reveal.getByRole('textbox', { name: 'Username' })).toHaveValue('mirror-bot');
    const token = await reveal.getByRole('textbox', { name: 'Token “mirror”' }).inputValue();
    // The shared reveal: masked until asked for, focus on Copy.
    await expect(reveal.getByRole('button', { name: 'Copy token' })).toBeFocused();
    await expect(reveal.getByRole('button', { name: 'Show token' })).toBeVisible();
    expect(token.length).toBeGreaterThan(10);
    await reveal.getByRole('button', { name: 'I have copied it' }).click();
    const listed = await api<{ name: string; username: string; scopes: string[] }[]>('GET', `/groups/${group.json.id}/deploy_tokens`);
    expect(listed.json.map((t) => [t.name, t.username, t.scopes])).toEqual([['mirror', 'mirror-bot', ['read_repository']]]);
    expect(await page.content()).not.toContain(token);

    await page.getByRole('button', { name: 'Revoke mirror' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke deploy token' }).click();
    await expect(page.getByText('No active deploy tokens')).toBeVisible();
    const after = await api<{ revoked: boolean }[]>('GET', `/groups/${group.json.id}/deploy_tokens`);
    expect(after.json.every((t) => t.revoked)).toBe(true);
  });

  test('a Developer gets no tab, and the URL says which role is needed', async ({ page, api }) => {
    const path = `deploy-dev-${Date.now().toString(36)}`;
    const group = await api<{ id: number }>('POST', '/groups', { name: path, path });
    const developer = await createUser('dev');
    await api('POST', `/groups/${group.json.id}/members`, { user_id: developer.id, access_level: 30 });
    await signInAt(page, `/groups/${path}/-/deploy_tokens`, developer);
    await expect(page.getByText('You need the Maintainer role to manage deploy tokens')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Deploy tokens' })).toHaveCount(0);
  });
});
