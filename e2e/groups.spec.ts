import { type Page, type Request } from '@playwright/test';
import { expect, test, signInAt } from './fixtures.ts';


/** Records the console's PUT /groups/:id requests. */
function recordGroupWrites(page: Page): Request[] {
  const writes: Request[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes('/api/v4/groups/')) writes.push(r);
  });
  return writes;
}

test.describe('Groups list (GET /groups)', () => {
  test('search, sort and page live in the URL', async ({ page }) => {
    await signInAt(page, '/groups');
    const table = page.getByRole('table', { name: 'Groups' });
    await expect(table.getByRole('link', { name: 'Umbrella Labs', exact: true })).toBeVisible();

    await page.getByRole('searchbox', { name: 'Search groups' }).fill('plat');
    await expect(page).toHaveURL(/\/groups\?search=plat$/);
    await expect(table.getByRole('link', { name: 'Platform', exact: true })).toBeVisible();
    await expect(table.getByRole('link', { name: 'Umbrella Labs', exact: true })).toHaveCount(0);
    // As on the platform, the search matches full paths: Platform's subgroup is found by its parent's path.
    await expect(table.getByRole('link', { name: 'Observability', exact: true })).toBeVisible();
    await expect(page.getByText('Showing 1–2 of 2 groups')).toBeVisible();

    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Search groups' })).toHaveValue('plat');
    await expect(table.getByRole('link', { name: 'Platform', exact: true })).toBeVisible();

    await page.getByRole('searchbox', { name: 'Search groups' }).fill('no-such-group');
    await expect(page.getByRole('heading', { name: 'No groups match “no-such-group”' })).toBeVisible();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(page).toHaveURL(/\/groups$/);

    await table.getByRole('button', { name: 'Name' }).click();
    await expect(page).toHaveURL(/sort=name_desc/);
    await expect(table.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');
    // Other specs add groups as they run: the page is checked for its order, not for who comes first.
    await expect(table.getByRole('row').nth(1)).not.toContainText('Acme');
    const names = await table.locator('tbody tr').getByRole('link').allInnerTexts();
    expect(names.length).toBeGreaterThan(1);
    expect(names).toEqual([...names].sort().reverse());
  });

  test('opens a group by its full path, with its subgroups and projects', async ({ page }) => {
    await signInAt(page, '/groups?search=platform');
    await page.getByRole('table', { name: 'Groups' }).getByRole('link', { name: 'Platform', exact: true }).click();

    await expect(page).toHaveURL(/\/groups\/acme\/platform$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Platform' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Projects' })).toContainText('api-gateway');
    await expect(page.getByRole('region', { name: 'Projects' })).toContainText('billing');
    const subgroups = page.getByRole('region', { name: 'Subgroups' });
    await subgroups.getByRole('link', { name: 'Observability' }).click();

    await expect(page).toHaveURL(/\/groups\/acme\/platform\/observability$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Observability' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Acme Corp' })).toBeVisible();
  });

  test('an unknown group shows the not-found state', async ({ page }) => {
    await signInAt(page, '/groups/acme/no-such-group');
    await expect(page.getByRole('heading', { name: 'Group not found' })).toBeVisible();
  });
});

test.describe('Group settings (PUT /groups/:id)', () => {
  test.describe('as an Owner', () => {
    test('saves only the changed fields; they persist and reach the API', async ({ page, api }) => {
      const writes = recordGroupWrites(page);
      await signInAt(page, '/groups/skunkworks/-/settings');
      await expect(page.getByRole('heading', { name: 'General' })).toBeVisible();

      await page.getByLabel('Description').fill('Prototypes nobody has seen yet.');
      await page.getByRole('radio', { name: 'Internal' }).check();
      await page.getByLabel('Two-factor grace period').fill('72');
      await expect(page.getByText('Unsaved changes')).toBeVisible();
      await page.getByRole('button', { name: 'Save changes' }).click();

      await expect(page.getByText('Settings saved')).toBeVisible();
      await expect(page.getByText('No unsaved changes')).toBeVisible();
      expect(writes).toHaveLength(1);
      expect(writes[0].postDataJSON()).toEqual({
        description: 'Prototypes nobody has seen yet.',
        visibility: 'internal',
        two_factor_grace_period: 72,
      });
      expect(writes[0].headers()['x-csrf-token']).toBeTruthy();

      await page.reload();
      await expect(page.getByLabel('Description')).toHaveValue('Prototypes nobody has seen yet.');
      await expect(page.getByRole('radio', { name: 'Internal' })).toBeChecked();
      await expect(page.getByLabel('Two-factor grace period')).toHaveValue('72 hours');

      const { status, json } = await api('GET', '/groups/skunkworks');
      expect(status).toBe(200);
      expect(json).toMatchObject({ description: 'Prototypes nobody has seen yet.', visibility: 'internal', two_factor_grace_period: 72 });
    });
  });

  test.describe('with invalid parameters', () => {
    test('shows the field errors from the shared schema and sends nothing', async ({ page, api }) => {
      const writes = recordGroupWrites(page);
      await signInAt(page, '/groups/umbrella/-/settings');

      await page.getByLabel('Unique project download limit').fill('20000');
      await page.getByLabel('Allowed IP addresses').fill('10.0.0.0/8, not-an-ip');
      await page.getByRole('button', { name: 'Save changes' }).click();

      await expect(page.getByText('Must be less than or equal to 10000')).toBeVisible();
      await expect(page.getByText('Must be a comma-separated list of IP addresses or subnets')).toBeVisible();
      await expect(page.getByLabel('Allowed IP addresses')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText('Some settings need attention')).toBeVisible();
      expect(writes).toHaveLength(0);

      const { json } = await api('GET', '/groups/umbrella');
      expect(json).toMatchObject({ unique_project_download_limit: 0, ip_restriction_ranges: null });
    });

    test('puts a server 400 under the field it names, and changes nothing', async ({ page, api }) => {
      await signInAt(page, '/groups/acme/security/-/settings');

      // Valid to the schema, refused by the server: a sibling already has this path.
      await page.getByLabel('Group URL').fill('platform');
      const answer = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/v4/groups/'));
      await page.getByRole('button', { name: 'Save changes' }).click();
      expect((await answer).status()).toBe(400);

      await expect(page.getByText('Has already been taken')).toBeVisible();
      await expect(page.getByLabel('Group URL')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText('Settings were not saved')).toBeVisible();
      expect((await api('GET', `/groups/${encodeURIComponent('acme/security')}`)).status).toBe(200);
    });
  });

  test.describe('without the role', () => {
    test.use({ membership: { scope: 'groups', id: 'acme' } });

    test('a Developer sees the forbidden state instead of the form', async ({ developerPage: page }) => {
      const writes = recordGroupWrites(page);
      await page.goto('/groups/acme');
      await expect(page.getByRole('heading', { level: 1, name: 'Acme Corp' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Overview' })).toBeVisible();
      // The Settings tab is hidden below the Owner role …
      await expect(page.getByRole('tab', { name: 'Settings' })).toHaveCount(0);

      // … and its address explains why instead of breaking.
      await page.goto('/groups/acme/-/settings');
      await expect(page.getByRole('heading', { name: "You need the Owner role to change this group's settings" })).toBeVisible();
      await expect(page.getByText('Your role in Acme Corp is Developer.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
      await expect(page.getByLabel('Group name')).toHaveCount(0);
      expect(writes).toHaveLength(0);
    });
  });
});
