// Shared setup of the account e2e specs: the browser test host on a small, fast demo market (a trade
// step or a withdrawal settles in well under a second), the trade poller at a fast cadence, and helpers
// to reach a screen and save a screenshot for the README.
import { createServer } from 'node:net';
import { expect, type Page } from '@playwright/test';
import { silentLog } from '../../src/core/app/index.ts';
import { type WebHost, startWebHost } from '../../src/web-host/index.ts';
import { hideToasts, saveScreenshot as saveUiScreenshot } from './screenshots.ts';

export async function startAccountHost(seed: number): Promise<WebHost> {
  const host = await startWebHost({
    demo: { listings: 400, rate: 2, seed, timeScale: 40 },
    log: silentLog,
    accountTimings: { poller: { activeIntervalMs: 300, idleIntervalMs: 1_500 }, withdrawalPollMs: 200, guardCheckMs: 250 },
  });
  await host.core.whenLive(30_000);
  return host;
}

/** Page errors, console errors (CSP violations land there too). */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  return problems;
}

/** Opens the app and goes to an account screen through its keyboard shortcut (Alt+1 … Alt+8). */
export async function openScreen(page: Page, host: WebHost, id: string, hotkey: string): Promise<void> {
  if (!page.url().startsWith(host.origin)) {
    await page.goto(host.url);
    await expect(page.getByTestId('market-badge')).toBeVisible();
  }
  await page.locator('body').press(hotkey);
  await expect(page.getByTestId(`screen-${id}`)).toBeVisible();
}

/** A screenshot for the README (docs/screenshots/account-<name>.png). */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await hideToasts(page);
  await saveUiScreenshot(page, `account-${name}`);
}

/** A free loopback port (for the webhook receiver, which the app binds on a fixed port). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
