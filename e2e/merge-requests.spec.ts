import { createMember, expect, signInAt, test } from './fixtures.ts';

const WEBSITE = 'acme/website';

test.describe('Merge requests of a project', () => {
  // Long flows on a busy machine; only what the screens show decides.
  test.describe.configure({ timeout: 180_000 });

  test('a Developer filters the list by state and search in the URL, and the filters survive a reload', async ({ page }) => {
    const developer = await createMember({ scope: 'projects', id: WEBSITE }, 'developer', 'mrs-list');
    await signInAt(page, `/projects/${WEBSITE}`, developer);
    await page.getByRole('tab', { name: 'Merge requests' }).click();
    const open = page.getByRole('table', { name: 'Open merge requests' });
    await expect(open.getByRole('link', { name: 'Pricing table from the plan catalogue' })).toBeVisible();
    await expect(open.getByRole('link', { name: 'Fix the broken footer link' })).toHaveCount(0);

    await page.getByRole('tab', { name: 'Merged' }).click();
    await expect(page).toHaveURL(/state=merged/);
    const merged = page.getByRole('table', { name: 'Merged merge requests' });
    await expect(merged.getByRole('row').filter({ hasText: 'Fix the broken footer link' })).toContainText('fix/footer-link → main');
    await page.getByRole('textbox', { name: 'Author' }).fill('dave');
    await expect(page).toHaveURL(/author_username=dave/);
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Merged' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('textbox', { name: 'Author' })).toHaveValue('dave');
    await expect(page.getByRole('table', { name: 'Merged merge requests' }).getByRole('row')).toHaveCount(2);

    await page.getByRole('textbox', { name: 'Author' }).fill('nobody-at-all');
    await expect(page.getByText('No merge request matches these filters')).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.getByRole('tab', { name: 'Open' }).click();
    await page.getByRole('textbox', { name: 'Search' }).fill('pricing');
    await expect(page).toHaveURL(/search=pricing/);
    await expect(page.getByRole('table', { name: 'Open merge requests' }).getByRole('row')).toHaveCount(2);
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Search' })).toHaveValue('pricing');
    await expect(page.getByRole('table', { name: 'Open merge requests' }).getByRole('row').nth(1)).toContainText('Pricing table from the plan catalogue');
    await expect(page.getByRole('table', { name: 'Open merge requests' }).getByRole('row').nth(1)).toContainText('Failed');
  });

  test('a Developer opens a merge request: its description, its commits, and its changes with the long file collapsed until shown', async ({ page }) => {
    const developer = await createMember({ scope: 'projects', id: WEBSITE }, 'developer', 'mrs-read');
    await signInAt(page, `/projects/${WEBSITE}/-/merge_requests`, developer);
    await page.getByRole('link', { name: 'Pricing table from the plan catalogue' }).click();
    await expect(page).toHaveURL(/\/projects\/acme\/website\/-\/merge_requests\/\d+$/);
    await expect(page.getByRole('heading', { level: 2, name: 'Pricing table from the plan catalogue' })).toBeVisible();
    const description = page.getByRole('region', { name: 'Description' });
    await expect(description.locator('strong')).toHaveText('one catalogue');
    await expect(description.getByRole('listitem')).toHaveCount(3);
    await expect(page.getByRole('region', { name: 'About this merge request' })).toContainText('Carol Developer');
    await expect(page.getByRole('region', { name: 'Merge', exact: true })).toContainText(/Pipeline #\d+ failed/);

    await page.getByRole('tab', { name: 'Commits' }).click();
    await expect(page).toHaveURL(/\/commits$/);
    const commits = page.getByRole('table', { name: 'Commits' });
    await expect(commits.getByRole('row')).toHaveCount(3);
    await expect(commits.getByRole('row').nth(1)).toContainText('refactor: configuration notes move to the docs');
    await expect(commits.getByRole('row').nth(2)).toContainText('feat(pricing): plan catalogue for every region');

    await page.getByRole('tab', { name: 'Changes' }).click();
    await expect(page).toHaveURL(/\/diffs$/);
    await expect(page.getByRole('region', { name: 'File docs/configuration.md' })).toContainText('Renamed from docs/logging.md');
    const deleted = page.getByRole('region', { name: 'File src/config.js' });
    await expect(deleted).toContainText('Deleted');
    await expect(deleted.getByRole('table', { name: 'Changes of src/config.js' }).getByRole('row').filter({ hasText: 'export const config3 = 3;' })).toContainText('Removed');

    const long = page.getByRole('region', { name: 'File src/pricing/catalogue.js' });
    await expect(long).toContainText('New file');
    await expect(long).toContainText('320 lines changed: collapsed');
    await expect(long.getByRole('table')).toHaveCount(0);
    const show = long.getByRole('button', { name: 'Show file' });
    await expect(show).toHaveAttribute('aria-expanded', 'false');
    await show.click();
    const lines = long.getByRole('table', { name: 'Changes of src/pricing/catalogue.js' });
    await expect(lines.getByRole('row').filter({ hasText: 'export const catalogue = [' })).toContainText('2');
    await expect(long.getByRole('button', { name: 'Hide file' })).toHaveAttribute('aria-expanded', 'true');
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Changes' })).toHaveAttribute('aria-selected', 'true');
  });

  test('a Maintainer merges: a stale page is refused in plain words, a fresh one merges; another is set to auto-merge and merges when its pipeline passes', async ({ page, api }) => {
    const suffix = Date.now().toString(36);
    const group = await api<{ id: number }>('POST', '/groups', { name: `MRs ${suffix}`, path: `mrs-${suffix}` });
    const created = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: `MRs ${suffix}`, path: `mrs-${suffix}`, namespace_id: group.json.id });
    expect(created.status).toBe(201);
    const project = created.json;
    const commit = async (branch: string, file: string, start?: string) => {
      const res = await api<{ id: string }>('POST', `/projects/${project.id}/repository/commits`, {
        branch,
        ...(start ? { start_branch: start } : {}),
        commit_message: `Add ${file}`,
        actions: [{ action: 'create', file_path: file, content: `${file}\n` }],
      });
      expect(res.status).toBe(201);
      return res.json.id;
    };
    await commit('main', 'README.md');
    await commit('e2e-now', 'now.txt', 'main');
    const autoHead = await commit('e2e-auto', 'auto.txt', 'main');
    const open = async (branch: string, title: string) => {
      const mr = await api<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: branch, target_branch: 'main', title });
      expect(mr.status).toBe(201);
      return mr.json.iid;
    };
    const now = await open('e2e-now', `Merge now ${suffix}`);
    const auto = await open('e2e-auto', `Merge later ${suffix}`);
    const report = async (state: string) => expect((await api('POST', `/projects/${project.id}/statuses/${autoHead}`, { state, ref: 'e2e-auto', name: 'e2e-test' })).status).toBe(201);
    await report('running');
    const maintainer = await createMember({ scope: 'projects', id: project.id }, 'maintainer', 'mrs-merge');

    await signInAt(page, `/projects/${project.path_with_namespace}/-/merge_requests/${now}`, maintainer);
    const panel = page.getByRole('region', { name: 'Merge', exact: true });
    await expect(panel).toContainText('Ready to merge');

    // Edited from the overview: a new title and description.
    await page.getByRole('button', { name: 'Edit merge request' }).click();
    const edit = page.getByRole('dialog', { name: `Edit merge request !${now}` });
    await expect(edit.getByRole('textbox', { name: 'Title' })).toBeFocused();
    await edit.getByRole('textbox', { name: 'Title' }).fill(`Merge now ${suffix} (edited)`);
    await edit.getByRole('textbox', { name: 'Description' }).fill('Ships the **now** file.');
    await edit.getByRole('button', { name: 'Save merge request' }).click();
    await expect(edit).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit merge request' })).toBeFocused();
    await expect(page.getByRole('heading', { level: 2, name: `Merge now ${suffix} (edited)` })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Description' }).locator('strong')).toHaveText('now');
    expect((await api<{ title: string }>('GET', `/projects/${project.id}/merge_requests/${now}`)).json.title).toBe(`Merge now ${suffix} (edited)`);

    // Approved, the approval revoked, and approved again.
    const approvals = page.getByRole('region', { name: 'Approvals' });
    await expect(approvals).toContainText('Nobody has approved this merge request yet');
    await approvals.getByRole('button', { name: 'Approve' }).click();
    await expect(approvals.getByRole('list', { name: 'Approved by' })).toContainText('Approved by you');
    type Approvals = { approved: boolean; approved_by: { user: { username: string } }[] };
    expect((await api<Approvals>('GET', `/projects/${project.id}/merge_requests/${now}/approvals`)).json.approved_by.map((a) => a.user.username)).toEqual([maintainer.username]);
    await approvals.getByRole('button', { name: 'Revoke approval' }).click();
    await expect(approvals).toContainText('Nobody has approved this merge request yet');
    await approvals.getByRole('button', { name: 'Approve' }).click();
    await expect(approvals.getByRole('button', { name: 'Revoke approval' })).toBeVisible();
    expect((await api<Approvals>('GET', `/projects/${project.id}/merge_requests/${now}/approvals`)).json.approved).toBe(true);
    // The branch moves after the page was loaded: the merge of what the page showed is refused.
    await commit('e2e-now', 'later.txt');
    await panel.getByRole('button', { name: 'Merge', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Merge !${now} into main?` });
    await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(dialog.getByRole('alert')).toContainText('The source branch changed since this page was loaded');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.reload();
    await panel.getByRole('button', { name: 'Merge', exact: true }).click();
    await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Merged', { exact: true }).first()).toBeVisible();
    await expect(panel).toContainText(/Merged by .* into main as [0-9a-f]{8}/);
    await expect(panel.getByRole('button', { name: 'Merge', exact: true })).toHaveCount(0);
    expect((await api<{ state: string }>('GET', `/projects/${project.id}/merge_requests/${now}`)).json.state).toBe('merged');

    await page.goto(`/projects/${project.path_with_namespace}/-/merge_requests/${auto}`);
    await expect(panel).toContainText(/Pipeline #\d+ is still running/);
    await panel.getByRole('button', { name: 'Set to auto-merge' }).click();
    const autoDialog = page.getByRole('dialog', { name: `Merge !${auto} when the pipeline succeeds?` });
    await autoDialog.getByRole('button', { name: 'Set to auto-merge' }).click();
    await expect(panel).toContainText('Set to merge automatically when the pipeline succeeds.');
    await expect(panel.getByRole('button', { name: 'Cancel auto-merge' })).toBeVisible();
    // The CI passes: the page follows the merge without a reload.
    await report('success');
    await expect(panel).toContainText(/Merged by .* into main/, { timeout: 60_000 });
  });
});
