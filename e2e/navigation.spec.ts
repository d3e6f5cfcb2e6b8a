import { expect, signInAt, test } from './fixtures.ts';

test.describe('Main navigation', () => {
  test('one entry is current on each screen: projects under Groups, New group alone on its page', async ({ page }) => {
    await signInAt(page, '/groups');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const current = nav.locator('[aria-current="true"]');
    const expectCurrent = async (path: string, label: string) => {
      await page.goto(path);
      await expect(current).toHaveCount(1);
      await expect(current).toHaveAccessibleName(label);
    };
    await expectCurrent('/groups', 'Groups');
    await expectCurrent('/groups/acme/-/members', 'Groups');
    await expectCurrent('/projects/acme/website', 'Groups');
    await expectCurrent('/groups/new', 'New group');
    await expectCurrent('/user/access_tokens', 'Access tokens');
    await expectCurrent('/admin/users', 'Admin');
  });
});
