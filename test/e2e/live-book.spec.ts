// The real renderer and the real core, through the browser test host, against the embedded demo market:
// the page gets window.skindesk from the host's bridge script, shows the live book with the "Demo
// market" badge, and the rows change as the demo market trades. Everything the page does goes through
// the same IPC contract as in Electron.
import { expect, test, type Page } from '@playwright/test';
import { silentLog } from '../../src/core/app/index.ts';
import { IPC_CALL_NAMES, IPC_PUSH_NAMES, pushFunctionName } from '../../src/shared/ipc/index.ts';
import { type WebHost, startWebHost } from '../../src/web-host/index.ts';

let host: WebHost;

test.beforeAll(async () => {
  host = await startWebHost({ demo: { listings: 3000, rate: 25, seed: 5 }, log: silentLog });
  await host.core.whenLive(30_000);
});

test.afterAll(async () => {
  await host?.close();
});

/** Page errors, console errors (CSP violations land there too) and failed responses. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return problems;
}

const rowIds = (page: Page) =>
  page.locator('[data-listing-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-listing-id')));

test('shows the live demo book with the Demo market badge', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto(host.url);
  // the token was traded for a cookie and is gone from the address bar
  expect(page.url()).toBe(`${host.origin}/`);
  await expect(page).toHaveTitle('Skindesk');
  await expect(page.getByTestId('market-badge')).toHaveText('Demo market');
  await expect(page.getByTestId('sync-badge')).toHaveText('live');
  // the windowed grid renders the rows in view (plus a few beyond), never the whole book
  await expect.poll(() => page.locator('[data-listing-id]').count()).toBeGreaterThan(20);
  expect(await page.locator('[data-listing-id]').count()).toBeLessThan(200);
  await expect(page.getByTestId('book-summary')).toContainText(/\d+ listings?/);

  // the rows shown are the mirror's newest listings
  const shown = await rowIds(page);
  const mirror = await host.core.call('queryBook', {
    sort: { field: 'created_at', dir: 'desc' },
    limit: 200,
  });
  const mirrorIds = new Set(mirror.rows.map((r) => String(r.id)));
  expect(shown.filter((id) => id !== null && mirrorIds.has(id)).length).toBeGreaterThan(20);

  // live: as the demo market trades, new listings arrive at the top without a reload
  await expect
    .poll(async () => (await rowIds(page)).join(','), { timeout: 20_000, message: 'the rows never changed' })
    .not.toBe(shown.join(','));
  expect(host.connections()).toBe(1);

  await page.screenshot({ path: 'test-results/live-book.png' });
  expect(problems).toEqual([]);
});

test('window.skindesk holds exactly the functions generated from the contract, and cannot be replaced', async ({
  page,
}) => {
  await page.goto(host.url);
  await expect(page.getByTestId('market-badge')).toBeVisible();
  const keys = await page.evaluate(() => Object.keys(window.skindesk ?? {}).sort());
  expect(keys).toEqual([...IPC_CALL_NAMES, ...IPC_PUSH_NAMES.map(pushFunctionName)].sort());
  const replaced = await page.evaluate(() => {
    try {
      (window as unknown as { skindesk: unknown }).skindesk = {};
    } catch {
      // strict-mode pages throw; either way the API must survive
    }
    return typeof window.skindesk?.queryBook === 'function' && !('ipcRenderer' in (window.skindesk ?? {}));
  });
  expect(replaced).toBe(true);
  // a bad input comes back as a typed error: the handler never ran
  const refused = await page.evaluate(() => window.skindesk?.getListing({ id: -5 }));
  expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
});

test('the strict CSP is sent and blocks inline script', async ({ page }) => {
  const response = await page.goto(host.url);
  const csp = (await response?.allHeaders())?.['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  expect(csp).toMatch(/frame-ancestors 'none'/);
  await expect(page.getByTestId('market-badge')).toBeVisible();
  const violations: string[] = [];
  page.on('console', (msg) => violations.push(msg.text()));
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.head.append(script);
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations.join('\n')).toMatch(/Content Security Policy/);
});

test('without the token the page is refused', async ({ page }) => {
  const response = await page.goto(`${host.origin}/`);
  expect(response?.status()).toBe(401);
  const wrong = await page.goto(`${host.origin}/?token=not-the-token`);
  expect(wrong?.status()).toBe(401);
});
