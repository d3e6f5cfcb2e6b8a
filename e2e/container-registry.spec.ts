import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ociImage, skopeo } from '../bff/test/registry.ts';
import { formatSize } from '../web/src/format.ts';
import { expect, signInAt, test } from './fixtures.ts';

/*
 * The Container registry screen, one journey, against the real registry the suite runs
 * (e2e/global-setup.ts): an image pushed with skopeo is listed with its digest, size and build
 * date, and deleted; then the protection rules are added, checked, edited and deleted.
 */
test('the Container registry screen: a pushed image with its digest, size and build date, then deleted; a protection rule added, checked against pushes, edited and deleted', async ({ page, api }) => {
  const acme = await api<{ id: number }>('GET', '/groups/acme');
  const made = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: `Images ${Date.now().toString(36)}`, namespace_id: acme.json.id });
  expect(made.status).toBe(201);
  const project = made.json;
  const prefix = project.path_with_namespace.toLowerCase();

  // An image pushed as a user would, with docker's credentials (a token as the password).
  const host = `127.0.0.1:${process.env.E2E_REGISTRY_PORT}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-e2e-image-'));
  const built = await ociImage(path.join(dir, 'image'), 'hello from the console journey\n', '2026-10-05T09:30:00Z');
  const pushed = await skopeo(['copy', '--dest-creds', `root:${process.env.E2E_ROOT_TOKEN}`, '--dest-tls-verify=false', `oci:${dir}/image:latest`, `docker://${host}/${prefix}/app:v1`]);
  fs.rmSync(dir, { recursive: true, force: true });
  expect(pushed.ok, pushed.out).toBe(true);

  await signInAt(page, `/projects/${project.path_with_namespace}/-/container_registry`);
  const screenTitle = page.getByRole('heading', { level: 2, name: 'Container registry' });
  await expect(screenTitle).toBeVisible();
  await expect(page.getByRole('region', { name: 'Sign in to the registry' })).toContainText(`docker login ${host} --username root`);
  const tags = page.getByRole('table', { name: `Tags of ${prefix}/app` });
  const tag = tags.getByRole('row').filter({ hasText: 'v1' });
  await expect(tag).toContainText(`${host}/${prefix}/app:v1`);
  // What the registry holds (skopeo compressed the layer on the way), as the API answers it.
  const [repository] = (await api<{ id: number }[]>('GET', `/projects/${project.id}/registry/repositories`)).json;
  const image = (await api<{ digest: string; total_size: number; revision: string }>('GET', `/projects/${project.id}/registry/repositories/${repository!.id}/tags/v1`)).json;
  expect(image.revision).toBe(built.config.slice('sha256:'.length));
  await expect(tag).toContainText(`${image.digest.slice(0, 'sha256:'.length + 12)}…`);
  await expect(tag).toContainText(formatSize(image.total_size));
  await expect(tag).toContainText('Oct 5, 2026');
  // Deleted from the registry after a question: the repository stays, without tags (as on the platform).
  await tag.getByRole('button', { name: 'Delete tag v1' }).click();
  const sure = page.getByRole('dialog', { name: 'Delete tag v1?' });
  await expect(sure.getByRole('button', { name: 'Delete tag' })).toBeFocused();
  await sure.getByRole('button', { name: 'Delete tag' }).click();
  await expect(sure).toBeHidden();
  await expect(page.getByRole('region', { name: `${prefix}/app` })).toContainText('The registry holds no tag of it now');
  const gone = await api('GET', `/projects/${project.id}/registry/repositories?tags_count=true`);
  expect(gone.json).toEqual([expect.objectContaining({ name: 'app', tags_count: 0 })]);

  // Add: the server's 422 lands under the pattern; then the rule is saved and the dialog gives focus back.
  await expect(page.getByRole('heading', { name: 'No protection rules' })).toBeVisible();
  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a protection rule' });
  const pattern = dialog.getByLabel('Path pattern');
  await expect(pattern).toBeFocused();
  await expect(pattern).toHaveValue(`${prefix}/`);
  await pattern.fill('somewhere-else/app');
  await dialog.getByRole('button', { name: 'Add rule' }).click();
  await expect(dialog.getByText('Should start with the project\'s full path')).toBeVisible();
  await expect(pattern).toHaveAttribute('aria-invalid', 'true');
  await pattern.fill(`${prefix}/prod-*`);
  await expect(dialog.getByLabel('Who may push')).toHaveValue('maintainer');
  await dialog.getByRole('button', { name: 'Add rule' }).click();
  await expect(dialog).toBeHidden();
  const table = page.getByRole('table', { name: 'Protection rules' });
  const row = table.getByRole('row').filter({ hasText: `${prefix}/prod-*` });
  await expect(row).toContainText('Maintainer');
  await expect(screenTitle).toBeFocused();

  // The live check, from the rules in the browser: a Developer is refused on a matching path (case aside), allowed elsewhere.
  const check = page.getByRole('region', { name: 'Would this push be allowed?' });
  const verdict = check.getByTestId('push-verdict');
  await expect(check.getByLabel('Role')).toHaveValue('30');
  await check.getByLabel('Image path').fill(`${prefix}/prod-api`);
  await expect(verdict).toContainText(`Refused by the rule ${prefix}/prod-*: pushing there needs at least the Maintainer role.`);
  await check.getByLabel('Image path').fill(`${prefix}/dev-api`);
  await expect(verdict).toContainText('Allowed: no rule stops a Developer pushing to this path.');

  // Edit: Owners only, on release-*; a Maintainer is refused there now.
  await row.getByRole('button', { name: `Edit the rule ${prefix}/prod-*` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit protection rule' });
  await edit.getByLabel('Path pattern').fill(`${prefix}/release-*`);
  await edit.getByLabel('Who may push').selectOption('owner');
  await edit.getByRole('button', { name: 'Save rule' }).click();
  await expect(edit).toBeHidden();
  const edited = table.getByRole('row').filter({ hasText: `${prefix}/release-*` });
  await expect(edited).toContainText('Owner');
  await expect(table.getByRole('row').filter({ hasText: `${prefix}/prod-*` })).toHaveCount(0);
  await check.getByLabel('Role').selectOption('40');
  await check.getByLabel('Image path').fill(`${prefix}/release-2`);
  await expect(verdict).toContainText('Refused by the rule');

  // Delete, after a question that takes focus and gives it back.
  const deleteButton = edited.getByRole('button', { name: `Delete the rule ${prefix}/release-*` });
  await deleteButton.click();
  const confirm = page.getByRole('dialog', { name: `Delete the rule ${prefix}/release-*?` });
  await expect(confirm.getByRole('button', { name: 'Delete rule' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Delete rule' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('heading', { name: 'No protection rules' })).toBeVisible();
  await expect(screenTitle).toBeFocused();
  await expect(verdict).toContainText('Allowed');
  const left = await api<unknown[]>('GET', `/projects/${project.id}/registry/protection/repository/rules`);
  expect(left.json).toEqual([]);
});
