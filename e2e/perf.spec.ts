import fs from 'node:fs';
import path from 'node:path';
import type { Browser, CDPSession, Page } from '@playwright/test';
import { test, expect, signInAt } from './fixtures.ts';
import { openDb } from '../bff/src/db/index.ts';
import { openVault } from '../bff/src/auth/vault.ts';
import { seedHook, type DemoDelivery } from '../bff/src/seed/demo.ts';
import { findUserByUsername } from '../bff/src/services/access/users.ts';
import type { HookFlag } from '../shared/src/hooks.ts';

/**
 * The console's speed, as issue 9 states it: what the groups page's first load transfers (JS and
 * CSS, cache off, signed in), its Largest Contentful Paint (median of cold loads), and how long a
 * delivery-log filter takes at 10,000 deliveries (with the longest main-thread task), at full
 * speed and at 4× CPU slowdown. The figures are recorded (annotations, console and, with
 * PERF_FIGURES_FILE, a JSON file that `npm run bench` prints); no test fails on a time, only on
 * what the screens show.
 */

export interface PerfFigures {
  groupsPage?: { transferredBytes: number; decodedBytes: number; files: number; encodings: string[] };
  lcp?: { medianMs: number; runsMs: number[] };
  screens?: { name: string; path: string; transferredBytes: number; files: number }[];
  deliveryFilter?: { cpuSlowdown: number; medianMs: number; worstMs: number; longestTaskMs: number; requestMedianMs: number; changes: number }[];
}

const figures: PerfFigures = {};
/**
 * `npm run bench` sets PERF_FIGURES_FILE and takes the figures in full: five cold loads, and the
 * filter at 4× CPU slowdown too. In `npm test` one of each holds what the screens must show
 * (the figures are still printed) at a fraction of the time.
 */
const MEASURING = !!process.env.PERF_FIGURES_FILE;
const COLD_LOADS = MEASURING ? 5 : 1;

function record(name: string, text: string) {
  test.info().annotations.push({ type: name, description: text });
  console.log(`[perf] ${name}: ${text}`);
}

test.afterAll(() => {
  const file = process.env.PERF_FIGURES_FILE;
  if (file) fs.writeFileSync(file, JSON.stringify(figures, null, 2));
});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** A page in a context of its own (signed in with `state`), HTTP cache off: a first visit. */
async function coldPage(browser: Browser, state: Awaited<ReturnType<import('@playwright/test').BrowserContext['storageState']>>) {
  const context = await browser.newContext({ storageState: state, baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  return { context, page };
}

// Playwright's trace recorder snapshots the whole DOM after each action, in the page's own main
// thread: it would be timed as the console's work. These figures are taken without it.
test.use({ trace: 'off' });

test.describe('the groups page, first load (cache off, signed in)', () => {
  test('transfers its JavaScript and CSS compressed, and paints its largest content', async ({ page, browser }) => {
    test.setTimeout(120_000);
    await signInAt(page, '/groups');
    const state = await page.context().storageState();

    const lcps: number[] = [];
    for (let run = 0; run < COLD_LOADS; run++) {
      const { context, page: cold } = await coldPage(browser, state);
      const assets: { url: string; transferred: number; decoded: number; encoding: string }[] = [];
      const pending: Promise<void>[] = [];
      cold.on('requestfinished', (req) => {
        if (!['script', 'stylesheet'].includes(req.resourceType())) return;
        pending.push(
          (async () => {
            const [sizes, response] = await Promise.all([req.sizes(), req.response()]);
            const body = await response!.body();
            assets.push({ url: req.url(), transferred: sizes.responseBodySize, decoded: body.length, encoding: (await response!.headerValue('content-encoding')) ?? 'identity' });
          })(),
        );
      });
      await cold.goto('/groups');
      await expect(cold.getByRole('table', { name: 'Groups' })).toBeVisible({ timeout: 30_000 });
      await expect(cold.getByRole('link', { name: 'Acme Corp' }).first()).toBeVisible();
      await cold.waitForLoadState('networkidle');
      await Promise.all(pending);
      const lcp = await cold.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) => {
              const entries = list.getEntries();
              resolve(entries[entries.length - 1].startTime);
            }).observe({ type: 'largest-contentful-paint', buffered: true });
          }),
      );
      lcps.push(lcp);
      if (run === 0) {
        expect(assets.length).toBeGreaterThan(0);
        const transferred = assets.reduce((n, a) => n + a.transferred, 0);
        const decoded = assets.reduce((n, a) => n + a.decoded, 0);
        const encodings = [...new Set(assets.map((a) => a.encoding))];
        figures.groupsPage = { transferredBytes: transferred, decodedBytes: decoded, files: assets.length, encodings };
        record('groups page JS+CSS', `${kb(transferred)} transferred (${kb(decoded)} decoded) in ${assets.length} files, ${encodings.join(', ')}`);
        for (const a of [...assets].sort((x, y) => y.transferred - x.transferred)) console.log(`[perf]   ${kb(a.transferred).padStart(9)}  ${a.encoding.padEnd(8)} ${new URL(a.url).pathname}`);
      }
      await context.close();
    }
    figures.lcp = { medianMs: median(lcps), runsMs: lcps.map(Math.round) };
    record('groups page LCP', `${Math.round(median(lcps))} ms median of ${COLD_LOADS} cold loads (${lcps.map(Math.round).join(', ')} ms)`);
  });
});

