import { expect, test, signInAt } from './fixtures.ts';

const BASE_URL = process.env.E2E_BASE_URL!;

/** What a script holding `token` gets from GET /user. */
async function statusWithToken(token: string): Promise<number> {
  return (await fetch(`${BASE_URL}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': token } })).status;
}

test.describe('Leaked token revocation (POST /groups/:id/tokens/revoke)', () => {
  const username = `leaky-${Date.now().toString(36)}`;
  const tokenName = 'laptop script';
  let leaked: string;
  let userId: number;

  test.beforeAll(async ({ api }) => {
    const user = await api<{ id: number }>('POST', '/users', {
      username,
      name: 'Lee Leaky',
      email: `${username}@example.com`,
      password: 'leaky-password-1',
    });
    expect(user.status).toBe(201);
    userId = user.json.id;
    const umbrella = await api<{ id: number }>('GET', '/groups/umbrella');
    expect((await api('POST', `/groups/${umbrella.json.id}/members`, { user_id: userId, access_level: 30 })).status).toBe(201);
    const pat = await api<{ token: string }>('POST', `/users/${userId}/personal_access_tokens`, { name: tokenName, scopes: ['api'] });
    expect(pat.status).toBe(201);
    leaked = pat.json.token;
    expect(await statusWithToken(leaked)).toBe(200);
  });

  test.describe('as an Owner of the top-level group', () => {
    test('revokes a member’s personal access token and shows what it was', async ({ page }) => {
      await signInAt(page, '/groups/umbrella');
      await page.getByRole('tab', { name: 'Leaked tokens' }).click();
      await expect(page).toHaveURL(/\/groups\/umbrella\/-\/revoke_token$/);

      const field = page.getByLabel('Leaked token', { exact: true });
      await expect(field).toHaveAttribute('type', 'password');
      await field.fill(leaked);
      await page.getByRole('button', { name: 'Revoke token' }).click();

      const details = page.getByRole('region', { name: `“${tokenName}” is revoked` });
      await expect(details).toBeVisible();
      await expect(details).toContainText('Personal access token');
      await expect(details).toContainText(`@${username}`);
      await expect(details).toContainText(`user ID ${userId}`);
      await expect(details).toContainText('api');
      await expect(details).toContainText('Revoked');
      // The pasted value is not kept after it was sent.
      await expect(field).toHaveValue('');
      expect(await page.evaluate((s) => document.documentElement.outerHTML.includes(s), leaked)).toBe(false);

      expect(await statusWithToken(leaked)).toBe(401);

      // Sending it again is harmless: it is reported, still revoked.
      await field.fill(leaked);
      await page.getByRole('button', { name: 'Revoke token' }).click();
      await expect(details).toContainText('Revoked');
      await expect(field).toHaveValue('');
    });

    test('says so when no credential with access to the group matches', async ({ page }) => {
      await signInAt(page, '/groups/umbrella/-/revoke_token');
      await page.getByLabel('Leaked token', { exact: true }).fill('gtpat-this-token-does-not-exist');
      await page.getByRole('button', { name: 'Revoke token' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'No credential with access to this group matches' })).toBeVisible();
      await expect(page.getByLabel('Leaked token', { exact: true })).toHaveValue('');
    });

    test('on a subgroup, points to the top-level group', async ({ page }) => {
      await signInAt(page, '/groups/umbrella/ml/-/revoke_token');
      await expect(page.getByText('Leaked tokens are revoked from the top-level group')).toBeVisible();
      await expect(page.getByLabel('Leaked token', { exact: true })).toHaveCount(0);
      await page.getByRole('link', { name: 'Revoke a token in Umbrella Labs' }).click();
      await expect(page).toHaveURL(/\/groups\/umbrella\/-\/revoke_token$/);
      await expect(page.getByLabel('Leaked token', { exact: true })).toBeVisible();
    });
  });
});
