import { expect, signInAt, test } from './fixtures.ts';

const GROUP = 'acme';
const PROJECT = 'acme/website';

test.describe('Milestones of a group', () => {
  test.describe.configure({ timeout: 180_000 });
  test('an Owner creates a milestone, issues join it through the API, closing some moves the progress and the charts', async ({ page, api }) => {
    const title = `Release ${Date.now().toString(36)}`;
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

    await signInAt(page, `/groups/${GROUP}/-/milestones`);
    await page.getByRole('button', { name: 'New milestone' }).first().click();
    const form = page.getByRole('dialog', { name: 'New milestone' });
    await form.getByRole('button', { name: 'Create milestone' }).click();
    await expect(form.getByText(/can't be blank/i)).toBeVisible();
    await form.getByRole('textbox', { name: 'Title' }).fill(title);
    await form.getByLabel('Start date').fill(day(-2));
    await form.getByLabel('Due date').fill(day(12));
    await form.getByRole('button', { name: 'Create milestone' }).click();
    const row = page.getByRole('table', { name: 'Open milestones' }).getByRole('row').filter({ hasText: title });
    await expect(row).toBeVisible();

    // Issues join the milestone through the API, as a script or another screen would add them.
    const group = await api<{ id: number }>('GET', `/groups/${GROUP}`);
    const milestones = await api<{ id: number; title: string }[]>('GET', `/groups/${group.json.id}/milestones?title=${encodeURIComponent(title)}`);
    const milestoneId = milestones.json[0].id;
    const project = await api<{ id: number }>('GET', `/projects/${encodeURIComponent(PROJECT)}`);
    const iids: number[] = [];
    for (const [name, weight] of [['Write the notes', 2], ['Tag the build', 3], ['Announce it', 5], ['Update the site', 1]] as const) {
      const issue = await api<{ iid: number }>('POST', `/projects/${project.json.id}/issues`, { title: name, milestone_id: milestoneId, weight });
      expect(issue.status).toBe(201);
      iids.push(issue.json.iid);
    }

    await row.getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
    await expect(page.getByLabel('Issues closed: 0 of 4 issues')).toBeVisible();
    await expect(page.getByLabel('Weight completed: 0 of 11 weight')).toBeVisible();
    await expect(page.getByTestId('burnup-summary')).toContainText('0 of 4 issues completed');
    // The chart runs to the due date; the ideal line falls from the 4 planned issues to none by then (4 × 12/14 today).
    await expect(page.getByTestId('burndown-summary')).toContainText(`4 issues open on ${day(0)} (ideal: 3.43); due ${day(12)}`);
    await expect(page.getByRole('region', { name: 'Unstarted issues' })).toContainText('Tag the build');

    for (const iid of iids.slice(0, 2)) expect((await api('PUT', `/projects/${project.json.id}/issues/${iid}`, { state_event: 'close' })).status).toBe(200);
    await page.reload();
    await expect(page.getByLabel('Issues closed: 2 of 4 issues')).toBeVisible();
    await expect(page.getByLabel('Weight completed: 5 of 11 weight')).toBeVisible();
    await expect(page.getByTestId('burndown-summary')).toContainText('2 issues open');
    await expect(page.getByTestId('burnup-summary')).toContainText('2 of 4 issues completed');
    await expect(page.getByRole('region', { name: 'Completed issues' })).toContainText('Tag the build');
    // The segmented control hides its radio inputs behind their labels.
    await page.locator('label', { hasText: 'Issue weight' }).click();
    await expect(page.getByTestId('burnup-summary')).toContainText('5 of 11 weight completed');
    await expect(page.getByTestId('burndown-summary')).toContainText('6 weight open');

    // Closed from the page, it moves to the closed tab; deleted with confirmation, it is gone.
    await page.getByRole('button', { name: 'Close milestone' }).click();
    await expect(page.getByRole('button', { name: 'Reopen milestone' })).toBeVisible();
    await page.getByRole('link', { name: 'All milestones' }).click();
    await page.getByRole('tab', { name: 'Closed' }).click();
    const closedRow = page.getByRole('table', { name: 'Closed milestones' }).getByRole('row').filter({ hasText: title });
    await closedRow.getByRole('button', { name: `Actions for ${title}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: `Delete “${title}”?` }).getByRole('button', { name: 'Delete milestone' }).click();
    await expect(closedRow).toHaveCount(0);
    expect((await api('GET', `/groups/${group.json.id}/milestones/${milestoneId}`)).status).toBe(404);
  });

  test('the search and the state live in the URL', async ({ page }) => {
    await signInAt(page, `/groups/${GROUP}/-/milestones?state=closed&search=sprint`);
    await expect(page.getByRole('tab', { name: 'Closed', selected: true })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Search' })).toHaveValue('sprint');
    await expect(page.getByRole('table', { name: 'Closed milestones' }).getByRole('row').filter({ hasText: 'Sprint 14' })).toBeVisible();
  });

  test('an Owner creates an automatic cadence and sees its iterations scheduled', async ({ page }) => {
    const title = `Cadence ${Date.now().toString(36)}`;
    await signInAt(page, `/groups/${GROUP}/-/iterations`);
    await page.getByRole('button', { name: 'New cadence' }).first().click();
    const form = page.getByRole('dialog', { name: 'New iteration cadence' });
    await form.getByRole('textbox', { name: 'Title' }).fill(title);
    await form.getByLabel('First iteration starts').fill(new Date().toISOString().slice(0, 10));
    await form.getByRole('button', { name: 'Create cadence' }).click();
    const cadence = page.getByRole('region', { name: `Cadence ${title}` });
    await expect(cadence.getByRole('table', { name: `Iterations of ${title}` }).getByRole('row')).toHaveCount(4);
    await expect(cadence.getByText('Current')).toBeVisible();
  });

  test('an Owner turns roll-over on for a cadence and sees the open issues of its current iteration', async ({ page, api }) => {
    const title = `Rolling ${Date.now().toString(36)}`;
    const group = await api<{ id: number }>('GET', `/groups/${GROUP}`);
    const cadence = await api<{ id: number }>('POST', `/groups/${group.json.id}/iteration_cadences`, { title, start_date: new Date().toISOString().slice(0, 10), duration_in_weeks: 2, iterations_in_advance: 1, roll_over: false });
    const iterations = await api<{ id: number; state: number; sequence: number }[]>('GET', `/groups/${group.json.id}/iteration_cadences/${cadence.json.id}/iterations`);
    const current = iterations.json.find((i) => i.state === 2)!;
    const project = await api<{ id: number }>('GET', `/projects/${encodeURIComponent(PROJECT)}`);
    await api('POST', `/projects/${project.json.id}/issues`, { title: `Carry me ${title}`, iteration_id: current.id });
    await api('POST', `/projects/${project.json.id}/issues`, { title: `Elsewhere ${title}` });

    await signInAt(page, `/groups/${GROUP}/-/iterations`);
    const card = page.getByRole('region', { name: `Cadence ${title}` });
    const issues = card.getByRole('region', { name: `Open issues of Iteration ${current.sequence}` });
    await expect(issues.getByRole('link', { name: `Carry me ${title}` })).toBeVisible();
    await expect(issues.getByRole('listitem')).toHaveCount(1);
    const toggle = card.getByRole('switch', { name: 'Roll over unfinished issues' });
    await expect(toggle).not.toBeChecked();
    await toggle.check();
    await expect(toggle).toBeChecked();
    await expect(card.getByText('unfinished issues roll over', { exact: false })).toBeVisible();
    expect((await api<{ roll_over: boolean }>('GET', `/groups/${group.json.id}/iteration_cadences/${cadence.json.id}`)).json.roll_over).toBe(true);
  });
});

test.describe('Milestones of a project', () => {
  test.describe.configure({ timeout: 180_000 });
  test.use({ membership: { scope: 'projects', id: PROJECT } });

  test('a Developer of the project plans a milestone of its own from the project page; its issues fill its board; it is deleted with confirmation', async ({ developerPage: page, api }) => {
    const title = `Project release ${Date.now().toString(36)}`;
    const project = await api<{ id: number; name_with_namespace: string }>('GET', `/projects/${encodeURIComponent(PROJECT)}`);

    // From the project's page, as a member gets there: its Milestones tab.
    await page.goto(`/projects/${PROJECT}`);
    await page.getByRole('tab', { name: 'Milestones' }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${PROJECT}/-/milestones$`));
    await expect(page.getByText('Plan what the project delivers by a date')).toBeVisible();
    await page.getByRole('button', { name: 'New milestone' }).first().click();
    const form = page.getByRole('dialog', { name: 'New milestone' });
    await form.getByRole('textbox', { name: 'Title' }).fill(title);
    await form.getByLabel('Due date').fill(new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10));
    await form.getByRole('button', { name: 'Create milestone' }).click();
    const row = page.getByRole('table', { name: 'Open milestones' }).getByRole('row').filter({ hasText: title });
    await expect(row).toBeVisible();
    await expect(row.getByText('Due soon')).toBeVisible();

    // It is the project's, not the group's: the project's API lists it, the group's does not.
    const own = await api<{ id: number; iid: number; project_id: number }[]>('GET', `/projects/${project.json.id}/milestones?title=${encodeURIComponent(title)}`);
    expect(own.json.map((m) => m.project_id)).toEqual([project.json.id]);
    const groupsOwn = await api<unknown[]>('GET', `/groups/${GROUP}/milestones?title=${encodeURIComponent(title)}`);
    expect(groupsOwn.json).toEqual([]);
    const milestone = own.json[0];

    for (const name of ['Draft the changelog', 'Cut the branch']) {
      expect((await api('POST', `/projects/${project.json.id}/issues`, { title: `${name} ${title}`, milestone_id: milestone.id, weight: 2 })).status).toBe(201);
    }
    await row.getByRole('link', { name: title }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${PROJECT}/-/milestones/${milestone.iid}$`));
    await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
    await expect(page.getByLabel('Issues closed: 0 of 2 issues')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Unstarted issues' })).toContainText(`Cut the branch ${title}`);
    await page.getByRole('tab', { name: /^Merge requests \(/ }).click();
    await expect(page.getByText('Set this milestone on merge requests of the project to see them here.')).toBeVisible();

    // An iid the project does not have is said so, with the way back.
    await page.goto(`/projects/${PROJECT}/-/milestones/999999`);
    await expect(page.getByRole('heading', { name: 'No such milestone' })).toBeVisible();
    await expect(page.getByText(`${project.json.name_with_namespace} has no milestone 999999.`)).toBeVisible();
    await page.getByRole('link', { name: 'All milestones' }).click();

    const listed = page.getByRole('table', { name: 'Open milestones' }).getByRole('row').filter({ hasText: title });
    await listed.getByRole('button', { name: `Actions for ${title}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: `Delete “${title}”?` });
    await confirm.getByRole('button', { name: 'Delete milestone' }).click();
    await expect(listed).toHaveCount(0);
    expect((await api('GET', `/projects/${project.json.id}/milestones/${milestone.id}`)).status).toBe(404);
  });
});
