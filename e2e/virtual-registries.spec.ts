import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, signInAt, test } from './fixtures.ts';

/*
 * The Virtual registries screen, one journey as root in the top-level group acme. The upstreams
 * are outside parts: a tiny Maven repository served on loopback by node:http (one POM), and a
 * port nothing listens on.
 */

const POM_PATH = 'com/example/demo/1.0/demo-1.0.pom';
const POM = '<project><modelVersion>4.0.0</modelVersion><groupId>com.example</groupId><artifactId>demo</artifactId><version>1.0</version></project>\n';

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

test('a registry is created, gets a live and a dead upstream, tests and reorders them, shows settings.xml and its cache, purges it, and is deleted', async ({ page, api }) => {
  const repository = http.createServer((req, res) => {
    if (req.url !== `/maven2/${POM_PATH}`) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(POM) });
    res.end(req.method === 'HEAD' ? undefined : POM);
  });
  const live = `http://127.0.0.1:${await listen(repository)}/maven2`;
  const closed = http.createServer();
  const deadPort = await listen(closed);
  await new Promise((resolve) => closed.close(resolve));
  const dead = `http://127.0.0.1:${deadPort}/maven2`;
  // Loopback upstreams are local requests, refused unless allowed (as for webhooks).
  const settings = await api<{ allow_local_requests_from_web_hooks_and_services: boolean }>('GET', '/application/settings');
  const allowedBefore = settings.json.allow_local_requests_from_web_hooks_and_services;
  expect((await api('PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: true })).status).toBe(200);
  const name = `Maven ${Date.now().toString(36)}`;
  try {
    await signInAt(page, '/groups/acme/-/virtual_registries');
    await expect(page.getByRole('heading', { level: 2, name: 'Virtual registries' })).toBeVisible();

    // Create: the new registry's page opens.
    await page.getByRole('button', { name: 'New registry' }).first().click();
    const create = page.getByRole('dialog', { name: 'New virtual registry' });
    await expect(create.getByRole('textbox', { name: 'Name', exact: true })).toBeFocused();
    await create.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await create.getByLabel('Description').fill('Dependencies of the e2e journey');
    await create.getByRole('button', { name: 'Create registry' }).click();
    await expect(create).toBeHidden();
    const title = page.getByRole('heading', { level: 2, name });
    await expect(title).toBeVisible();
    const registryId = Number(/virtual_registries\/(\d+)$/.exec(page.url())?.[1]);
    expect(registryId).toBeGreaterThan(0);

    // Add the live upstream, its connection tested from the dialog before saving.
    await page.getByRole('button', { name: 'Add upstream' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add an upstream' });
    await expect(add.getByLabel('URL')).toBeFocused();
    await add.getByLabel('URL').fill(live);
    await add.getByRole('textbox', { name: 'Name', exact: true }).fill('Loopback');
    await add.getByRole('button', { name: 'Test connection' }).click();
    await expect(add.getByRole('status')).toContainText('Connection works');
    await add.getByRole('button', { name: 'Add upstream' }).click();
    await expect(add).toBeHidden();

    // The dead one, with credentials (the password is never shown again).
    await page.getByRole('button', { name: 'Add upstream' }).first().click();
    await add.getByLabel('URL').fill(dead);
    await add.getByRole('textbox', { name: 'Name', exact: true }).fill('Dead port');
    await add.getByLabel('Username').fill('bot');
    await add.getByLabel('Password', { exact: true }).fill('bot-secret');
    await add.getByRole('button', { name: 'Add upstream' }).click();
    await expect(add).toBeHidden();

    const table = page.getByRole('table', { name: `Upstreams of ${name}` });
    const rows = table.getByRole('row');
    await expect(rows.nth(1)).toContainText('Loopback');
    await expect(rows.nth(2)).toContainText('Dead port');
    await expect(rows.nth(2)).toContainText('as bot');

    // Test both saved upstreams: one works, the other says why not in plain words.
    await page.getByRole('button', { name: 'Test the connection to Loopback' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Loopback: connection works' })).toBeVisible();
    await page.getByRole('button', { name: 'Test the connection to Dead port' }).click();
    const failed = page.getByRole('status').filter({ hasText: 'Dead port: connection failed' });
    await expect(failed).toContainText('Dead port could not be reached: nothing answers at that address and port.');

    // Edit: the password is not shown, and left empty it stays; the cache validity changes.
    await page.getByRole('button', { name: 'More actions for Dead port' }).click();
    await page.getByRole('menuitem', { name: 'Edit Dead port' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit upstream Dead port' });
    await expect(edit.getByLabel('Username')).toHaveValue('bot');
    await expect(edit.getByLabel('Password', { exact: true })).toHaveValue('');
    await edit.getByRole('textbox', { name: 'Cache validity (hours)', exact: true }).fill('48');
    await edit.getByRole('button', { name: 'Save upstream' }).click();
    await expect(edit).toBeHidden();
    await expect(rows.nth(2)).toContainText('Files 48 h');

    // Reorder: the dead port first now (the pull-through falls through to the loopback).
    await page.getByRole('button', { name: 'Move Dead port up' }).click();
    await expect(rows.nth(1)).toContainText('Dead port');
    await expect(rows.nth(2)).toContainText('Loopback');
    await expect(page.getByRole('button', { name: 'Move Dead port up' })).toBeDisabled();

    // settings.xml: the pull-through's URL for this registry, root's name and a placeholder, never a token.
    const snippet = page.getByRole('region', { name: 'settings.xml' });
    const base = new URL(page.url()).origin;
    await expect(snippet).toContainText(`<url>${base}/api/v4/virtual_registries/packages/maven/${registryId}</url>`);
    await expect(snippet).toContainText('<username>root</username>');
    await expect(snippet).toContainText('<password><your personal access token></password>');
    await expect(page.getByRole('button', { name: 'Copy: settings.xml' })).toBeVisible();

    // A file pulled through the registry lands in the cache; the screen counts it; purging empties it.
    const pulled = await fetch(`${base}/api/v4/virtual_registries/packages/maven/${registryId}/${POM_PATH}`, { headers: { 'Private-Token': process.env.E2E_ROOT_TOKEN! } });
    expect([pulled.status, await pulled.text()]).toEqual([200, POM]);
    const cacheUrl = `/api/console/virtual_registries/packages/maven/registries/${registryId}/cache`;
    await expect.poll(async () => ((await (await page.request.get(cacheUrl)).json()) as { entries: number }).entries).toBe(1);
    await page.reload();
    const total = page.getByTestId('cache-total');
    await expect(total).toHaveText(`1 file, ${Buffer.byteLength(POM)} B in all`);
    await expect(rows.nth(2)).toContainText(`1 file · ${Buffer.byteLength(POM)} B`);
    await page.getByRole('button', { name: 'Purge cache' }).click();
    const purge = page.getByRole('dialog', { name: `Purge the cache of ${name}?` });
    await purge.getByRole('button', { name: 'Purge cache' }).click();
    await expect(purge).toBeHidden();
    await expect(total).toContainText('Empty');

    // Delete the loopback upstream: the dead port stays first.
    await page.getByRole('button', { name: 'More actions for Loopback' }).click();
    await page.getByRole('menuitem', { name: 'Delete Loopback' }).click();
    await page.getByRole('dialog', { name: 'Delete the upstream Loopback?' }).getByRole('button', { name: 'Delete upstream' }).click();
    await expect(table.getByText('Loopback')).toHaveCount(0);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('Dead port');

    // Delete the registry: back to the list, where it is gone.
    await page.getByRole('button', { name: 'Delete registry' }).click();
    await page.getByRole('dialog', { name: `Delete the registry ${name}?` }).getByRole('button', { name: 'Delete registry' }).click();
    await expect(page).toHaveURL(/\/groups\/acme\/-\/virtual_registries$/);
    await expect(page.getByRole('heading', { level: 2, name: 'Virtual registries' })).toBeVisible();
    await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
    expect((await api('GET', `/virtual_registries/packages/maven/registries/${registryId}`)).status).toBe(404);
  } finally {
    await api('PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: allowedBefore });
    await new Promise((resolve) => repository.close(resolve));
  }
});
