import { expect, signInAt, test } from './fixtures.ts';

test.describe('Main navigation', () => {
  test('one entry is current on each screen: projects under Groups, New group alone on its page', async ({ page }) => {
    // Six screens in one test: a budget for a busy machine, not a figure tested.
    test.setTimeout(60_000);
    await signInAt(page, '/groups/acme/-/members');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const current = nav.locator('[aria-current="true"]');
    const expectCurrent = async (label: string) => {
      await expect(current).toHaveCount(1);
      await expect(current).toHaveAccessibleName(label);
    };
    await expect(page.getByRole('table', { name: 'Members' })).toBeVisible();
    await expectCurrent('Groups');
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('link', { name: 'website', exact: true }).click();
    await expect(page).toHaveURL(/\/projects\/acme\/website$/);
    await expectCurrent('Groups');
    await nav.getByRole('link', { name: 'New group' }).click();
    await expect(page).toHaveURL(/\/groups\/new$/);
    await expectCurrent('New group');
    await nav.getByRole('link', { name: 'Access tokens' }).click();
    await expectCurrent('Access tokens');
    await nav.getByRole('link', { name: 'Admin' }).click();
    await expectCurrent('Admin');
    await nav.getByRole('link', { name: 'Groups' }).click();
    await expect(page).toHaveURL(/\/groups$/);
    await expectCurrent('Groups');
  });
});
