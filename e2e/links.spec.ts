import type { Page } from '@playwright/test';
import { expect, signInAt, test } from './fixtures.ts';

/**
 * The kind of page at an address: the group or project path, numbers and commit ids stand for
 * any, so one page of each kind is visited (every group's members screen is the same screen).
 */
const patternOf = (url: URL) =>
  url.pathname
    .replace(/^\/(groups|projects)\/(?!new$).+?(?=\/-\/|$)/, '/$1/:path')
    .replace(/\/\d+(?=\/|$)/g, '/:n')
    .replace(/\/[0-9a-f]{7,40}(?=\/|$)/g, '/:sha');

/** Waits until the screen has drawn (nothing says Loading…), then tells whether it says the page or what it shows is not there. */
async function settledNotFound(page: Page): Promise<boolean> {
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await expect(page.getByText('Loading…')).toHaveCount(0);
  return (await page.getByRole('heading', { name: /not found|^No such page/i }).count()) > 0;
}

/** Every in-app link on the page: same origin, not the API, not a download. */
async function inAppLinks(page: Page, origin: string): Promise<string[]> {
  const hrefs = await page.locator('a[href]:not([download])').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  return hrefs.filter((h) => {
    const u = new URL(h);
    return u.origin === origin && !u.pathname.startsWith('/api/') && !u.pathname.endsWith('.git');
  });
}

test.describe('Links', () => {
  test('platform addresses (an API’s web_url) open the console’s page for the same thing', async ({ page, api }) => {
    const project = await api<{ id: number; web_url: string }>('GET', `/projects/${encodeURIComponent('acme/website')}`);
    await signInAt(page, '/groups');
    await page.goto(new URL(project.json.web_url).pathname);
    await expect(page).toHaveURL(/\/projects\/acme\/website$/);
    const milestones = await api<{ web_url: string }[]>('GET', '/groups/acme/milestones');
    await page.goto(new URL(milestones.json[0].web_url).pathname);
    await expect(page).toHaveURL(/\/groups\/acme\/-\/milestones\/\d+$/);
    await page.goto('/acme/website/-/security/vulnerabilities?severity=high');
    await expect(page).toHaveURL(/\/projects\/acme\/website\/-\/vulnerabilities\?severity=high$/);
    await page.goto('/acme');
    await expect(page).toHaveURL(/\/groups\/acme$/);
    await page.goto('/no-such-namespace-here/nothing');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  test('every in-app link on every screen leads to a page, not to "Page not found"', async ({ page, baseURL }) => {
    test.setTimeout(480_000);
    const origin = new URL(baseURL!).origin;
    const seen = new Set<string>();
    const dead: string[] = [];
    const queue: { url: string; from: string }[] = [];
    /** Checks the screen now shown and queues the links it draws that lead to kinds of page not seen yet. */
    const check = async (from: string) => {
      const here = new URL(page.url());
      seen.add(patternOf(here));
      if (await settledNotFound(page)) dead.push(`${here.pathname}${here.search} (linked from ${from})`);
      else
        for (const link of await inAppLinks(page, origin)) {
          const u = new URL(link);
          if (!seen.has(patternOf(u))) queue.push({ url: `${u.pathname}${u.search}`, from: `${here.pathname}${here.search}` });
        }
    };
    await signInAt(page, '/groups');
    await check('navigation');
    // Every section of a group, a project and the admin area, chosen by its tab (tabs are buttons).
    for (const [start, list] of [
      ['/groups/acme', 'Group sections'],
      ['/projects/acme/website', 'Project sections'],
      ['/admin', 'Admin area sections'],
    ] as const) {
      await page.goto(start);
      const tabs = page.getByRole('tablist', { name: list }).getByRole('tab');
      await expect(tabs.first()).toBeVisible();
      await expect(page.getByText('Loading…')).toHaveCount(0);
      const count = await tabs.count();
      expect(count).toBeGreaterThan(3);
      for (let i = 0; i < count; i++) {
        await tabs.nth(i).click();
        await expect(tabs.nth(i)).toHaveAttribute('aria-selected', 'true');
        await check(`${list} tab ${i + 1}`);
      }
    }
    // Then every link found that leads to a kind of page not seen yet.
    let followed = 0;
    for (const start of ['/groups/new', '/user/access_tokens', '/security/exports']) queue.push({ url: start, from: 'navigation' });
    while (queue.length && followed < 160) {
      const { url, from } = queue.shift()!;
      if (seen.has(patternOf(new URL(url, origin)))) continue;
      followed++;
      seen.add(patternOf(new URL(url, origin)));
      await page.goto(url);
      await check(from);
    }
    console.log(`links: ${seen.size} kinds of page seen, ${followed} followed, ${queue.length} links left in the queue`);
    expect(seen.size, 'kinds of page seen').toBeGreaterThan(30);
    expect(dead, `links to "Page not found" (${seen.size} kinds of page seen)`).toEqual([]);
  });
});