/**
 * The heaviest screens' first loads (cache off, signed in): compressed JavaScript and CSS, each
 * held to its budget. The target is 200 KB; the shell every screen shares (React, the router,
 * Mantine's core, the query cache, the base CSS) is 165 KB of it since popovers (the account and
 * sections menus) load when first opened. A screen over the target has a ceiling a little above
 * what it loads today, with what keeps it there:
 * - the milestone: its burndown charts (recharts, 92 KB) and the milestone dialog's form;
 * - the issue: the Markdown renderer and comment form (NotesThread, 46 KB), zod and react-hook-form (37 KB);
 * - group push rules: the form's RE2 pattern checker (41 KB), zod and react-hook-form;
 * - the webhooks list: floating-ui (the rows' Test menu and health tooltips, 22 KB).
 * The merge request's changes are within it (297 KB before its tabs, list and status badges
 * loaded only what they draw).
 */
const SCREEN_TARGET_BYTES = 200 * 1024;
const HEAVIEST_SCREENS: { name: string; path: string; budgetKb: number; ready: (p: Page) => Promise<void> }[] = [
  { name: 'milestone with charts', path: '/groups/acme/-/milestones/2', budgetKb: 365, ready: (p) => expect(p.getByRole('heading', { name: 'Burndown chart' })).toBeVisible() },
  { name: 'issue', path: '/projects/acme/website/-/issues/1', budgetKb: 335, ready: (p) => expect(p.getByRole('heading', { level: 2 }).first()).toBeVisible() },
  { name: 'merge request changes', path: '/projects/acme/website/-/merge_requests/4/diffs', budgetKb: 200, ready: (p) => expect(p.getByRole('tab', { name: 'Changes', selected: true })).toBeVisible() },
  { name: 'group push rules', path: '/groups/acme/-/push_rules', budgetKb: 290, ready: (p) => expect(p.getByRole('button', { name: /Save/ }).first()).toBeVisible() },
  { name: 'project webhooks', path: '/projects/acme/website/-/hooks', budgetKb: 225, ready: (p) => expect(p.getByRole('table').first()).toBeVisible() },
];

test.describe('the heaviest screens’ first loads', () => {
  test('each loads at most its budget of compressed JavaScript and CSS (target 200 KB, recorded)', async ({ page, browser }) => {
    test.setTimeout(180_000);
    await signInAt(page, '/groups');
    const state = await page.context().storageState();
    const over: string[] = [];
    for (const screen of HEAVIEST_SCREENS) {
      const { context, page: cold } = await coldPage(browser, state);
      const sizes: Promise<number>[] = [];
      cold.on('requestfinished', (req) => {
        if (['script', 'stylesheet'].includes(req.resourceType())) sizes.push(req.sizes().then((s) => s.responseBodySize));
      });
      await cold.goto(screen.path);
      await screen.ready(cold);
      await cold.waitForLoadState('networkidle');
      const bytes = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
      const gap = bytes - SCREEN_TARGET_BYTES;
      record(`${screen.name} JS+CSS`, `${kb(bytes)} in ${sizes.length} files (${screen.path}); ${gap > 0 ? `${kb(gap)} over` : 'within'} the 200 KB target`);
      (figures.screens ??= []).push({ name: screen.name, path: screen.path, transferredBytes: bytes, files: sizes.length });
      if (bytes > screen.budgetKb * 1024) over.push(`${screen.name}: ${kb(bytes)} (budget ${screen.budgetKb} KB)`);
      await context.close();
    }
    expect(over, 'screens over their budget of compressed JS and CSS').toEqual([]);
  });
});

