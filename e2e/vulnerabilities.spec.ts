import fs from 'node:fs';
import { createMember, defaultBranchPipeline, expect, signInAt, test, uploadReport } from './fixtures.ts';

const FIXTURES = new URL('../bff/test/fixtures/security/', import.meta.url);

test.describe('Vulnerability report and dependencies of a project', () => {
  test.describe.configure({ timeout: 120_000 });
  test('a CI script uploads a SAST report and an SBOM; a Maintainer dismisses a finding with a reason; the dependencies show with their licenses', async ({ page, api }) => {
    const acme = await api<{ id: number }>('GET', '/groups/acme');
    const project = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: `scanned-${Date.now().toString(36)}`, namespace_id: acme.json.id });
    expect(project.status).toBe(201);
    const id = project.json.id;
    const pipeline = await defaultBranchPipeline(id);
    for (const [reportType, file] of [['sast', 'gl-sast-report.json'], ['cyclonedx', 'gl-sbom-npm.cdx.json']]) {
      await uploadReport(id, pipeline, reportType, file, fs.readFileSync(new URL(file, FIXTURES), 'utf8'));
    }

    const maintainer = await createMember({ scope: 'projects', id }, 'maintainer', 'vulns');
    await signInAt(page, `/projects/${project.json.path_with_namespace}/-/vulnerabilities`, maintainer);
    const table = page.getByRole('table', { name: 'Vulnerabilities' });
    await expect(table.getByRole('row')).toHaveCount(4);
    await page.getByLabel('Severity').selectOption('medium');
    await expect(page).toHaveURL(/severity=medium/);
    await expect(table.getByRole('row')).toHaveCount(2);
    await table.getByRole('link', { name: 'Use of a broken or risky cryptographic algorithm' }).click();

    await expect(page.getByRole('heading', { name: 'Use of a broken or risky cryptographic algorithm' })).toBeVisible();
    const dismiss = page.getByRole('button', { name: 'Dismiss…' });
    await dismiss.click();
    const dialog = page.getByRole('dialog', { name: 'Dismiss vulnerability' });
    await dialog.getByRole('button', { name: 'Dismiss vulnerability' }).click();
    await expect(dialog.getByText('Choose why it is dismissed')).toBeVisible();
    await dialog.getByLabel('Reason').selectOption('false_positive');
    await dialog.getByLabel('Comment').fill('Hash used for cache keys only');
    await dialog.getByRole('button', { name: 'Dismiss vulnerability' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('Dismissed (False positive)')).toBeVisible();
    await expect(page.getByText(/Needs triage → Dismissed by .*“Hash used for cache keys only”/)).toBeVisible();
    // Focus returns to the screen, not lost with the dialog.
    await expect(page.locator(':focus')).toHaveCount(1);

    // The API agrees: the report's list no longer counts it as open.
    const open = await api<{ id: number }[]>('GET', `/projects/${id}/vulnerabilities?state=detected,confirmed`);
    expect(open.json).toHaveLength(2);

    await page.getByRole('tab', { name: 'Dependencies' }).click();
    const deps = page.getByRole('table', { name: 'Dependencies' });
    await expect(deps.getByRole('row')).toHaveCount(4);
    await expect(deps.getByRole('row').filter({ hasText: 'express' })).toContainText('MIT');
    await expect(deps.getByRole('row').filter({ hasText: 'express' })).toContainText('package-lock.json');
  });
});
