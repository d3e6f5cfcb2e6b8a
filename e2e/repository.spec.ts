import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createMember, expect, signInAt, test } from './fixtures.ts';

const run = promisify(execFile);

test.describe('Project repository (/projects/:path/-/repository)', () => {
  test('a Maintainer of a private project clones it with the exact command shown, and sees its branches and tags', async ({ page, api }) => {
    const name = `repo-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const group = await api<{ id: number; full_path: string }>('POST', '/groups', { name, path: name, visibility: 'private' });
    expect(group.status).toBe(201);
    const project = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: 'app', namespace_id: group.json.id });
    expect(project.status).toBe(201);
    const commit = (body: object) => api('POST', `/projects/${project.json.id}/repository/commits`, body);
    expect((await commit({ branch: 'main', commit_message: 'chore: start', actions: [{ action: 'create', file_path: 'README.md', content: '# app\n' }] })).status).toBe(201);
    expect((await commit({ branch: 'feature/search', start_branch: 'main', commit_message: 'feat: search box', actions: [{ action: 'create', file_path: 'search.js', content: '1' }] })).status).toBe(201);
    expect((await api('POST', `/projects/${project.json.id}/repository/tags`, { tag_name: 'v1.0.0', ref: 'main', message: 'First release' })).status).toBe(201);
    const maintainer = await createMember({ scope: 'projects', id: project.json.id }, 'maintainer', 'cloner');

    await signInAt(page, `/projects/${project.json.path_with_namespace}/-/repository`, maintainer);
    const url = await page.getByLabel('Clone with HTTP').inputValue();
    expect(url).toMatch(new RegExp(`/${project.json.path_with_namespace}\\.git$`));
    const command = (await page.getByLabel('Command', { exact: true }).textContent())?.trim() ?? '';
    const withUser = new URL(url);
    withUser.username = maintainer.username;
    expect(command).toBe(`git clone ${withUser.toString()}`);
    await expect(page.getByText('git asks for your password')).toBeVisible();
    await expect(page.getByText('You can push to every branch, main included')).toBeVisible();

    // The command works as shown: git asks only for the password (here the console password).
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-e2e-clone-'));
    try {
      const askpass = path.join(work, 'askpass.sh');
      fs.writeFileSync(askpass, `#!/bin/sh\necho '${maintainer.password}'\n`, { mode: 0o700 });
      const [git, ...args] = command.split(' ');
      await run(git, [...args, path.join(work, 'clone')], { env: { ...process.env, GIT_ASKPASS: askpass, GIT_TERMINAL_PROMPT: '0', HOME: work } });
      expect(fs.readFileSync(path.join(work, 'clone', 'README.md'), 'utf8')).toBe('# app\n');
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }

    const branches = page.getByRole('table', { name: 'Branches' });
    await expect(branches.getByRole('row', { name: /main.*default.*chore: start/ })).toBeVisible();
    await expect(branches.getByRole('row', { name: /feature\/search.*feat: search box/ })).toBeVisible();
    await page.getByLabel('Search branches').fill('^feat');
    await expect(page).toHaveURL(/[?&]search=%5Efeat/);
    await expect(branches.getByRole('row')).toHaveCount(2);
    await expect(branches.getByText('main', { exact: true })).toHaveCount(0);

    await page.getByRole('tab', { name: 'Tags' }).click();
    await expect(page).toHaveURL(/[?&]refs=tags/);
    await expect(page.getByRole('table', { name: 'Tags' }).getByRole('row', { name: /v1\.0\.0.*First release.*chore: start/ })).toBeVisible();

    // The group's push rule is for its Owners to see.
    await expect(page.getByText(`The push rule of ${name} is shown to its Owners`)).toBeVisible();
  });

  test('on a public project the command needs no credentials, and the push rule that applies links to its editor', async ({ rootPage: page }) => {
    await page.goto('/projects/acme/website/-/repository');
    const url = await page.getByLabel('Clone with HTTP').inputValue();
    await expect(page.getByLabel('Command', { exact: true })).toHaveText(`git clone ${url}`);
    await expect(page.getByText('Anyone can clone this public project')).toBeVisible();
    const rule = page.getByRole('region', { name: 'Push rule' });
    await expect(rule.getByText('Commit messages must match')).toBeVisible();
    await expect(rule.getByText('Tags cannot be deleted')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Branches' }).getByRole('row', { name: /feature\/dark-mode/ })).toBeVisible();
    await rule.getByRole('link', { name: 'Edit the push rule of Acme Corp' }).click();
    await expect(page).toHaveURL(/\/groups\/acme\/-\/push_rules$/);
  });
});
