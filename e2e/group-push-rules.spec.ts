import { type Page, type Request } from '@playwright/test';
import { expect, test, signInAt } from './fixtures.ts';


/** Records the console's writes to the push rule. */
function recordRuleWrites(page: Page): Request[] {
  const writes: Request[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && r.url().includes('/push_rule')) writes.push(r);
  });
  return writes;
}

const GROUP = 'acme/platform';
let groupId: number;

test.beforeAll(async ({ api }) => {
  const group = await api<{ id: number }>('GET', `/groups/${encodeURIComponent(GROUP)}`);
  expect(group.status).toBe(200);
  groupId = group.json.id;
  // Starts from "never configured" whatever ran before.
  await api('DELETE', `/groups/${groupId}/push_rule`);
});

test.describe('Group push rules (/groups/:id/push_rule)', () => {
  test.describe('as an Owner', () => {
    test('sets up, tests, saves, changes and deletes the rules', async ({ page, api }) => {
      test.setTimeout(60_000);
      const writes = recordRuleWrites(page);
      await signInAt(page, `/groups/${GROUP}`);
      await page.getByRole('tab', { name: 'Push rules' }).click();
      await expect(page).toHaveURL(/\/groups\/acme\/platform\/-\/push_rules$/);

      // Never configured: an empty state, not an error.
      await expect(page.getByRole('heading', { name: 'No push rules yet' })).toBeVisible();
      await page.getByRole('button', { name: 'Set up push rules' }).click();

      // A pattern that does not compile is refused under its field, saying why, and nothing is sent.
      const branch = page.getByLabel('Branch names must match');
      await branch.fill('feature/(');
      await page.getByRole('button', { name: 'Save push rules' }).click();
      // In plain words, pointing at the ( left open (the API keeps its own wording of the 400).
      await expect(branch).toHaveAccessibleDescription(/Missing closing parenthesis for the group opened at position 9\. Add a \) to close it/);
      await expect(branch).toHaveAttribute('aria-invalid', 'true');
      expect(writes).toHaveLength(0);
      // No engine text (“/^(feat|fix/: Unterminated group”), in the form or in the tester.
      const commit = page.getByLabel('Commit messages must match');
      await commit.fill('^(feat|fix/');
      await expect(commit).toHaveAccessibleDescription(/^Missing closing parenthesis for the group opened at position 2\./);
      await expect(page.getByText(/Unterminated group|Invalid regular expression/)).toHaveCount(0);
      const commitCheck = page
        .getByRole('region', { name: 'Try the patterns' })
        .getByRole('list', { name: 'Checks of the commit message' })
        .getByRole('listitem')
        .filter({ hasText: 'Commit messages must match' });
      await expect(commitCheck).toContainText('Invalid');
      await expect(commitCheck).toContainText('Missing closing parenthesis for the group opened at position 2.');
      await commit.fill('');
      expect(writes).toHaveLength(0);
      expect((await api('GET', `/groups/${groupId}/push_rule`)).status).toBe(404);

      await branch.fill('^(main|feature/.+)$');
      await page.getByLabel('Commit messages must match').fill('^(feat|fix): ');
      await page.getByRole('switch', { name: 'Reject unsigned commits' }).check();
      await page.getByLabel('Maximum file size').fill('25');

      // The tester judges samples against the patterns in the form, before saving.
      const tester = page.getByRole('region', { name: 'Try the patterns' });
      await tester.getByLabel('Sample branch name').fill('bugfix/login');
      await tester.getByLabel('Sample commit message').fill('feat: sign in with SSO');
      const branchChecks = tester.getByRole('list', { name: 'Checks of the branch name' });
      await expect(branchChecks.getByRole('listitem').filter({ hasText: 'Branch names must match' })).toContainText('Fails');
      await expect(tester.getByRole('list', { name: 'Checks of the commit message' }).getByRole('listitem').first()).toContainText('Passes');
      await expect(tester.getByRole('status')).toHaveText('This push would be rejected: 1 of 2 checks fail.');
      await tester.getByLabel('Sample branch name').fill('feature/login');
      await expect(branchChecks.getByRole('listitem').filter({ hasText: 'Branch names must match' })).toContainText('Passes');
      await expect(tester.getByRole('status')).toHaveText('This push would pass the 2 checks.');
      // With secret files prevented, a new file's name is judged by the secrets list too, as the server judges it.
      const secrets = page.getByRole('switch', { name: 'Prevent pushing secret files' });
      await secrets.check();
      await tester.getByLabel('Sample file name').fill('deploy/id_rsa');
      const fileChecks = tester.getByRole('list', { name: 'Checks of the file name' });
      await expect(fileChecks.getByRole('listitem').filter({ hasText: 'Prevent pushing secret files' })).toContainText('Fails');
      await expect(tester.getByRole('status')).toHaveText('This push would be rejected: 1 of 3 checks fail.');
      await tester.getByLabel('Sample file name').fill('deploy/README.md');
      await expect(fileChecks.getByRole('listitem').filter({ hasText: 'Prevent pushing secret files' })).toContainText('Passes');
      await secrets.uncheck();
      await tester.getByLabel('Sample file name').fill('');
      await expect(tester.getByRole('status')).toHaveText('This push would pass the 2 checks.');
      // Editing a pattern re-judges the samples at once.
      await branch.fill('^main$');
      await expect(branchChecks.getByRole('listitem').filter({ hasText: 'Branch names must match' })).toContainText('Fails');
      await branch.fill('^(main|feature/.+)$');
      expect(writes).toHaveLength(0);

      // Save creates the rule (POST), with every field.
      await page.getByRole('button', { name: 'Save push rules' }).click();
      await expect(page.getByText('Push rules set up')).toBeVisible();
      await expect(page.getByText('No unsaved changes')).toBeVisible();
      expect(writes.map((r) => r.method())).toEqual(['POST']);
      expect(writes[0].postDataJSON()).toMatchObject({ branch_name_regex: '^(main|feature/.+)$', author_email_regex: null, max_file_size: 25 });
      expect(writes[0].headers()['x-csrf-token']).toBeTruthy();

      await page.reload();
      await expect(page.getByLabel('Branch names must match')).toHaveValue('^(main|feature/.+)$');
      await expect(page.getByLabel('Commit messages must match')).toHaveValue('^(feat|fix): ');
      await expect(page.getByRole('switch', { name: 'Reject unsigned commits' })).toBeChecked();
      await expect(page.getByRole('switch', { name: 'Prevent pushing secret files' })).not.toBeChecked();
      await expect(page.getByLabel('Maximum file size')).toHaveValue('25 MB');
      const saved = await api('GET', `/groups/${groupId}/push_rule`);
      expect(saved.status).toBe(200);
      expect(saved.json).toMatchObject({
        branch_name_regex: '^(main|feature/.+)$',
        commit_message_regex: '^(feat|fix): ',
        author_email_regex: null,
        reject_unsigned_commits: true,
        prevent_secrets: false,
        max_file_size: 25,
      });

      // A change is a PUT; clearing a pattern sends null.
      await page.getByLabel('Commit messages must match').fill('');
      await page.getByRole('switch', { name: 'Prevent pushing secret files' }).check();
      await page.getByRole('button', { name: 'Save push rules' }).click();
      await expect(page.getByText('Push rules saved')).toBeVisible();
      expect(writes.map((r) => r.method())).toEqual(['POST', 'PUT']);
      expect((await api('GET', `/groups/${groupId}/push_rule`)).json).toMatchObject({ commit_message_regex: null, prevent_secrets: true });

      // Delete, after a confirmation: back to the empty state.
      await page.getByRole('button', { name: 'Delete push rules' }).click();
      await page.getByRole('dialog', { name: 'Delete the push rules?' }).getByRole('button', { name: 'Delete push rules' }).click();
      await expect(page.getByRole('heading', { name: 'No push rules yet' })).toBeVisible();
      await expect(page.getByText('Push rules deleted')).toBeVisible();
      expect((await api('GET', `/groups/${groupId}/push_rule`)).status).toBe(404);
      await page.reload();
      await expect(page.getByRole('heading', { name: 'No push rules yet' })).toBeVisible();
    });
  });

  test.describe('patterns follow RE2, as on the platform', () => {
    test('the tester and the form accept (?i), explain a lookahead, and stay responsive on a stalling input', async ({ page, api }) => {
      await api('DELETE', `/groups/${groupId}/push_rule`);
      const writes = recordRuleWrites(page);
      await signInAt(page, `/groups/${GROUP}/-/push_rules`);
      await page.getByRole('button', { name: 'Set up push rules' }).click();
      const tester = page.getByRole('region', { name: 'Try the patterns' });
      const messageChecks = tester.getByRole('list', { name: 'Checks of the commit message' });
      const branchChecks = tester.getByRole('list', { name: 'Checks of the branch name' });
      const emailChecks = tester.getByRole('list', { name: 'Checks of the author email' });

      // (?i): RE2 syntax that JavaScript's RegExp refuses.
      await page.getByLabel('Commit messages must match').fill('(?i)^(feat|fix): .+');
      await tester.getByLabel('Sample commit message').fill('FIX: x');
      await expect(messageChecks.getByRole('listitem').filter({ hasText: 'Commit messages must match' })).toContainText('Passes');
      await tester.getByLabel('Sample commit message').fill('chore: x');
      await expect(messageChecks.getByRole('listitem').filter({ hasText: 'Commit messages must match' })).toContainText('Fails');

      // A lookahead: JavaScript would take it, RE2 does not; the tester says why, as the form does.
      const branch = page.getByLabel('Branch names must match');
      await branch.fill('^(?!WIP).+');
      await tester.getByLabel('Sample branch name').fill('main');
      const branchItem = branchChecks.getByRole('listitem').filter({ hasText: 'Branch names must match' });
      await expect(branchItem).toContainText('Invalid');
      await expect(branchItem).toContainText('Uses a lookahead (?!…), which RE2 does not support');
      await page.getByRole('button', { name: 'Save push rules' }).click();
      await expect(branch).toHaveAttribute('aria-invalid', 'true');
      await expect(branch).toHaveAccessibleDescription(/Uses a lookahead \(\?!…\), which RE2 does not support/);
      expect(writes).toHaveLength(0);

      // A pattern that stalls a backtracking engine (2³² steps: minutes on RegExp) is judged at once.
      await page.getByLabel('Author emails must match').fill('(a+)+$');
      await tester.getByLabel('Sample author email').fill(`${'a'.repeat(32)}!`);
      await expect(emailChecks.getByRole('listitem').filter({ hasText: 'Author emails must match' })).toContainText('Fails', { timeout: 5_000 });

      // Fixed, the rule saves with the RE2-only syntax as written.
      await branch.fill('^(main|(?i)feat/.+)$');
      await expect(branchItem).toContainText('Passes');
      await page.getByRole('button', { name: 'Save push rules' }).click();
      await expect(page.getByText('Push rules set up')).toBeVisible();
      expect(writes.map((r) => r.method())).toEqual(['POST']);
      expect((await api('GET', `/groups/${groupId}/push_rule`)).json).toMatchObject({
        commit_message_regex: '(?i)^(feat|fix): .+',
        branch_name_regex: '^(main|(?i)feat/.+)$',
        author_email_regex: '(a+)+$',
      });
      await api('DELETE', `/groups/${groupId}/push_rule`);
    });
  });

  test.describe('without the role', () => {
    test.use({ membership: { scope: 'groups', id: GROUP } });

    test('a Developer sees the forbidden state instead of the rules', async ({ developerPage: page }) => {
      const writes = recordRuleWrites(page);
      await page.goto(`/groups/${GROUP}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Platform' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Push rules' })).toHaveCount(0);

      await page.goto(`/groups/${GROUP}/-/push_rules`);
      await expect(page.getByRole('heading', { name: 'You need the Owner role to manage push rules' })).toBeVisible();
      await expect(page.getByText('Your role in Acme Corp / Platform is Developer.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Set up push rules' })).toHaveCount(0);
      await expect(page.getByLabel('Branch names must match')).toHaveCount(0);
      expect(writes).toHaveLength(0);
    });
  });
});
