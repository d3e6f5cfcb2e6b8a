import { type Locator, type Page } from '@playwright/test';
import { expect, test, signInAt, ROOT } from './fixtures.ts';

const BASE_URL = process.env.E2E_BASE_URL!;

/** What a script holding `token` gets from GET /groups/:id. */
async function statusWithToken(token: string, groupId: number): Promise<number> {
  const res = await fetch(`${BASE_URL}/api/v4/groups/${groupId}`, { headers: { 'PRIVATE-TOKEN': token } });
  return res.status;
}

/** Whether a secret shows anywhere the browser keeps things: the DOM and both storages. */
async function traces(page: Page, secret: string) {
  return page.evaluate((s) => {
    const inStorage = (store: Storage) => Object.keys(store).some((k) => k.includes(s) || (store.getItem(k) ?? '').includes(s));
    return { dom: document.documentElement.outerHTML.includes(s), local: inStorage(localStorage), session: inStorage(sessionStorage) };
  }, secret);
}

/** Reads the plaintext from the reveal dialog, checks the warning, and closes it. */
async function takeRevealedToken(page: Page, name: string): Promise<string> {
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('You will not see it again')).toBeVisible();
  const token = await dialog.getByRole('textbox', { name: `New token “${name}”` }).inputValue();
  expect(token).toMatch(/^gtpat-/);
  await dialog.getByRole('button', { name: 'I have copied it' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  return token;
}

let umbrellaId: number;

test.beforeAll(async ({ api }) => {
  const umbrella = await api<{ id: number }>('GET', '/groups/umbrella');
  expect(umbrella.status).toBe(200);
  umbrellaId = umbrella.json.id;
});

test.describe('Group access tokens (/groups/:id/access_tokens)', () => {
  test.describe('as an Owner', () => {
    test('creates a token shown once, rotates it, then revokes it', async ({ page }) => {
      const name = `e2e-release-${Date.now().toString(36)}`;
      await signInAt(page, '/groups/umbrella');
      await page.getByRole('tab', { name: 'Access tokens' }).click();
      await expect(page).toHaveURL(/\/groups\/umbrella\/-\/access_tokens$/);

      // Create: the shared schema refuses an empty form before anything is sent.
      await page.getByRole('button', { name: 'Create token' }).first().click();
      const create = page.getByRole('dialog', { name: 'Create a group access token' });
      await create.getByRole('button', { name: 'Create token' }).click();
      await expect(create.getByText("Can't be blank")).toBeVisible();
      await expect(create.getByText('Select at least one scope')).toBeVisible();

      await create.getByLabel('Token name').fill(name);
      await create.getByLabel('Description').fill('Tags releases from CI.');
      await expect(create.getByText('22/255')).toBeVisible();
      await create.getByLabel('Role').selectOption({ label: 'Developer' });
      await create.getByRole('checkbox', { name: 'read_api' }).check();
      const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/v4/groups/${umbrellaId}/access_tokens`));
      await create.getByRole('button', { name: 'Create token' }).click();
      const body = (await posted).postDataJSON();
      expect(body).toMatchObject({ name, description: 'Tags releases from CI.', access_level: 30, scopes: ['read_api'] });
      // The expiry preselected is the longest allowed: a year from today.
      expect(body.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);

      const first = await takeRevealedToken(page, name);
      expect(await statusWithToken(first, umbrellaId)).toBe(200);
      expect(await traces(page, first)).toEqual({ dom: false, local: false, session: false });

      const table = page.getByRole('table', { name: 'Access tokens' });
      const row = table.getByRole('row').filter({ hasText: name });
      await expect(row).toContainText('Developer');
      await expect(row).toContainText('read_api');
      await expect(row).toContainText('Never');

      // Rotate: the old token stops working at once, the new one is shown once and works.
      await row.getByRole('button', { name: `Rotate ${name}` }).click();
      const rotate = page.getByRole('dialog', { name: `Rotate “${name}”?` });
      await expect(rotate).toContainText('The current token stops working immediately');
      await rotate.getByRole('button', { name: 'Rotate token' }).click();
      const second = await takeRevealedToken(page, name);
      expect(second).not.toBe(first);
      expect(await statusWithToken(first, umbrellaId)).toBe(401);
      expect(await statusWithToken(second, umbrellaId)).toBe(200);

      // Revoke, after a confirmation.
      await table.getByRole('button', { name: `Revoke ${name}` }).click();
      const revoke = page.getByRole('dialog', { name: `Revoke “${name}”?` });
      await revoke.getByRole('button', { name: 'Revoke token' }).click();
      await expect(page.getByText('Token revoked')).toBeVisible();
      await expect(table.getByRole('row').filter({ hasText: name })).toHaveCount(0);
      expect(await statusWithToken(second, umbrellaId)).toBe(401);

      // Both tokens are listed as inactive, and neither plaintext is kept anywhere in the browser.
      await page.getByRole('tab', { name: 'Inactive' }).click();
      await expect(page).toHaveURL(/state=inactive/);
      const inactive = page.getByRole('table', { name: 'Access tokens' }).getByRole('row').filter({ hasText: name });
      await expect(inactive).toHaveCount(2);
      // The first was rotated, the second revoked: told apart.
      await expect(inactive.filter({ hasText: /Rotated \w+ \d+/ })).toHaveCount(1);
      await expect(inactive.filter({ hasText: 'Revoked' })).toHaveCount(1);
      for (const token of [first, second]) expect(await traces(page, token)).toEqual({ dom: false, local: false, session: false });
    });

    test('flags tokens that expire within a week; search and filters live in the URL', async ({ page, api }) => {
      const soon = `e2e-soon-${Date.now().toString(36)}`;
      const inThreeDays = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
      const made = await api('POST', `/groups/${umbrellaId}/access_tokens`, { name: soon, scopes: ['read_api'], expires_at: inThreeDays });
      expect(made.status).toBe(201);

      await signInAt(page, `/groups/umbrella/-/access_tokens?search=${soon}`);
      const table = page.getByRole('table', { name: 'Access tokens' });
      await expect(page.getByLabel('Search')).toHaveValue(soon);
      await expect(table.getByRole('row')).toHaveCount(2);
      await expect(table.getByRole('row').filter({ hasText: soon })).toContainText('Expires in 3 days');

      await page.getByLabel('Expires').selectOption({ label: 'Expiring within 7 days' });
      await expect(page).toHaveURL(/expires=week/);
      await expect(table.getByRole('row').filter({ hasText: soon })).toBeVisible();

      await page.getByLabel('Search').fill('no-such-token');
      await expect(page.getByRole('heading', { name: 'No tokens match' })).toBeVisible();
      await page.getByRole('button', { name: 'Clear search and filters' }).click();
      await expect(page).toHaveURL(/\/access_tokens$/);

      await table.getByRole('button', { name: 'Expires' }).click();
      await expect(page).toHaveURL(/sort=expires_asc/);
      await expect(table.getByRole('columnheader', { name: 'Expires' })).toHaveAttribute('aria-sort', 'ascending');
      await expect(table.getByRole('row').nth(1)).toContainText('Expires in');
    });
  });

  test.describe('without the role', () => {
    test.use({ membership: { scope: 'groups', id: 'umbrella' } });

    test('a Developer sees the forbidden state, and no tab for it', async ({ developerPage: page }) => {
      await page.goto('/groups/umbrella');
      await expect(page.getByRole('heading', { level: 1, name: 'Umbrella Labs' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Access tokens' })).toHaveCount(0);

      await page.goto('/groups/umbrella/-/access_tokens');
      await expect(page.getByRole('heading', { name: 'You need the Owner role to manage access tokens' })).toBeVisible();
      await expect(page.getByText('Your role in Umbrella Labs is Developer.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Create token' })).toHaveCount(0);
      await expect(page.getByRole('table', { name: 'Access tokens' })).toHaveCount(0);
    });
  });
});

/** Presses Tab (Shift+Tab with `back`) until `target` has the focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

test.describe('Group access tokens from the keyboard and on every screen size', () => {
  test('a keyboard-only user creates, copies and revokes a token; focus stays in the dialogs and comes back', async ({ page, context }) => {
    // Many key presses: room for a busy machine; nothing here is timed.
    test.setTimeout(120_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const name = `e2e-keys-${Date.now().toString(36)}`;
    await page.goto('/sign-in?return_to=%2Fgroups%2Fumbrella%2F-%2Faccess_tokens');
    await expect(page.getByLabel('Username', { exact: true })).toBeFocused();
    await page.keyboard.type(ROOT.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(ROOT.password);
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { name: 'Group access tokens' });
    await expect(heading).toBeVisible({ timeout: 60_000 });

    const createButton = page.getByRole('button', { name: 'Create token' }).first();
    await tabTo(page, createButton);
    await page.keyboard.press('Enter');
    const create = page.getByRole('dialog', { name: 'Create a group access token' });
    await expect(create.getByLabel('Token name')).toBeFocused();
    await page.keyboard.type(name);
    await tabTo(page, create.getByRole('checkbox', { name: 'read_api' }));
    await page.keyboard.press('Space');
    await tabTo(page, create.getByRole('button', { name: 'Create token' }));
    await page.keyboard.press('Enter');

    // The reveal-once dialog has the focus, on its Copy button, and Tab does not leave it.
    const reveal = page.getByRole('dialog', { name: 'Token created: copy it now' });
    const copy = reveal.getByRole('button', { name: 'Copy token' });
    await expect(copy).toBeFocused();
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect(await reveal.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    // Masked until asked for.
    const field = reveal.getByRole('textbox', { name: `New token “${name}”` });
    const masking = () => field.evaluate((el) => getComputedStyle(el).getPropertyValue('-webkit-text-security'));
    expect(await masking()).toBe('disc');
    await tabTo(page, reveal.getByRole('button', { name: 'Show token' }));
    await page.keyboard.press('Enter');
    expect(await masking()).toBe('none');
    await expect(reveal.getByRole('button', { name: 'Hide token' })).toBeFocused();

    await tabTo(page, copy);
    await page.keyboard.press('Enter');
    await expect(reveal.getByRole('button', { name: 'Token copied' })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await field.inputValue());
    expect(await statusWithToken(copied, umbrellaId)).toBe(200);

    await tabTo(page, reveal.getByRole('button', { name: 'I have copied it' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(createButton).toBeFocused();

    // Revoke: the confirm button has the focus; once the row is gone, focus is on the heading, not lost.
    const revokeButton = page.getByRole('button', { name: `Revoke ${name}` });
    await tabTo(page, revokeButton);
    await page.keyboard.press('Enter');
    const revoke = page.getByRole('dialog', { name: `Revoke “${name}”?` });
    await expect(revoke.getByRole('button', { name: 'Revoke token' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Token revoked')).toBeVisible();
    await expect(revokeButton).toHaveCount(0);
    await expect(heading).toBeFocused();
    expect(await statusWithToken(copied, umbrellaId)).toBe(401);
  });

  test('Escape on a filled dialog asks before discarding it', async ({ page }) => {
    await signInAt(page, '/groups/umbrella/-/access_tokens');
    await page.getByRole('button', { name: 'Create token' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create a group access token' });
    await create.getByLabel('Token name').fill('half-typed');
    await page.keyboard.press('Escape');
    const ask = page.getByRole('dialog', { name: 'Discard your changes?' });
    await expect(ask.getByRole('button', { name: 'Keep editing' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(ask).toHaveCount(0);
    await expect(create.getByLabel('Token name')).toHaveValue('half-typed');
    await create.getByRole('button', { name: 'Close dialog' }).click();
    await page.getByRole('dialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Discard changes' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('rotating proposes the token’s own lifetime, not a week', async ({ page, api }) => {
    const name = `e2e-lifetime-${Date.now().toString(36)}`;
    const day = 86_400_000;
    const today = Date.parse(new Date().toISOString().slice(0, 10));
    const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
    expect((await api('POST', `/groups/${umbrellaId}/access_tokens`, { name, scopes: ['read_api'], expires_at: iso(today + 200 * day) })).status).toBe(201);
    await signInAt(page, `/groups/umbrella/-/access_tokens?search=${name}`);
    await page.getByRole('button', { name: `Rotate ${name}` }).click();
    const shown = new Date(today + 200 * day).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
    await expect(page.getByRole('dialog', { name: `Rotate “${name}”?` }).getByLabel('New token expires on')).toContainText(shown);
  });

  test('a long token name keeps Rotate and Revoke on screen at 1280 px; on a phone the table says it scrolls', async ({ page, api }) => {
    const name = `e2e-long-${Date.now().toString(36)}-${'x'.repeat(200)}`;
    expect((await api('POST', `/groups/${umbrellaId}/access_tokens`, { name, scopes: ['read_api'] })).status).toBe(201);
    await signInAt(page, `/groups/umbrella/-/access_tokens?search=${encodeURIComponent(name)}`);
    await expect(page.getByRole('button', { name: `Rotate ${name}` })).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole('button', { name: `Revoke ${name}` })).toBeInViewport({ ratio: 1 });

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('region', { name: 'Access tokens, scrolls sideways' })).toBeVisible();
    await expect(page.getByText('More columns to the right')).toBeVisible();
    await expect(page.getByRole('button', { name: `Revoke ${name}` })).toBeInViewport({ ratio: 1 });
  });
});
