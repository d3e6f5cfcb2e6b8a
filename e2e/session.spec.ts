import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

const ROOT_PASSWORD = process.env.E2E_ROOT_PASSWORD!;

async function fillSignIn(page: Page, username: string, password: string) {
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.describe('Console session (/api/console/session)', () => {
  test.describe('with a wrong password', () => {
    test('shows the error, stays on the sign-in page and makes no session', async ({ page }) => {
      await page.goto('/');
      await expect(page).toHaveURL(/\/sign-in$/);
      await expect(page).toHaveTitle('Sign in · Gatehouse');

      await fillSignIn(page, 'root', 'not-the-password');

      await expect(page.getByRole('alert')).toContainText('Invalid username or password');
      // Focus goes to why it failed, so a screen reader reads it first.
      await expect(page.getByRole('alert')).toBeFocused();
      await expect(page).toHaveURL(/\/sign-in$/);
      expect((await page.request.get('/api/console/session')).status()).toBe(401);
    });
  });

  test.describe('as root', () => {
    test('signs in to the groups list, then signs out', async ({ page }) => {
      await page.goto('/sign-in');
      await fillSignIn(page, 'root', ROOT_PASSWORD);

      await expect(page).toHaveURL(/\/groups$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Groups' }).getByRole('link', { name: 'Acme Corp', exact: true })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/api/docs');
      // The browser holds no credential of its own: only the httpOnly cookie.
      expect(await page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length, cookie: document.cookie }))).toEqual({
        local: 0,
        session: 0,
        cookie: '',
      });

      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();

      await expect(page).toHaveURL(/\/sign-in$/);
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
      expect((await page.request.get('/api/console/session')).status()).toBe(401);
      await page.goto('/groups');
      await expect(page).toHaveURL(/\/sign-in\?return_to=%2Fgroups$/);
    });

    test('returns to the page that asked for sign-in', async ({ page }) => {
      await page.goto('/groups/acme/platform');
      await expect(page).toHaveURL(/\/sign-in\?return_to=%2Fgroups%2Facme%2Fplatform$/);

      await fillSignIn(page, 'root', ROOT_PASSWORD);

      await expect(page).toHaveURL(/\/groups\/acme\/platform$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Platform' })).toBeVisible();
    });

    test('is sent to sign in when the session ends, and comes back after', async ({ page, context }) => {
      await page.goto('/groups/umbrella/ml/-/settings');
      await fillSignIn(page, 'root', ROOT_PASSWORD);
      const description = page.getByLabel('Description');
      await expect(description).toHaveValue('Models and pipelines.');

      // The session ends behind the console's back; the next write answers 401.
      await context.clearCookies();
      await description.fill('Written after the session ended');
      await page.getByRole('button', { name: 'Save changes' }).click();

      await expect(page).toHaveURL(/\/sign-in\?return_to=%2Fgroups%2Fumbrella%2Fml%2F-%2Fsettings$/);
      await fillSignIn(page, 'root', ROOT_PASSWORD);
      await expect(page).toHaveURL(/\/groups\/umbrella\/ml\/-\/settings$/);
      await expect(page.getByLabel('Description')).toHaveValue('Models and pipelines.');
    });
  });
});
