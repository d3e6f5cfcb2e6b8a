import { expect, expectAccessible, signInAt, test } from './fixtures.ts';
import type { Page } from '@playwright/test';

/*
 * A group's and a project's sections, as a keyboard user and a phone user reach them: every
 * section in view or one click away at every width, tabs that open on Enter (not on arrow
 * focus), a skip link, and focus on the new screen's heading after each navigation.
 */

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** Whether the element is drawn inside the viewport (not scrolled out of a sideways row). */
const inView = (page: Page, name: string) =>
  page
    .getByRole('tab', { name, exact: true })
    .evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.left >= 0 && box.right <= window.innerWidth && box.top >= 0 && box.bottom <= window.innerHeight;
    });

for (const { kind, path, sectionsName } of [
  { kind: 'group', path: '/groups/acme', sectionsName: 'Group sections' },
  { kind: 'project', path: '/projects/acme/website', sectionsName: 'Project sections' },
]) {
  test(`every ${kind} section is in view or one click away at 1440, 1280 and 390 px`, async ({ page }) => {
    test.setTimeout(60_000);
    await signInAt(page, path);
    const tabs = page.getByRole('tablist', { name: sectionsName }).getByRole('tab');
    // Root sees every section (once its role is known): all of them, whatever the width.
    await expect(tabs).toHaveCount(kind === 'group' ? 18 : 15);
    const labels = (await tabs.allTextContents()).map((t) => t.trim());
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await expect(tabs).toHaveCount(labels.length);
      const hidden: string[] = [];
      for (const label of labels) if (!(await inView(page, label))) hidden.push(label);
      const more = page.getByRole('button', { name: `All ${kind} sections` });
      if (size.width >= 1280) {
        expect(hidden, `${size.width} px: sections out of view`).toEqual([]);
        await expect(more).toHaveCount(0);
        continue;
      }
      // Narrow: what the row cannot show, the menu lists, one click away.
      expect(hidden.length, `${size.width} px: the row scrolls`).toBeGreaterThan(0);
      await more.click();
      const menu = page.getByRole('menu', { name: sectionsName });
      for (const label of labels) await expect(menu.getByRole('menuitem', { name: label, exact: true })).toBeVisible();
      await expectAccessible(page, `${kind} sections menu at ${size.width} px`);
      const target = hidden[hidden.length - 1]!;
      await menu.getByRole('menuitem', { name: target, exact: true }).click();
      await expect(page.getByRole('tab', { name: target, exact: true })).toHaveAttribute('aria-selected', 'true');
      expect(await inView(page, target), 'the chosen tab is scrolled into view').toBe(true);
      await page.goto(path);
    }
  });
}

test('tabs open on Enter, not on arrow focus; the skip link and each navigation put focus where the screen starts', async ({ page }) => {
  await signInAt(page, '/groups/acme');
  // After the page loads, focus is on its title, not on <body>.
  await expect(page.getByRole('heading', { level: 1, name: 'Acme Corp' })).toBeFocused();

  // The skip link is the page's first Tab stop, out of sight until it has focus; it leads into the screen.
  const skip = page.getByRole('link', { name: 'Skip to content' });
  const firstStop = await page.evaluate(() => document.querySelector<HTMLElement>('a[href], button:not([disabled]), input, [tabindex="0"]')?.textContent);
  expect(firstStop).toBe('Skip to content');
  expect(await skip.evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThanOrEqual(0);
  await skip.focus();
  expect(await skip.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0);
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();

  // Arrowing along the tabs moves focus only: no screen loads on the way.
  const overview = page.getByRole('tab', { name: 'Overview', exact: true });
  await overview.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const milestones = page.getByRole('tab', { name: 'Milestones', exact: true });
  await expect(milestones).toBeFocused();
  await expect(page).toHaveURL(/\/groups\/acme$/);
  await expect(overview).toHaveAttribute('aria-selected', 'true');
  // Enter opens the focused one, and focus stays on the tabs for the next move.
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/groups\/acme\/-\/milestones$/);
  await expect(milestones).toHaveAttribute('aria-selected', 'true');
  await expect(milestones).toBeFocused();

  // A link elsewhere moves focus to the new screen's heading: the section's own, once it loads.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Access tokens' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await page.goto('/groups/acme/-/members');
  await expect(page.getByRole('tabpanel').getByRole('heading').first()).toBeFocused();
});
