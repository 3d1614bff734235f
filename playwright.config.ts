import { defineConfig, devices } from '@playwright/test';

// The browser is the machine's Chromium (Debian: /usr/bin/chromium), not a Playwright download.
const executablePath = process.env['SKINDESK_CHROMIUM'] ?? '/usr/bin/chromium';

export default defineConfig({
  // each project names its own folder (test/e2e, test/electron); reports name files relative to test/
  testDir: 'test',
  // Playwright empties outputDir at start: keep it a sub-folder so other reports in test-results/ survive
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env['CI']),
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // scripts/test.mjs sets PLAYWRIGHT_JSON_OUTPUT_NAME to collect the counts from a JSON report
  reporter: process.env['PLAYWRIGHT_JSON_OUTPUT_NAME'] ? [['list'], ['json']] : 'list',
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testDir: 'test/e2e',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--disable-quic',
            '--no-first-run',
          ],
        },
      },
    },
    {
      // test/electron: Playwright's Electron support (skipped, with the reason, when the binary is missing)
      name: 'electron',
      testDir: 'test/electron',
      timeout: 120_000,
    },
  ],
});