/** Statuses cycle with a period coprime with the four events', so every status and event pair has deliveries. */
const STATUSES: (number | null)[] = [200, 200, 201, 200, 404, 200, 500, 202, null, 422, 200];
const FLAGS: HookFlag[] = ['push_events', 'merge_requests_events', 'pipeline_events', 'tag_push_events'];
const DELIVERIES = 10_000;

async function seedBusyHook(): Promise<number> {
  const dataDir = process.env.E2E_DATA_DIR!;
  const db = openDb({ sqliteFile: path.join(dataDir, 'gatehouse.sqlite3') });
  try {
    const vault = openVault({ dataDir });
    const group = await db.selectFrom('groups').selectAll().where('path', '=', 'acme').where('parent_id', 'is', null).executeTakeFirstOrThrow();
    const user = (await findUserByUsername(db, 'alice')) ?? null;
    const deliveries: DemoDelivery[] = Array.from({ length: DELIVERIES }, (_, i) => {
      const status = STATUSES[i % STATUSES.length];
      return [FLAGS[i % FLAGS.length], status, status === null ? '' : '{"ok":true}'];
    });
    const hook = await seedHook(db, vault, {
      owner: { scope: 'groups', id: group.id },
      name: `Busy receiver ${Date.now().toString(36)}`,
      description: 'Ten thousand deliveries in a week',
      url: 'https://busy.example.com/hook',
      urlVariables: [],
      headers: [],
      flags: FLAGS,
      payload: { baseUrl: process.env.E2E_BASE_URL!, user, group },
      deliveries,
    });
    return hook.id;
  } finally {
    await db.destroy();
  }
}

/** The filter changes, one select at a time, each to a pair of status and event not asked for before (so each asks the server). */
const CHANGES: { select: 'Status' | 'Event'; option: string; status: RegExp; event: RegExp }[] = [
  { select: 'Status', option: 'Client failures (4xx)', status: /^4\d\d/, event: /./ },
  { select: 'Event', option: 'Push events', status: /^4\d\d/, event: /^Push events/ },
  { select: 'Status', option: 'Successful (2xx)', status: /^2\d\d/, event: /^Push events/ },
  { select: 'Event', option: 'Tag push events', status: /^2\d\d/, event: /^Tag push events/ },
  { select: 'Status', option: 'Server failures (5xx, no response)', status: /^(5\d\d|Error)/, event: /^Tag push events/ },
  { select: 'Event', option: 'Merge request events', status: /^(5\d\d|Error)/, event: /^Merge request events/ },
  { select: 'Status', option: 'Client failures (4xx)', status: /^4\d\d/, event: /^Merge request events/ },
  { select: 'Event', option: 'Pipeline events', status: /^4\d\d/, event: /^Pipeline events/ },
  { select: 'Status', option: 'Successful (2xx)', status: /^2\d\d/, event: /^Pipeline events/ },
  { select: 'Event', option: 'Merge request events', status: /^2\d\d/, event: /^Merge request events/ },
];

/**
 * Changes one filter and times it in the page: from the select's input event to the frame after
 * the table shows only matching rows (not busy), with the longest main-thread task in between.
 */
