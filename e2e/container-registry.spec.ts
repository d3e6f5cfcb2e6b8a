import { expect, signInAt, test } from './fixtures.ts';

/*
 * The Container registry screen, one journey. No registry runs here (the HTTP suite pushes real
 * images through Debian's docker-registry): the screen says none is connected, and the
 * protection rules, which need none, are added, checked, edited and deleted.
 */
test('a Maintainer sees no registry is connected, adds a protection rule, checks pushes against it, edits and deletes it', async ({ page, api }) => {
  const acme = await api<{ id: number }>('GET', '/groups/acme');
  const made = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: `Images ${Date.now().toString(36)}`, namespace_id: acme.json.id });
  expect(made.status).toBe(201);
  const project = made.json;
  const prefix = project.path_with_namespace.toLowerCase();

  await signInAt(page, `/projects/${project.path_with_namespace}/-/container_registry`);
  const screenTitle = page.getByRole('heading', { level: 2, name: 'Container registry' });
  await expect(screenTitle).toBeVisible();
  const noRegistry = page.getByRole('region', { name: 'No container registry is connected' });
  await expect(noRegistry).toContainText('GATEHOUSE_REGISTRY_URL');
  await expect(page.getByRole('heading', { name: 'Images', exact: true })).toHaveCount(0);

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
