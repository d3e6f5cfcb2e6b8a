import type { Page } from '@playwright/test';
import { createUser, expect, signInAt, test, type RootApi } from './fixtures.ts';

const PROJECT = 'acme/website';
const LIST = `/projects/${PROJECT}/-/issues`;

interface IssueBody {
  iid: number;
  title: string;
  labels: string[];
  state: string;
}

/** The demo project's ID, and an issue opened in it through the API (as a script or the platform's clients would). */
async function openIssue(api: RootApi, body: Record<string, unknown>) {
  const project = await api<{ id: number }>('GET', `/projects/${encodeURIComponent(PROJECT)}`);
  const issue = await api<IssueBody>('POST', `/projects/${project.json.id}/issues`, body);
  expect(issue.status).toBe(201);
  return { projectId: project.json.id, issue: issue.json };
}

const issuePage = (iid: number) => `${LIST}/${iid}`;
const heading = (page: Page, title: string) => page.getByRole('heading', { level: 2, name: title });

test.describe('Issues', () => {
  test.describe.configure({ timeout: 180_000 });

  test('the list’s state and search live in the URL and survive a reload; a row opens its issue in the console', async ({ page }) => {
    await signInAt(page, LIST);
    await expect(page.getByRole('table', { name: 'Open issues' }).getByRole('link', { name: 'Dark mode resets after sign-out' })).toBeVisible();
    await page.getByRole('tab', { name: 'Closed' }).click();
    await page.getByRole('textbox', { name: 'Search' }).fill('README');
    await expect(page).toHaveURL(/state=closed/);
    await expect(page).toHaveURL(/search=README/);
    const table = page.getByRole('table', { name: 'Closed issues' });
    await expect(table.getByRole('row')).toHaveCount(2);

    await page.reload();
    await expect(page.getByRole('tab', { name: 'Closed', selected: true })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Search' })).toHaveValue('README');
    const row = table.getByRole('row').filter({ hasText: 'Typo in the README install section' });
    await expect(row).toBeVisible();
    await expect(row).toContainText('documentation');
    await expect(table.getByRole('row')).toHaveCount(2);

    await row.getByRole('link', { name: 'Typo in the README install section' }).click();
    await expect(page).toHaveURL(/\/projects\/acme\/website\/-\/issues\/\d+$/);
    await expect(heading(page, 'Typo in the README install section')).toBeVisible();
    await expect(page).toHaveTitle(/^Typo in the README install section \(#\d+\) · /);
    await expect(page.getByText('Page not found')).toHaveCount(0);

    // A new issue from the list: the dialog takes focus, refuses a blank title, and lands on the new issue's page.
    await page.goto(LIST);
    const create = page.getByRole('button', { name: 'New issue' });
    await create.click();
    const dialog = page.getByRole('dialog', { name: 'New issue' });
    const title = dialog.getByRole('textbox', { name: 'Title' });
    await expect(title).toBeFocused();
    await dialog.getByRole('button', { name: 'Create issue' }).click();
    await expect(title).toHaveAttribute('aria-invalid', 'true');
    const created = `Export the invoices ${Date.now().toString(36)}`;
    await title.fill(created);
    await dialog.getByRole('textbox', { name: 'Description' }).fill('As a **CSV** file.');
    await dialog.getByRole('spinbutton', { name: 'Weight' }).fill('3');
    await dialog.getByRole('button', { name: 'Create issue' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(heading(page, created)).toBeVisible();
    await expect(page).toHaveURL(/\/projects\/acme\/website\/-\/issues\/\d+$/);
    await expect(page.getByRole('region', { name: 'Description' }).locator('strong')).toHaveText('CSV');
    await expect(page.getByRole('complementary', { name: 'Issue details' })).toContainText('Weight3');
  });

  test('the group’s list filters by label from the URL and links each issue to its project’s page', async ({ page }) => {
    await signInAt(page, '/groups/acme/-/issues?labels=bug');
    const table = page.getByRole('table', { name: 'Open issues' });
    await expect(table.getByRole('link', { name: 'Search results ignore the locale' })).toBeVisible();
    await expect(table.getByRole('link', { name: 'Audit log for sign-ins' })).toHaveCount(0);
    await page.reload();
    await expect(table.getByRole('link', { name: 'Search results ignore the locale' })).toBeVisible();
    await expect(table.getByRole('link', { name: 'Audit log for sign-ins' })).toHaveCount(0);
    await expect(table.getByRole('link', { name: 'Search results ignore the locale' })).toHaveAttribute('href', /^\/projects\/acme\/website\/-\/issues\/\d+$/);
  });

  test('an Administrator comments, reacts, closes and reopens, and edits the title and labels', async ({ page, api }) => {
    const title = `Flaky login ${Date.now().toString(36)}`;
    const { projectId, issue } = await openIssue(api, { title, description: 'Steps:\n\n1. Sign in\n2. **Wait**', labels: 'documentation' });
    await signInAt(page, issuePage(issue.iid));
    await expect(heading(page, title)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Description' }).locator('strong')).toHaveText('Wait');

    // A comment, with its own reaction.
    const body = `It fails one time in ten ${Date.now().toString(36)}`;
    await page.getByRole('textbox', { name: 'Comment' }).fill(body);
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    const comment = page.getByRole('listitem', { name: 'Comment by Administrator' }).filter({ hasText: body });
    await expect(comment).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Comment' })).toHaveValue('');
    await comment.getByRole('button', { name: /Add a reaction to the comment/ }).click();
    await page.getByRole('menuitem', { name: 'Rocket' }).click();
    await expect(comment.getByRole('button', { name: 'Rocket: 1 reaction, yours included' })).toHaveAttribute('aria-pressed', 'true');

    // The comment edited in place (focus in its text, then back on Edit), then deleted after a question (focus on the thread's heading).
    const comments = await api<{ id: number; body: string }[]>('GET', `/projects/${projectId}/issues/${issue.iid}/notes`);
    const noteId = comments.json.find((n) => n.body === body)!.id;
    const editComment = comment.getByRole('button', { name: 'Edit the comment by Administrator' });
    await editComment.click();
    const text = comment.getByRole('textbox', { name: 'Edit comment' });
    await expect(text).toBeFocused();
    await text.fill(`${body} (edited)`);
    await comment.getByRole('button', { name: 'Save comment' }).click();
    const edited = page.getByRole('listitem', { name: 'Comment by Administrator' }).filter({ hasText: `${body} (edited)` });
    await expect(edited).toContainText('edited');
    await expect(edited.getByRole('button', { name: 'Edit the comment by Administrator' })).toBeFocused();
    expect((await api<{ body: string }>('GET', `/projects/${projectId}/issues/${issue.iid}/notes/${noteId}`)).json.body).toBe(`${body} (edited)`);
    await edited.getByRole('button', { name: 'Delete the comment by Administrator' }).click();
    const ask = page.getByRole('dialog', { name: 'Delete this comment?' });
    await expect(ask.getByRole('button', { name: 'Delete comment' })).toBeFocused();
    await ask.getByRole('button', { name: 'Delete comment' }).click();
    await expect(ask).toHaveCount(0);
    await expect(edited).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Comments and activity' })).toBeFocused();
    expect((await api('GET', `/projects/${projectId}/issues/${issue.iid}/notes/${noteId}`)).status).toBe(404);

    // A reaction on the issue, taken back.
    const reactions = page.getByRole('group', { name: 'Reactions to the issue' });
    await page.getByRole('button', { name: 'Add a reaction to the issue' }).click();
    await page.getByRole('menuitem', { name: 'Thumbs up' }).click();
    const thumbs = reactions.getByRole('button', { name: 'Thumbs up: 1 reaction, yours included' });
    await expect(thumbs).toHaveAttribute('aria-pressed', 'true');
    const awards = await api<{ name: string }[]>('GET', `/projects/${projectId}/issues/${issue.iid}/award_emoji`);
    expect(awards.json.map((a) => a.name)).toEqual(['thumbsup']);
    await thumbs.click();
    await expect(reactions.getByRole('button', { name: /Thumbs up/ })).toHaveCount(0);

    // Closed and reopened; the state history and the thread say so.
    await page.getByRole('button', { name: 'Close issue' }).click();
    await expect(page.getByRole('button', { name: 'Reopen issue' })).toBeVisible();
    const history = page.getByRole('region', { name: 'State history' });
    await expect(history).toContainText('Closed by Administrator');
    expect((await api<IssueBody>('GET', `/projects/${projectId}/issues/${issue.iid}`)).json.state).toBe('closed');
    await page.getByRole('button', { name: 'Reopen issue' }).click();
    await expect(page.getByRole('button', { name: 'Close issue' })).toBeVisible();
    await expect(history).toContainText('Reopened by Administrator');
    expect((await api<IssueBody>('GET', `/projects/${projectId}/issues/${issue.iid}`)).json.state).toBe('opened');

    // Edited in the dialog: a blank title is refused, then a new title and one more label.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Edit issue #${issue.iid}` });
    await expect(dialog.getByRole('textbox', { name: 'Title' })).toBeFocused();
    await dialog.getByRole('textbox', { name: 'Title' }).fill('');
    await dialog.getByRole('button', { name: 'Save issue' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Title' })).toHaveAttribute('aria-invalid', 'true');
    await dialog.getByRole('textbox', { name: 'Title' }).fill(`${title} (renamed)`);
    await dialog.getByRole('textbox', { name: 'Labels' }).click();
    await page.getByRole('option', { name: 'bug', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Title' }).click();
    await dialog.getByRole('button', { name: 'Save issue' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(heading(page, `${title} (renamed)`)).toBeVisible();
    const details = page.getByRole('complementary', { name: 'Issue details' });
    await expect(details.getByRole('list', { name: 'Labels' })).toContainText('bug');
    await expect(details.getByRole('list', { name: 'Labels' })).toContainText('documentation');
    const saved = await api<IssueBody>('GET', `/projects/${projectId}/issues/${issue.iid}`);
    expect(saved.json.title).toBe(`${title} (renamed)`);
    expect([...saved.json.labels].sort()).toEqual(['bug', 'documentation']);
  });

  test('related issues are listed, linked and unlinked', async ({ page, api }) => {
    const stamp = Date.now().toString(36);
    const { issue: a } = await openIssue(api, { title: `Upgrade the database ${stamp}` });
    const { issue: b } = await openIssue(api, { title: `Move the backups ${stamp}` });
    await signInAt(page, issuePage(a.iid));
    const related = page.getByRole('region', { name: /Related issues/ });
    await expect(related).toContainText('No linked issues');
    await related.getByRole('combobox', { name: 'This issue' }).selectOption('blocks');
    await related.getByRole('textbox', { name: 'Issue' }).fill(`#${b.iid}`);
    await related.getByRole('button', { name: 'Link issue' }).click();
    const blocks = related.getByRole('list', { name: 'Blocks' });
    await expect(blocks.getByRole('link', { name: b.title })).toHaveAttribute('href', issuePage(b.iid));
    await related.getByRole('button', { name: `Remove the link to ${b.title}` }).click();
    await expect(related).toContainText('No linked issues');
  });

  test('a description with script, an image with onerror and a javascript: link renders inert', async ({ page, api }) => {
    const title = `Hostile ${Date.now().toString(36)}`;
    const description = [
      'Before <script>window.__pwned = "script"; alert("script")</script> after',
      '<img src="x" onerror="window.__pwned = \'img\'; alert(\'img\')">',
      '[click me](javascript:window.__pwned=%22link%22;alert(%22link%22))',
      '<a href="javascript:alert(\'raw\')">raw link</a>',
      '![pic](javascript:alert("pic"))',
    ].join('\n\n');
    const { issue } = await openIssue(api, { title, description });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await signInAt(page, issuePage(issue.iid));
    await expect(heading(page, title)).toBeVisible();
    const region = page.getByRole('region', { name: 'Description' });
    await expect(region).toContainText('click me');
    await expect(region.locator('script')).toHaveCount(0);
    await expect(region.locator('img')).toHaveCount(0);
    await expect(page.locator('[onerror]')).toHaveCount(0);
    await expect(page.locator('a[href^="javascript:" i]')).toHaveCount(0);
    await expect(region.getByRole('link')).toHaveCount(0);
    await region.getByText('click me').click();
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  });

  test('someone who is not a member reads and comments, without the buttons that change the issue', async ({ page }) => {
    const visitor = await createUser('reader');
    await signInAt(page, issuePage(1), visitor);
    await expect(heading(page, 'Dark mode resets after sign-out')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Comment' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add a reaction to the issue' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close issue' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
    await expect(page.getByRole('form', { name: 'Link an issue' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Remove the link/ })).toHaveCount(0);
  });

  test('the milestone page links its issues to their console pages', async ({ page, api }) => {
    const project = await api<{ id: number }>('GET', `/projects/${encodeURIComponent(PROJECT)}`);
    const title = `Linked milestone ${Date.now().toString(36)}`;
    const milestone = await api<{ id: number; iid: number }>('POST', `/projects/${project.json.id}/milestones`, { title });
    const { issue } = await openIssue(api, { title: `On the board ${title}`, milestone_id: milestone.json.id });
    await signInAt(page, `/projects/${PROJECT}/-/milestones/${milestone.json.iid}`);
    const link = page.getByRole('link', { name: issue.title });
    await expect(link).toHaveAttribute('href', issuePage(issue.iid));
    await link.click();
    await expect(heading(page, issue.title)).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Issue details' }).getByRole('link', { name: title })).toHaveAttribute('href', `/projects/${PROJECT}/-/milestones/${milestone.json.iid}`);
  });
});
