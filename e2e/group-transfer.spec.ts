import fs from 'node:fs';
import { createUser, expect, signInAt, test } from './fixtures.ts';

test.describe('Group export, import and placeholders', () => {
  test('root exports a group and downloads it, imports it under a new path, watches it finish, opens it, and downloads its placeholders CSV', async ({ page, api }) => {
    const stamp = Date.now().toString(36);
    const source = await api<{ id: number; full_path: string }>('POST', '/groups', { name: `Relay ${stamp}`, path: `relay-${stamp}` });
    expect(source.status).toBe(201);
    expect((await api('POST', `/groups/${source.json.id}/labels`, { name: 'triage', color: '#cc3300' })).status).toBe(201);
    // A member with no public email: on import, a placeholder holds their role.
    const member = await createUser('relay');
    expect((await api('POST', `/groups/${source.json.id}/members`, { user_id: member.id, access_level: 30 })).status).toBe(201);

    // Export from the group's settings, watched without reloading, then downloaded.
    await signInAt(page, `/groups/${source.json.full_path}/-/settings`);
    const panel = page.getByRole('region', { name: 'Export group' });
    await expect(panel.getByText('This group has not been exported yet.')).toBeVisible();
    await panel.getByRole('button', { name: 'Export group' }).click();
    const downloadLink = panel.getByRole('link', { name: 'Download export' });
    await expect(downloadLink).toBeVisible({ timeout: 20_000 });
    await expect(panel.getByText(/^Made .+ · kept until /)).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), downloadLink.click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`relay-${stamp}_export\\.tar\\.gz$`));
    const archive = fs.readFileSync((await download.path())!);
    expect(archive.length).toBeGreaterThan(100);
    expect([archive[0], archive[1]]).toEqual([0x1f, 0x8b]);

    // Import it under a new path from New group.
    await page.getByRole('link', { name: 'New group' }).click();
    await page.getByRole('tab', { name: 'Import group' }).click();
    const form = page.getByRole('form', { name: 'Import group' });
    await form.locator('input[type="file"]').setInputFiles({ name: 'relay.tar.gz', mimeType: 'application/gzip', buffer: archive });
    await form.getByLabel('Group name').fill(`Relay copy ${stamp}`);
    await expect(form.getByLabel('Path')).toHaveValue(`relay-copy-${stamp}`);
    await form.getByRole('button', { name: 'Import group' }).click();
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(`Relay copy ${stamp}`) })).toBeVisible();
    await expect(page.getByText('Import finished')).toBeVisible({ timeout: 20_000 });
    await page.getByRole('link', { name: 'Open group' }).click();
    await expect(page).toHaveURL(new RegExp(`/groups/relay-copy-${stamp}$`));
    await expect(page.getByRole('heading', { level: 1, name: `Relay copy ${stamp}` })).toBeVisible();

    // Its placeholders: the member is one, and the CSV to fill in downloads.
    await page.getByRole('tab', { name: 'Placeholders' }).click();
    const waiting = page.getByRole('table', { name: 'Placeholder users awaiting reassignment' });
    await expect(waiting.getByRole('row').filter({ hasText: `@${member.username}` })).toHaveCount(1);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    const text = fs.readFileSync((await csv.path())!, 'utf8');
    expect(text.split('\n')[0]).toBe('Source host,Import type,Source user identifier,Source user name,Source username,Platform username,Platform public email');
    expect(text).toContain(`,${member.username},,`);
  });
});
