import { createMember, expect, signInAt, test } from './fixtures.ts';

const BASE_URL = process.env.E2E_BASE_URL!;
const WEBSITE = 'acme/website';

test.describe('Pipelines and trigger tokens of a project', () => {
  // A long flow on a busy machine; only what the screens show decides.
  test.describe.configure({ timeout: 180_000 });
  test('a Maintainer creates a trigger token, a script triggers a pipeline with it, the CI reports its job, and the screens show it running and passing', async ({ page, api }) => {
    const maintainer = await createMember({ scope: 'projects', id: WEBSITE }, 'maintainer', 'pipes');
    const project = await api<{ id: number; default_branch: string | null }>('GET', `/projects/${encodeURIComponent(WEBSITE)}`);
    const ref = project.json.default_branch ?? 'main';
    const description = `CI script ${Date.now().toString(36)}`;

    await signInAt(page, `/projects/${WEBSITE}/-/pipeline_triggers`, maintainer);
    await page.getByRole('button', { name: 'Create trigger token' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create a pipeline trigger token' });
    await create.getByRole('button', { name: 'Create trigger token' }).click();
    await expect(create.getByText(/can't be blank/i)).toBeVisible();
    await create.getByRole('textbox', { name: 'Description' }).fill(description);
    await create.getByRole('button', { name: 'Create trigger token' }).click();

    const reveal = page.getByRole('dialog', { name: 'Trigger token created' });
    const token = await reveal.getByRole('textbox', { name: `Token “${description}”` }).inputValue();
    expect(token).toMatch(/^gtptt-/);
    const curl = reveal.getByRole('region', { name: 'Trigger a pipeline with curl' });
    await expect(curl).toContainText(`--form token=${token}`);
    await expect(curl).toContainText(`/api/v4/projects/${project.json.id}/trigger/pipeline`);
    await reveal.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('table', { name: 'Pipeline trigger tokens' }).getByRole('row').filter({ hasText: description })).toContainText(token.slice(0, 4));

    // The script: the curl of the dialog, as form fields.
    const triggered = await fetch(`${BASE_URL}/api/v4/projects/${project.json.id}/trigger/pipeline`, {
      method: 'POST',
      body: new URLSearchParams({ token, ref, 'variables[DEPLOY_ENV]': 'staging' }),
    });
    expect(triggered.status).toBe(201);
    const pipeline = (await triggered.json()) as { id: number; sha: string };
    const report = (state: string) => api('POST', `/projects/${project.json.id}/statuses/${pipeline.sha}`, { state, name: 'e2e-deploy', pipeline_id: pipeline.id, target_url: `https://ci.example.com/deploy/${pipeline.id}` });
    expect((await report('running')).status).toBe(201);

    await page.getByRole('tab', { name: 'Pipelines' }).click();
    await page.getByLabel('Source').selectOption('trigger');
    await expect(page).toHaveURL(/source=trigger/);
    const row = page.getByRole('table', { name: 'Pipelines' }).getByRole('row').filter({ has: page.getByRole('link', { name: `#${pipeline.id}`, exact: true }) });
    await expect(row).toContainText('Running');
    await expect(row.getByRole('img', { name: 'e2e-deploy: running' })).toBeVisible();
    await row.getByRole('link', { name: `#${pipeline.id}` }).click();

    await expect(page.getByRole('heading', { name: `Pipeline #${pipeline.id}` })).toBeVisible();
    const job = page.getByRole('table', { name: 'Jobs' }).getByRole('row').filter({ hasText: 'e2e-deploy' });
    await expect(job).toContainText('Running');
    await expect(job.getByRole('link', { name: /e2e-deploy on the CI system/ })).toHaveAttribute('href', `https://ci.example.com/deploy/${pipeline.id}`);

    expect((await report('success')).status).toBe(201);
    await page.reload();
    await expect(page.getByRole('table', { name: 'Jobs' }).getByRole('row').filter({ hasText: 'e2e-deploy' })).toContainText('Passed');
    await expect(page.getByRole('button', { name: 'Cancel pipeline' })).toHaveCount(0);

    // Edit the token's description, then revoke it: the script's next call is refused.
    await page.goto(`/projects/${WEBSITE}/-/pipeline_triggers`);
    await page.getByRole('button', { name: `Edit ${description}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit trigger token' });
    await edit.getByRole('textbox', { name: 'Description' }).fill(`${description} (old)`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: `Revoke ${description} (old)` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke trigger token' }).click();
    await expect(page.getByRole('row').filter({ hasText: `${description} (old)` })).toHaveCount(0);
    const refused = await fetch(`${BASE_URL}/api/v4/projects/${project.json.id}/trigger/pipeline`, { method: 'POST', body: new URLSearchParams({ token, ref }) });
    expect(refused.status).toBe(404);
  });

  test('a Developer sees pipelines but no trigger tokens tab, and the URL says which role is needed', async ({ page }) => {
    const developer = await createMember({ scope: 'projects', id: WEBSITE }, 'developer', 'pipes-dev');
    await signInAt(page, `/projects/${WEBSITE}/-/pipeline_triggers`, developer);
    await expect(page.getByText('You need the Maintainer role to manage pipeline trigger tokens')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Trigger tokens' })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Pipelines' }).click();
    await expect(page.getByRole('table', { name: 'Pipelines' })).toBeVisible();
  });
});
