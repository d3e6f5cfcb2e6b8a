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

  test('links a report supplied are links only when they are http(s) URLs: a javascript: license page and an ftp identifier show as text', async ({ page, api }) => {
    const acme = await api<{ id: number }>('GET', '/groups/acme');
    const project = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: `links-${Date.now().toString(36)}`, namespace_id: acme.json.id });
    expect(project.status).toBe(201);
    const id = project.json.id;
    const pipeline = await defaultBranchPipeline(id);
    const bom = {
      bomFormat: 'CycloneDX',
      specVersion: '1.4',
      version: 1,
      components: [
        { type: 'library', name: 'evil-pkg', version: '1.0.0', purl: 'pkg:npm/evil-pkg@1.0.0', licenses: [{ license: { name: 'Evil', url: 'javascript:alert(document.domain)' } }] },
        { type: 'library', name: 'safe-pkg', version: '1.0.0', purl: 'pkg:npm/safe-pkg@1.0.0', licenses: [{ license: { name: 'Own', url: 'https://licenses.example/own' } }] },
      ],
    };
    await uploadReport(id, pipeline, 'cyclonedx', 'gl-sbom.cdx.json', JSON.stringify(bom));
    const sast = JSON.parse(fs.readFileSync(new URL('gl-sast-report.json', FIXTURES), 'utf8'));
    sast.vulnerabilities = [
      { ...sast.vulnerabilities[0], identifiers: [...sast.vulnerabilities[0].identifiers, { type: 'advisory', name: 'ADV-1', value: 'ADV-1', url: 'ftp://files.example/adv-1.txt' }] },
    ];
    await uploadReport(id, pipeline, 'sast', 'gl-sast-report.json', JSON.stringify(sast));

    const maintainer = await createMember({ scope: 'projects', id }, 'maintainer', 'links');
    await signInAt(page, `/projects/${project.json.path_with_namespace}/-/dependencies`, maintainer);
    const deps = page.getByRole('table', { name: 'Dependencies' });
    const evil = deps.getByRole('row').filter({ hasText: 'evil-pkg' });
    await expect(evil).toContainText('Evil');
    await expect(evil.getByRole('link')).toHaveCount(0);
    await expect(page.locator('a[href^="javascript"]')).toHaveCount(0);
    await expect(deps.getByRole('row').filter({ hasText: 'safe-pkg' }).getByRole('link', { name: 'Own' })).toHaveAttribute('href', 'https://licenses.example/own');

    await page.getByRole('tab', { name: 'Vulnerability report' }).click();
    await page.getByRole('table', { name: 'Vulnerabilities' }).getByRole('link', { name: sast.vulnerabilities[0].name }).click();
    await expect(page.getByRole('link', { name: 'CWE-89' })).toHaveAttribute('href', 'https://cwe.mitre.org/data/definitions/89.html');
    await expect(page.getByText('ADV-1')).toBeVisible();
    await expect(page.getByRole('link', { name: 'ADV-1' })).toHaveCount(0);
  });
});
