import fs from 'node:fs';
import { parseCsv } from '../bff/src/services/security/exports/csv-read.ts';
import { VULNERABILITY_CSV_COLUMNS } from '../shared/src/vulnerability-exports.ts';
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

/** A SAST report as a scanner writes it: `n` findings, their severities in turn critical, high, medium, low. */
function sastReport(n: number, prefix: string): string {
  const report = JSON.parse(fs.readFileSync(new URL('gl-sast-report.json', FIXTURES), 'utf8'));
  const [first] = report.vulnerabilities;
  const severities = ['Critical', 'High', 'Medium', 'Low'];
  report.vulnerabilities = Array.from({ length: n }, (_, i) => ({
    ...first,
    id: `${prefix}-${i}`,
    name: `${prefix} finding ${i}`,
    severity: severities[i % severities.length],
    location: { ...first.location, start_line: i + 1, end_line: i + 1 },
  }));
  return JSON.stringify(report);
}

test.describe('Exports from the vulnerability report, the group report, and actions by role', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a Developer filters the report, exports it, watches the export in place, downloads a CSV of exactly the rows listed; the Exports screen lists it with its filters; the security dashboard lists the findings once the project is on it', async ({ page, api }) => {
    const group = await api<{ id: number; full_path: string }>('POST', '/groups', { name: 'Filtered exports', path: `filtered-${Date.now().toString(36)}` });
    expect(group.status).toBe(201);
    const project = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: 'scanned', namespace_id: group.json.id });
    expect(project.status).toBe(201);
    await uploadReport(project.json.id, await defaultBranchPipeline(project.json.id), 'sast', 'gl-sast-report.json', sastReport(14, 'report'));
    const developer = await createMember({ scope: 'projects', id: project.json.id }, 'developer', 'exporter');

    await signInAt(page, `/projects/${project.json.path_with_namespace}/-/vulnerabilities`, developer);
    await page.getByLabel('Severity').selectOption('high');
    await expect(page).toHaveURL(/severity=high/);
    const table = page.getByRole('table', { name: 'Vulnerabilities' });
    // Indexes 1, 5, 9 and 13 of 14: four high findings, and the pager says so.
    await expect(table.getByRole('row')).toHaveCount(1 + 4);
    await expect(page.getByText(/of 4 vulnerabilities/)).toBeVisible();

    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await expect(page.getByRole('menuitem', { name: /PDF report/ })).toBeDisabled();
    await expect(page.getByRole('menuitem', { name: /PDF report/ })).toContainText('vulnerabilities_pdf_export');
    await page.getByRole('menuitem', { name: /^CSV/ }).click();

    const progress = page.getByLabel('Export progress');
    await expect(progress.getByRole('status')).toContainText(/CSV export(: Queued…|: Writing the file…| ready)/);
    await expect(progress).toContainText('4 vulnerabilities · Severity: High · Status: open (needs triage, confirmed) · Tool: any');
    await expect(progress.getByRole('status')).toContainText('CSV export ready', { timeout: 60_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), progress.getByRole('link', { name: 'Download the CSV export' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^vulnerabilities_.+\.csv$/);
    const rows = parseCsv(fs.readFileSync((await download.path())!, 'utf8'));
    expect(rows.length - 1).toBe(4);
    expect(rows.slice(1).map((r) => r[VULNERABILITY_CSV_COLUMNS.indexOf('Severity')])).toEqual(['high', 'high', 'high', 'high']);

    await progress.getByRole('link', { name: 'All your exports' }).click();
    const row = page.getByRole('table', { name: 'Your exports' }).getByRole('row').filter({ hasText: 'Vulnerabilities · CSV' });
    await expect(row).toContainText('Filtered · Severity: high · Status: needs triage, confirmed');
    await expect(row.getByText('Ready')).toBeVisible();

    // The security dashboard (/security/vulnerabilities): once the Developer puts the project on
    // it, it lists the project's findings with the same filters, each naming its project.
    await page.goto(`/projects/${project.json.path_with_namespace}/-/vulnerabilities`);
    const onDashboard = page.getByRole('switch', { name: 'On my security dashboard' });
    await expect(onDashboard).not.toBeChecked();
    await onDashboard.click();
    await expect(onDashboard).toBeChecked();
    await page.goto('/security/vulnerabilities?severity=high');
    await expect(page.getByRole('heading', { level: 2, name: 'Security dashboard' })).toBeVisible();
    const dashboard = page.getByRole('table', { name: 'Vulnerabilities of your dashboard’s projects' });
    await expect(dashboard.getByRole('row')).toHaveCount(1 + 4);
    await expect(dashboard.getByRole('row').nth(1).getByRole('link', { name: project.json.path_with_namespace })).toHaveAttribute('href', `/projects/${project.json.path_with_namespace}/-/vulnerabilities`);
    await expect(page.getByText(/of 4 vulnerabilities/)).toBeVisible();
  });

  test('the group report lists the findings of the projects of the group and its subgroups, each with its project', async ({ page, api }) => {
    const group = await api<{ id: number; full_path: string }>('POST', '/groups', { name: 'Group report', path: `grouprep-${Date.now().toString(36)}` });
    expect(group.status).toBe(201);
    const sub = await api<{ id: number }>('POST', '/groups', { name: 'Team', path: 'team', parent_id: group.json.id });
    expect(sub.status).toBe(201);
    const api1 = await api<{ id: number }>('POST', '/projects', { name: 'api', namespace_id: group.json.id });
    const web = await api<{ id: number }>('POST', '/projects', { name: 'web', namespace_id: sub.json.id });
    await uploadReport(api1.json.id, await defaultBranchPipeline(api1.json.id), 'sast', 'gl-sast-report.json', sastReport(2, 'api'));
    await uploadReport(web.json.id, await defaultBranchPipeline(web.json.id), 'sast', 'gl-sast-report.json', sastReport(3, 'web'));
    const developer = await createMember({ scope: 'groups', id: group.json.id }, 'developer', 'grouprep');

    await signInAt(page, `/groups/${group.json.full_path}`, developer);
    await page.getByRole('tab', { name: 'Vulnerability report' }).click();
    const table = page.getByRole('table', { name: 'Vulnerabilities of the group’s projects' });
    await expect(table.getByRole('row')).toHaveCount(1 + 5);
    // The project column names each project by its path below the group.
    await expect(table.getByRole('row').filter({ hasText: 'api finding 0' }).getByRole('link', { name: 'api', exact: true })).toHaveAttribute('href', `/projects/${group.json.full_path}/api/-/vulnerabilities`);
    await expect(table.getByRole('row').filter({ hasText: 'web finding 2' }).getByRole('link', { name: 'team/web', exact: true })).toHaveAttribute('href', `/projects/${group.json.full_path}/team/web/-/vulnerabilities`);
    await page.getByLabel('Severity').selectOption('critical');
    await expect(table.getByRole('row')).toHaveCount(1 + 2);
    await table.getByRole('link', { name: 'web finding 0' }).click();
    await expect(page.getByRole('heading', { name: 'web finding 0' })).toBeVisible();
  });

  test('a Developer sees no status actions and is told who can change the status; a Maintainer has them', async ({ page, api }) => {
    const acme = await api<{ id: number }>('GET', '/groups/acme');
    const project = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: `roles-${Date.now().toString(36)}`, namespace_id: acme.json.id });
    expect(project.status).toBe(201);
    await uploadReport(project.json.id, await defaultBranchPipeline(project.json.id), 'sast', 'gl-sast-report.json', sastReport(1, 'role'));
    const developer = await createMember({ scope: 'projects', id: project.json.id }, 'developer', 'readonly');

    await signInAt(page, `/projects/${project.json.path_with_namespace}/-/vulnerabilities`, developer);
    await expect(page.getByText('Only Maintainers and Owners can change a vulnerability’s status.')).toBeVisible();
    await page.getByRole('link', { name: 'role finding 0' }).click();
    await expect(page.getByRole('heading', { name: 'role finding 0' })).toBeVisible();
    await expect(page.getByText('You can read this vulnerability but not change its status')).toBeVisible();
    await expect(page.getByText(/Only Maintainers and Owners can change a vulnerability’s status\. Your role here is Developer/)).toBeVisible();
    for (const name of ['Confirm', 'Resolve', 'Dismiss…']) await expect(page.getByRole('button', { name })).toHaveCount(0);
  });
});
