import { createUser, expect, signInAt, test } from './fixtures.ts';

const BASE_URL = process.env.E2E_BASE_URL!;
const userStatus = async (token: string) => (await fetch(`${BASE_URL}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': token } })).status;

async function takeRevealed(page: import('@playwright/test').Page, name: string) {
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('You will not see it again')).toBeVisible();
  const token = await dialog.getByRole('textbox', { name: `New token “${name}”` }).inputValue();
  expect(token).toMatch(/^gtpat-/);
  await dialog.getByRole('button', { name: 'I have copied it' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  return token;
}

test.describe('Personal access tokens of the signed-in user', () => {
  test('a user creates a token with chosen scopes (shown once), rotates it and revokes it', async ({ page }) => {
    const me = await createUser('pat');
    await signInAt(page, '/groups', me);
    await page.getByRole('link', { name: 'Access tokens' }).click();
    await expect(page).toHaveURL(/\/user\/access_tokens$/);
    await expect(page.getByText('No active personal access tokens')).toBeVisible();

    await page.getByRole('button', { name: 'Create token' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create a personal access token' });
    await create.getByRole('button', { name: 'Create token' }).click();
    await expect(create.getByText('Select at least one scope')).toBeVisible();
    await create.getByLabel('Token name').fill('laptop');
    // The shared token form: Escape on a filled form asks first, and a description is counted.
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Keep editing' }).click();
    await expect(create.getByLabel('Token name')).toHaveValue('laptop');
    await create.getByLabel('Description').fill('Scripts on my laptop.');
    await expect(create.getByText('21/255')).toBeVisible();
    await expect(create.getByRole('checkbox', { name: 'api', exact: true })).toBeVisible();
    // Only an administrator's token may act as someone else.
    await expect(create.getByRole('checkbox', { name: 'sudo' })).toHaveCount(0);
    await create.getByRole('checkbox', { name: 'read_api' }).check();
    await create.getByRole('button', { name: 'Create token' }).click();
    const token = await takeRevealed(page, 'laptop');
    expect(await userStatus(token)).toBe(200);
    const self = await (await fetch(`${BASE_URL}/api/v4/personal_access_tokens/self`, { headers: { 'PRIVATE-TOKEN': token } })).json();
    expect(self.scopes).toEqual(['read_api']);
    expect(self.description).toBe('Scripts on my laptop.');

    const row = page.getByRole('row').filter({ hasText: 'laptop' });
    await expect(row.getByText('read_api')).toBeVisible();
    await row.getByRole('button', { name: 'Rotate laptop' }).click();
    await page.getByRole('dialog').getByRole('button', { name: /Rotate/ }).click();
    const rotated = await takeRevealed(page, 'laptop');
    expect(rotated).not.toBe(token);
    expect(await userStatus(token)).toBe(401);
    expect(await userStatus(rotated)).toBe(200);

    await page.getByRole('row').filter({ hasText: 'laptop' }).getByRole('button', { name: 'Revoke laptop' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await expect(page.getByText('No active personal access tokens')).toBeVisible();
    expect(await userStatus(rotated)).toBe(401);

    await page.getByRole('tab', { name: 'Inactive' }).click();
    await expect(page).toHaveURL(/state=inactive/);
    const inactive = page.getByRole('row').filter({ hasText: 'laptop' });
    await expect(inactive).toHaveCount(2);
    // The first token was rotated, the second revoked by hand: the list tells them apart.
    await expect(inactive.filter({ hasText: /Rotated \w+ \d+/ })).toHaveCount(1);
    await expect(inactive.filter({ hasText: 'Revoked' })).toHaveCount(1);
  });

  test('an administrator’s token may have sudo, and then acts as another user through the Sudo header', async ({ page }) => {
    const other = await createUser('sudo-target');
    await signInAt(page, '/user/access_tokens');
    await page.getByRole('button', { name: 'Create token' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create a personal access token' });
    await create.getByLabel('Token name').fill('acting');
    await expect(create.getByText('Only an administrator’s token may have it.')).toBeVisible();
    await create.getByRole('checkbox', { name: 'api', exact: true }).check();
    await create.getByRole('checkbox', { name: 'sudo' }).check();
    await create.getByRole('button', { name: 'Create token' }).click();
    const token = await takeRevealed(page, 'acting');
    const asOther = await fetch(`${BASE_URL}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': token, Sudo: other.username } });
    expect(asOther.status).toBe(200);
    expect((await asOther.json()).username).toBe(other.username);
  });

  test('a failed create is told inside the dialog, in plain words, with focus on it, until the next try', async ({ page }) => {
    const me = await createUser('pat-fails');
    await signInAt(page, '/user/access_tokens', me);
    let fail = true;
    await page.route('**/personal_access_tokens', (route) =>
      route.request().method() === 'POST' && fail
        ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: '500 Internal Server Error' }) })
        : route.continue(),
    );
    await page.getByRole('button', { name: 'Create token' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create a personal access token' });
    await create.getByLabel('Token name').fill('flaky');
    await create.getByRole('checkbox', { name: 'read_api' }).check();
    await create.getByRole('button', { name: 'Create token' }).click();
    const problem = create.getByRole('alert');
    await expect(problem).toContainText('The token was not created');
    await expect(problem).toContainText('The server failed to do this (error 500)');
    await expect(problem).not.toContainText('Internal Server Error');
    await expect(problem).toBeFocused();
    // No toast over the dialog, and the dialog keeps what was typed.
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
    await expect(create.getByLabel('Token name')).toHaveValue('flaky');
    await page.waitForTimeout(5000);
    await expect(problem).toBeVisible();
    fail = false;
    await create.getByRole('button', { name: 'Create token' }).click();
    await takeRevealed(page, 'flaky');
  });

  test('a date picked with the keyboard returns focus to its field, inside the dialog', async ({ page }) => {
    const me = await createUser('pat-dates');
    await signInAt(page, '/user/access_tokens', me);
    await page.getByRole('button', { name: 'Create token' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create a personal access token' });
    const field = create.getByRole('button', { name: /^Expiration date/ });
    await field.focus();
    await page.keyboard.press('Enter');
    // The calendar has focus on a day; arrows move it, Enter picks it.
    const focusedDay = page.locator('table button:focus');
    await expect(focusedDay).toHaveCount(1);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect(page.locator('table button:focus')).toHaveCount(0);
    await expect(field).toBeFocused();
    await expect(field).not.toHaveText('');
    await expect(create).toBeVisible();
  });
});