async function timeFilterChange(page: Page, change: (typeof CHANGES)[number]) {
  await page.evaluate(
    ({ status, event }) => {
      type Filter = { start: number; end: number; longest: number; observers: (MutationObserver | PerformanceObserver)[] };
      const f: Filter = { start: 0, end: 0, longest: 0, observers: [] };
      (window as unknown as { __filter: Filter }).__filter = f;
      const [statusRe, eventRe] = [new RegExp(status.source, status.flags), new RegExp(event.source, event.flags)];
      const shown = () => {
        const table = document.querySelector('table[aria-label="Deliveries"]');
        if (!table || table.getAttribute('aria-busy') === 'true') return false;
        const rows = [...table.querySelectorAll('tbody tr')] as HTMLTableRowElement[];
        return rows.length > 0 && rows.every((r) => statusRe.test(r.cells[0].textContent!.trim()) && eventRe.test(r.cells[1].textContent!.trim()));
      };
      window.addEventListener('input', () => (f.start = performance.now()), { capture: true, once: true });
      const tasks = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.startTime + e.duration >= f.start && f.start > 0) f.longest = Math.max(f.longest, e.duration);
      });
      tasks.observe({ type: 'longtask' });
      const dom = new MutationObserver(() => {
        if (f.start === 0 || f.end > 0 || !shown()) return;
        f.end = -1;
        // After the frame that paints the change: a task queued from the next animation frame.
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => (f.end = performance.now());
          ch.port2.postMessage(null);
        });
      });
      dom.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      f.observers = [tasks, dom];
    },
    { status: { source: change.status.source, flags: change.status.flags }, event: { source: change.event.source, flags: change.event.flags } },
  );
  await page.getByLabel(change.select, { exact: true }).selectOption({ label: change.option });
  await page.waitForFunction(() => (window as unknown as { __filter: { end: number } }).__filter.end > 0);
  // Long tasks are reported after they end; give the observer its turn.
  await page.waitForTimeout(100);
  return page.evaluate(() => {
    const f = (window as unknown as { __filter: { start: number; end: number; longest: number; observers: { disconnect(): void }[] } }).__filter;
    for (const o of f.observers) o.disconnect();
    // The part spent waiting for the server: the log's request, from its start to its last byte.
    const requests = performance.getEntriesByType('resource').filter((e) => e.name.includes('/events?') && e.startTime >= f.start) as PerformanceResourceTiming[];
    const request = requests.length ? Math.max(...requests.map((e) => e.responseEnd - e.startTime)) : 0;
    return { ms: f.end - f.start, longestTask: f.longest, request };
  });
}

test.describe('the delivery log at 10,000 deliveries', () => {
  test('filters by status and event, at full speed and at 4× CPU slowdown', async ({ rootPage: page }) => {
    test.setTimeout(120_000);
    const hookId = await seedBusyHook();
    await page.goto(`/groups/acme/-/hooks/${hookId}/events`);
    const log = page.getByRole('table', { name: 'Deliveries' });
    await expect(log.getByRole('row')).toHaveCount(51);
    await expect(page.getByText(`of ${DELIVERIES.toLocaleString('en')} deliveries`)).toBeVisible();

    let cdp: CDPSession | null = null;
    figures.deliveryFilter = [];
    const passes: [number, typeof CHANGES][] = MEASURING
      ? [
          [1, CHANGES.slice(0, 5)],
          [4, CHANGES.slice(5)],
        ]
      : [[1, CHANGES]];
    for (const [slowdown, changes] of passes) {
      if (slowdown > 1) {
        cdp = await page.context().newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
      }
      const runs: { ms: number; longestTask: number; request: number }[] = [];
      for (const change of changes) {
        runs.push(await timeFilterChange(page, change));
        // What the user asked for is what the table shows: 50 matching rows.
        await expect(log.getByRole('row')).toHaveCount(51);
      }
      const ms = runs.map((r) => r.ms);
      const result = {
        cpuSlowdown: slowdown,
        medianMs: median(ms),
        worstMs: Math.max(...ms),
        longestTaskMs: Math.max(...runs.map((r) => r.longestTask)),
        requestMedianMs: median(runs.map((r) => r.request)),
        changes: runs.length,
      };
      figures.deliveryFilter.push(result);
      record(
        `delivery filter at ${slowdown}× CPU`,
        `${Math.round(result.medianMs)} ms median (of which the request ${Math.round(result.requestMedianMs)} ms), ${Math.round(result.worstMs)} ms worst of ${runs.length} changes; longest main-thread task ${result.longestTaskMs ? `${Math.round(result.longestTaskMs)} ms` : 'under 50 ms'}`,
      );
    }
    await cdp?.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await expect(page).toHaveURL(/status=successful&trigger=merge_request_hooks|trigger=merge_request_hooks&status=successful/);
  });
});
