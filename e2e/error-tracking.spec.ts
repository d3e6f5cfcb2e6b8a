import * as Sentry from '@sentry/node';
import { expect, signInAt, test } from './fixtures.ts';

/**
 * The official Node SDK (@sentry/node), unchanged, reporting from this process to the DSN the
 * console shows. Its own client on its own scope rather than `Sentry.init`: the same SDK,
 * transport and stack parser, without the global hooks (uncaught-exception handlers,
 * instrumentation of http) init would install in Playwright's worker.
 */
async function reportWithSdk(dsn: string, tag: string) {
  const client = new Sentry.NodeClient({ dsn, transport: Sentry.makeNodeTransport, stackParser: Sentry.defaultStackParser, integrations: [Sentry.contextLinesIntegration()] });
  const scope = new Sentry.Scope();
  scope.setClient(client);
  client.init();
  function chargeCard() {
    throw new TypeError(`Card declined ${tag}`);
  }
  for (const user of [{ id: 'shopper-1' }, { email: 'shopper-2@example.com' }]) {
    scope.setUser(user);
    try {
      chargeCard();
    } catch (e) {
      scope.captureException(e);
    }
  }
  expect(await client.flush(10_000)).toBe(true);
  await client.close();
}

test.describe('Error tracking', () => {
  test('a Maintainer turns tracking on and copies the DSN; errors the Node SDK sends show with their count and stack trace; resolved, and made an issue', async ({ page, api }) => {
    const acme = await api<{ id: number }>('GET', '/groups/acme');
    const tag = Date.now().toString(36);
    const project = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: `tracked-${tag}`, namespace_id: acme.json.id });
    expect(project.status).toBe(201);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);

    // Tracking starts off: the list says so and leads to the settings.
    await signInAt(page, `/projects/${project.json.path_with_namespace}/-/error_tracking`);
    await expect(page.getByRole('heading', { name: 'Error tracking is off' })).toBeVisible();
    await page.getByRole('link', { name: 'Turn it on in the settings' }).click();
    const toggle = page.getByRole('switch', { name: 'Integrated error tracking' });
    await toggle.click();
    await expect(toggle).toBeChecked();
    await expect(page.getByText('On: errors sent with an active key are recorded.')).toBeVisible();
    await page.getByRole('button', { name: 'Create key' }).first().click();
    const keys = page.getByRole('table', { name: 'Client keys' });
    const shown = (await keys.getByTestId('dsn').textContent())!.trim();
    expect(shown).toMatch(new RegExp(`^http://glet_[0-9a-f]{32}@127\\.0\\.0\\.1:\\d+/api/v4/error_tracking/collector/${project.json.id}$`));
    await keys.getByRole('button', { name: /^Copy the DSN of key glet_/ }).click();
    await expect(keys.getByRole('button', { name: /^Copy the DSN of key glet_/ })).toHaveText('Copied');
    const dsn = await page.evaluate(() => navigator.clipboard.readText());
    expect(dsn).toBe(shown);

    await reportWithSdk(dsn, tag);

    await page.getByRole('link', { name: 'Errors', exact: true }).click();
    const row = page.getByRole('table', { name: 'Unresolved errors' }).getByRole('row').filter({ hasText: `TypeError: Card declined ${tag}` });
    // Events and users: 2 each (two reports, two users).
    await expect(row.getByRole('cell').nth(1)).toHaveText('2');
    await expect(row.getByRole('cell').nth(2)).toHaveText('2');
    await expect(row.getByRole('img', { name: /^2 events in the last 24 hours/ })).toBeVisible();

    await row.getByRole('link', { name: `TypeError: Card declined ${tag}` }).click();
    await expect(page.getByRole('heading', { level: 2, name: `TypeError: Card declined ${tag}` })).toBeVisible();
    const trace = page.getByRole('list', { name: 'Stack trace' });
    // The application's frames first (the throw, most recent call first), with the line it threw at; Playwright's own frames folded away.
    await expect(trace.getByRole('listitem').first()).toContainText(/chargeCard at .*error-tracking\.spec\.ts:\d+/);
    await expect(trace.getByRole('listitem').first()).toContainText('throw new TypeError(`Card declined ${tag}`);');
    await expect(trace).not.toContainText('node_modules');
    await page.getByRole('button', { name: /^Show \d+ more frames?$/ }).click();
    await expect(trace).toContainText('node_modules');

    await page.getByRole('button', { name: 'Resolve' }).click();
    await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();
    await expect(page.getByText('Resolved', { exact: true }).first()).toBeVisible();
    const resolved = await api<{ status: string }[]>('GET', `/projects/${project.json.id}/error_tracking/errors?status=resolved`);
    expect(resolved.json.map((e) => e.status)).toEqual(['resolved']);

    await page.getByRole('button', { name: 'Create issue' }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${project.json.path_with_namespace}/-/issues/1$`));
    await expect(page.getByRole('heading', { name: `Error: TypeError: Card declined ${tag}` })).toBeVisible();
  });
});
