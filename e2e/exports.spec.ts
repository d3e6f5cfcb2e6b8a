import fs from 'node:fs';
import path from 'node:path';
import { openDb } from '../bff/src/db/index.ts';
import { parseCsv } from '../bff/src/services/security/exports/csv-read.ts';
import { inProgressKey } from '../bff/src/services/security/exports/exports.ts';
import { VULNERABILITY_CSV_COLUMNS } from '../shared/src/vulnerability-exports.ts';
import { createMember, defaultBranchPipeline, expect, signInAt, test, uploadReport } from './fixtures.ts';

const FINDINGS = 40;

/** A SAST report as a scanner writes it, with `n` findings (the fixture's first one, on n lines). */
function sastReport(n: number): string {
  const report = JSON.parse(fs.readFileSync(new URL('../bff/test/fixtures/security/gl-sast-report.json', import.meta.url), 'utf8'));
  const [first] = report.vulnerabilities;
  report.vulnerabilities = Array.from({ length: n }, (_, i) => ({ ...first, id: `e2e-${i}`, location: { ...first.location, start_line: i + 1, end_line: i + 1 } }));
  return JSON.stringify(report);
}

test.describe('Exports of a project', () => {
  test.describe.configure({ timeout: 120_000 });
  test('a Developer starts a CSV export, watches it become ready, downloads it; another one is held back in words while one is in progress', async ({ page, api }) => {
    // A project of its own, with the findings of a SAST report its CI uploaded.
    const group = await api<{ id: number; full_path: string }>('POST', '/groups', { name: 'Exports', path: `exports-${Date.now().toString(36)}` });
    expect(group.status).toBe(201);
    const project = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: 'scanned', namespace_id: group.json.id });
    expect(project.status).toBe(201);
    const ingested = await uploadReport(project.json.id, await defaultBranchPipeline(project.json.id), 'sast', 'gl-sast-report.json', sastReport(FINDINGS));
    expect(ingested).toMatchObject({ findings_count: FINDINGS, applied: true });
    const developer = await createMember({ scope: 'projects', id: project.json.id }, 'developer', 'exports');

    await signInAt(page, `/projects/${project.json.path_with_namespace}/-/exports`, developer);
    await expect(page.getByRole('heading', { name: 'No exports yet' })).toBeVisible();
    await expect(page.getByRole('option', { name: 'PDF report' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Start export' }).click();

    const table = page.getByRole('table', { name: 'Your exports' });
    const row = table.getByRole('row').filter({ hasText: 'Vulnerabilities · CSV' });
    await expect(row).toHaveCount(1);
    // Without reloading: queued or running first, then ready.
    await expect(row.getByText(/Queued|Running|Ready/)).toBeVisible();
    await expect(row.getByText('Ready')).toBeVisible({ timeout: 60_000 });
    const expires = await row.getByRole('cell').nth(3).innerText();
    expect(expires).toMatch(/\w{3} \d{1,2}, \d{4}/);

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: /^Download vulnerabilities_/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/^vulnerabilities_.+\.csv$/);
    const file = await download.path();
    const rows = parseCsv(fs.readFileSync(file!, 'utf8'));
    expect(rows[0]).toEqual([...VULNERABILITY_CSV_COLUMNS]);
    expect(rows.length).toBe(1 + FINDINGS);

    // While an export of the project is in progress (held so in the database, as its job holds
    // it), the screen keeps the next one back and says why; once it is done, it lets go.
    const db2 = openDb({ sqliteFile: path.join(process.env.E2E_DATA_DIR!, 'gatehouse.sqlite3'), poolSize: 1 });
    try {
      const made = await db2.selectFrom('exports').select('id').where('author_id', '=', developer.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
      const key = inProgressKey('vulnerability', developer.id, { project_id: project.json.id });
      await db2.updateTable('exports').set({ status: 'running', in_progress_key: key }).where('id', '=', made.id).execute();
      await page.reload();
      await expect(row.getByText('Running')).toBeVisible();
      await expect(page.getByRole('alert').filter({ hasText: 'Your vulnerability export of' })).toContainText('You can start another one when it is ready');
      await expect(page.getByRole('button', { name: 'Start export' })).toBeDisabled();
      await db2.updateTable('exports').set({ status: 'finished', in_progress_key: null }).where('id', '=', made.id).execute();
    } finally {
      await db2.destroy();
    }
    await expect(row.getByText('Ready')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start export' })).toBeEnabled();
  });
});
