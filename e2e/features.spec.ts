import { createUser, expect, expectAccessible, signInAt, test } from './fixtures.ts';

const PDF = 'vulnerabilities_pdf_export';
const suffix = Date.now().toString(36);
const FLAGS = `**/api/console/feature_flags`;

test.afterAll(async ({ api }) => {
  await api('DELETE', `/features/${PDF}`);
});

test.describe('Feature flags (admin area)', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });

  test('an administrator turns PDF exports on for one project, then for everyone, and resets the flag; the Exports screens follow', async ({ rootPage: page, api }) => {
    expect((await api('DELETE', `/features/${PDF}`)).status).toBe(204);
    const group = await api<{ id: number; full_path: string }>('POST', '/groups', { name: `Flags ${suffix}`, path: `flags-${suffix}` });
    expect(group.status).toBe(201);
    const made = async (name: string) => (await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name, namespace_id: group.json.id })).json;
    const [flagged, other] = [await made('flagged'), await made('other')];

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('tab', { name: 'Feature flags' }).click();
    await expect(page).toHaveURL(/\/admin\/features$/);
    const table = page.getByRole('table', { name: 'Feature flags' });
    const row = table.getByRole('row').filter({ hasText: PDF });
    await expect(row.getByText('Its default')).toBeVisible();
    await expect(row.getByText(/default off \(GATEHOUSE_VULNERABILITIES_PDF_EXPORT\)/)).toBeVisible();
    await expect(row.getByRole('switch', { name: `On for everyone: ${PDF}` })).not.toBeChecked();
    await expectAccessible(page, 'the feature flags');

    // On for one project, through the gate dialog; an unknown path comes back under its field.
    await row.getByRole('button', { name: `Turn ${PDF} on for a user, group or project` }).click();
    const dialog = page.getByRole('dialog', { name: `Turn ${PDF} on for…` });
    await expect(dialog.getByLabel('Whom')).toHaveValue('project');
    await dialog.getByRole('textbox', { name: /^Project full path/ }).fill(`${group.json.full_path}/no-such-project`);
    await expectAccessible(page, 'the gate dialog');
    await dialog.getByRole('button', { name: 'Turn on for them' }).click();
    await expect(dialog.getByText(`${group.json.full_path}/no-such-project is not found!`, { exact: true })).toBeVisible();
    await dialog.getByRole('textbox', { name: /^Project full path/ }).fill(flagged.path_with_namespace);
    await dialog.getByRole('button', { name: 'Turn on for them' }).click();
    await expect(page.getByText('Gate added')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(row.getByText(`On for ${flagged.path_with_namespace}`)).toBeVisible();
    await expect(row.getByText('Set: on for some')).toBeVisible();
    const gates = await api<{ name: string; gates: unknown[] }[]>('GET', '/features');
    expect(gates.json.find((f) => f.name === PDF)?.gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'actors', value: [`Project:${flagged.id}`] },
    ]);
    await table.scrollIntoViewIfNeeded();

    // The flag took effect: the flagged project's Exports screen offers PDF and a PDF export is taken; the other's does not.
    await page.goto(`/projects/${flagged.path_with_namespace}/-/exports`);
    await expect(page.getByText('PDF reports are not enabled')).toHaveCount(0);
    await page.getByRole('textbox', { name: 'Format' }).click();
    await page.getByRole('option', { name: 'PDF report' }).click();
    const started = page.waitForResponse((r) => r.url().endsWith(`/security/projects/${flagged.id}/vulnerability_exports`) && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Start export' }).click();
    expect((await started).status()).toBe(201);
    await expect(page.getByRole('table', { name: 'Your exports' }).getByText('Vulnerabilities · PDF')).toBeVisible();
    await page.goto(`/projects/${other.path_with_namespace}/-/exports`);
    await expect(page.getByText(`PDF reports are not enabled for ${other.path_with_namespace} (the ${PDF} feature flag).`)).toBeVisible();

    // On for everyone: the switch asks first, since the project's gate goes with it.
    await page.goto('/admin/features');
    await row.getByRole('switch', { name: `On for everyone: ${PDF}` }).press('Space');
    const confirm = page.getByRole('dialog', { name: `Turn ${PDF} on for everyone?` });
    await expect(confirm.getByText('This also removes 1 gate for users, groups or projects')).toBeVisible();
    await confirm.getByRole('button', { name: 'Turn on for everyone' }).click();
    await expect(page.getByText(`${PDF} is on for everyone`)).toBeVisible();
    await expect(row.getByRole('switch', { name: `On for everyone: ${PDF}` })).toBeChecked();
    await expect(row.getByText(`On for ${flagged.path_with_namespace}`)).toHaveCount(0);
    await page.goto(`/projects/${other.path_with_namespace}/-/exports`);
    await expect(page.getByRole('button', { name: 'Start export' })).toBeVisible();
    await expect(page.getByText('PDF reports are not enabled')).toHaveCount(0);

    // Reset: the default (off) again.
    await page.goto('/admin/features');
    await row.getByRole('button', { name: `Reset ${PDF}` }).click();
    await page.getByRole('dialog', { name: `Reset ${PDF}?` }).getByRole('button', { name: 'Reset to default' }).click();
    await expect(page.getByText('Flag reset')).toBeVisible();
    await expect(row.getByText('Its default')).toBeVisible();
    await expect(row.getByRole('switch', { name: `On for everyone: ${PDF}` })).not.toBeChecked();
    expect((await api<{ name: string }[]>('GET', '/features')).json.map((f) => f.name)).not.toContain(PDF);
  });

  test('a flag on by default is turned off for one group only: the console turns it on for everyone first, so the others keep it', async ({ rootPage: page, api }) => {
    const flag = 'group_agnostic_token_revocation';
    const group = await api<{ id: number; full_path: string }>('POST', '/groups', { name: `Opted out ${suffix}`, path: `opted-out-${suffix}` });
    await page.goto('/admin/features');
    const row = page.getByRole('table', { name: 'Feature flags' }).getByRole('row').filter({ hasText: flag });
    await expect(row.getByText('Its default')).toBeVisible();
    await expect(row.getByRole('switch', { name: `On for everyone: ${flag}` })).toBeChecked();
    await row.getByRole('button', { name: `Turn ${flag} off for a user, group or project` }).click();
    const dialog = page.getByRole('dialog', { name: `Turn ${flag} off for…` });
    await expect(dialog.getByText('It is on for everyone (its default).')).toBeVisible();
    await dialog.getByRole('textbox', { name: /^Group full path/ }).fill(group.json.full_path);
    await dialog.getByRole('button', { name: 'Turn off for them' }).click();
    await expect(row.getByText(`Off for ${group.json.full_path}`)).toBeVisible();
    await expect(row.getByRole('switch', { name: `On for everyone: ${flag}` })).toBeChecked();
    const shown = (await api<{ name: string; state: string; gates: unknown[] }[]>('GET', '/features')).json.find((f) => f.name === flag);
    expect(shown).toMatchObject({ state: 'on', gates: [{ key: 'boolean', value: true }, { key: 'actors', value: [`Group:${group.json.id}:opt_out`] }] });
    await row.getByRole('button', { name: `Remove the gate for ${group.json.full_path} from ${flag}` }).click();
    await expect(page.getByText('Gate removed')).toBeVisible();
    await expect(row.getByText(`Off for ${group.json.full_path}`)).toHaveCount(0);
    expect((await api('DELETE', `/features/${flag}`)).status).toBe(204);
  });

  test('shows its loading, error and empty states, and its forbidden state to a user who is not an administrator', async ({ rootPage: page }) => {
    let answer: 'slow' | 'fail' | 'empty' = 'slow';
    let release = () => {};
    await page.route(FLAGS, async (route) => {
      if (answer === 'slow') await new Promise<void>((r) => (release = r));
      if (answer === 'fail') return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: '500 Internal Server Error' }) });
      if (answer === 'empty') return route.fulfill({ status: 200, contentType: 'application/json', body: '[]' });
      return route.continue();
    });
    await page.goto('/admin/features');
    await expect(page.getByText('Loading the feature flags…')).toBeVisible();
    answer = 'fail';
    release();
    await expect(page.getByRole('alert').filter({ hasText: 'The feature flags could not be loaded' })).toBeVisible();
    answer = 'empty';
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { name: 'No feature flags' })).toBeVisible();
    await page.unroute(FLAGS);

    const user = await createUser('not-admin-flags');
    const calls: string[] = [];
    await page.context().clearCookies();
    page.on('request', (r) => r.url().includes('/feature_flags') && calls.push(r.url()));
    await signInAt(page, '/admin/features', user);
    await expect(page.getByRole('heading', { name: 'Only administrators can open the admin area' })).toBeVisible();
    expect(calls).toEqual([]);
  });
});
