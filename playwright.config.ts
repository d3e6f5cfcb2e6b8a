import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { registryKey } from './bff/test/registry.ts';

/**
 * The e2e suite drives the built console (run `npx vite build` first) in Debian's Chromium
 * against a real server on a fresh database with the demo data. The values below are set in
 * process.env so the tests (worker processes inherit it) sign in and call the API with them.
 */
const PORT = Number(process.env.E2E_PORT ?? 8181);
process.env.E2E_BASE_URL ??= `http://127.0.0.1:${PORT}`;
process.env.E2E_ROOT_PASSWORD ??= 'e2e-root-password-1';
process.env.E2E_ROOT_TOKEN ??= 'e2e-root-token-0123456789abcdef';
// Made once in the main process; workers see it through the environment and do not make another.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-e2e-'));
// A real container registry behind the server (Debian's docker-registry, started by
// e2e/global-setup.ts on the next port): the key the server signs its tokens with, made once.
process.env.E2E_REGISTRY_PORT ??= String(PORT + 1);
process.env.E2E_REGISTRY_DIR ??= registryKey().dir;
process.env.E2E_REGISTRY_ISSUER ??= 'gatehouse-e2e';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  workers: 1,
  fullyParallel: false,
  globalSetup: './e2e/global-setup.ts',
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: 'list',
  // Ceilings, not expectations: in `npm test` the suite shares 2 cores with both HTTP suites (load
  // around 13), where a page that takes 1 s alone has taken over 7 s on CI.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  outputDir: 'test-results',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    viewport: { width: 1280, height: 800 },
    // The console honours prefers-reduced-motion (web/src/theme.ts): no transitions to wait out
    // or to draw. A screen is scanned and clicked as it settles, not mid-fade.
    reducedMotion: 'reduce',
    // A failed test keeps its trace with the DOM at each step, but no screencast: filming every
    // test cost a third of Chromium's CPU in `npm test` (114 against 76 core-s for the groups and
    // members files), for pictures of the tests that pass. `--trace on` films a rerun.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's headless shell (scripts/chromium.sh), else its full browser.
      executablePath: process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => fs.existsSync(p)),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'npx tsx bff/src/main.ts',
    url: `${process.env.E2E_BASE_URL}/api/v4/groups`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      GATEHOUSE_DATA_DIR: process.env.E2E_DATA_DIR,
      GATEHOUSE_DEMO: '1',
      GATEHOUSE_ROOT_PASSWORD: process.env.E2E_ROOT_PASSWORD,
      GATEHOUSE_ROOT_TOKEN: process.env.E2E_ROOT_TOKEN,
      GATEHOUSE_LOG_LEVEL: 'warn',
      GATEHOUSE_REGISTRY_URL: `http://127.0.0.1:${process.env.E2E_REGISTRY_PORT}`,
      GATEHOUSE_REGISTRY_KEY: path.join(process.env.E2E_REGISTRY_DIR, 'token.key'),
      GATEHOUSE_REGISTRY_ISSUER: process.env.E2E_REGISTRY_ISSUER,
    },
  },
});
