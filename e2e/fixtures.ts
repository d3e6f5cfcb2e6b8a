import { test as base, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

/**
 * What every spec needs besides the browser, through Playwright's fixtures: the API as root (a
 * token, the way a script would call it, to set up and to check what the console did), the
 * sign-in form, and a page signed in per role: root, or a fresh user made an Owner, Maintainer
 * or Developer of the group or project the spec names with `test.use({ membership })`.
 */

const BASE_URL = process.env.E2E_BASE_URL!;
const ROOT_TOKEN = process.env.E2E_ROOT_TOKEN!;
export const ROOT = { username: 'root', password: process.env.E2E_ROOT_PASSWORD! };

export interface Account {
  id?: number;
  username: string;
  password: string;
}

export interface ApiAnswer<T> {
  status: number;
  json: T;
}

/** The platform API as root. */
export interface RootApi {
  <T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<ApiAnswer<T>>;
}

/** Where the role fixtures are members: a group or project by ID or full path. */
export interface Membership {
  scope: 'groups' | 'projects';
  id: string | number;
}

export const ROLE_LEVELS = { developer: 30, maintainer: 40, owner: 50 } as const;
export type Role = keyof typeof ROLE_LEVELS;

const apiAsRoot: RootApi = async <T,>(method: string, path: string, body?: unknown) => {
  const res = await fetch(`${BASE_URL}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
};

/** A pipeline on the project's default branch (`main`, made with a first commit), as CI creates one by reporting a status. */
export async function defaultBranchPipeline(projectId: number): Promise<number> {
  const commit = await apiAsRoot<{ id: string }>('POST', `/projects/${projectId}/repository/commits`, { branch: 'main', commit_message: 'chore: start', actions: [{ action: 'create', file_path: 'app/db.js', content: 'query()' }] });
  expect(commit.status, JSON.stringify(commit.json)).toBe(201);
  const status = await apiAsRoot<{ pipeline_id: number }>('POST', `/projects/${projectId}/statuses/${commit.json.id}`, { state: 'success', name: 'scan', ref: 'main' });
  expect(status.status, JSON.stringify(status.json)).toBe(201);
  return status.json.pipeline_id;
}

/** A CI job's upload of a scanner's report to a pipeline: multipart, as the README's curl does. */
export async function uploadReport(projectId: number, pipelineId: number, reportType: string, fileName: string, content: string) {
  const form = new FormData();
  form.set('report_type', reportType);
  form.set('file', new Blob([content]), fileName);
  const res = await fetch(`${BASE_URL}/api/v4/projects/${projectId}/pipelines/${pipelineId}/reports`, { method: 'POST', headers: { 'PRIVATE-TOKEN': ROOT_TOKEN }, body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Record<string, unknown>;
}

/** A new user (unique name per call), made through the API as root. */
export async function createUser(prefix: string, name = `${prefix} user`): Promise<Required<Account>> {
  const username = `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const password = `${prefix}-password-1`;
  const user = await apiAsRoot<{ id: number }>('POST', '/users', { username, name, email: `${username}@example.com`, password });
  expect(user.status).toBe(201);
  return { id: user.json.id, username, password };
}

/** A new user with `role` in the group or project. */
export async function createMember(where: Membership, role: Role, prefix: string = role): Promise<Required<Account>> {
  const user = await createUser(prefix);
  const member = await apiAsRoot('POST', `/${where.scope}/${encodeURIComponent(String(where.id))}/members`, { user_id: user.id, access_level: ROLE_LEVELS[role] });
  expect(member.status).toBe(201);
  return user;
}

/**
 * Opens `path` signed in as `account`. The sign-in form itself is tested in session.spec.ts;
 * every other spec signs in through the same endpoint the form posts to (the browser context
 * keeps the httpOnly cookie), which spares each test a page load and a form.
 */
export async function signInAt(page: Page, path: string, account: Account = ROOT) {
  const res = await page.request.post('/api/console/session', { data: { username: account.username, password: account.password } });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto(path);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
}

/** The WCAG 2.1 A and AA rules axe-core knows; the console is held to AA. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Scans the page as it is now (dialogs and menus included) with axe-core and fails on any
 * critical or serious violation, listing each rule with the elements that break it.
 */
export async function expectAccessible(page: Page, label: string) {
  // A table being replaced is dimmed on purpose (DataTable's busy): the screen is scanned settled.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  // Colours are read as drawn: transitions (a row's fade, a dialog's entrance) end first; a spinner's endless one is not waited for.
  await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity).map((a) => a.finished.catch(() => undefined))));
  // Legacy mode: axe runs in the page itself (the console has no frames), not finished in a blank page opened for it.
  // Only violations are collected in full (passes and incompletes one node each): a quarter less
  // time a scan (1.02 against 1.38 s on four screens); the verdict reads violations only.
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_AA).setLegacyMode().options({ resultTypes: ['violations'] }).analyze();
  const blocking = violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}. ${v.nodes[0]?.failureSummary ?? ''}`);
  expect(blocking, `critical or serious accessibility violations on ${label}`).toEqual([]);
}

interface TestFixtures {
  /** The group or project the role pages are members of; set per file or describe with test.use. */
  membership: Membership | null;
  /** The test's page, signed in as root (the administrator) on the groups list. */
  rootPage: Page;
  /** The test's page, signed in as a fresh Owner / Maintainer / Developer of `membership`, on the groups list. */
  ownerPage: Page;
  maintainerPage: Page;
  developerPage: Page;
}

interface WorkerFixtures {
  /** The platform API as root. */
  api: RootApi;
}

const rolePage =
  (role: Role) =>
  async ({ page, membership }: { page: Page; membership: Membership | null }, use: (page: Page) => Promise<void>) => {
    if (!membership) throw new Error(`${role}Page needs test.use({ membership: { scope, id } })`);
    await signInAt(page, '/groups', await createMember(membership, role));
    await use(page);
  };

export const test = base.extend<TestFixtures, WorkerFixtures>({
  membership: [null, { option: true }],
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
  api: [async ({}, use) => use(apiAsRoot), { scope: 'worker' }],
  rootPage: async ({ page }, use) => {
    await signInAt(page, '/groups');
    await use(page);
  },
  ownerPage: rolePage('owner'),
  maintainerPage: rolePage('maintainer'),
  developerPage: rolePage('developer'),
});

export { expect };
