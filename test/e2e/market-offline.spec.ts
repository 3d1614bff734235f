// Offline start: the app is set to a real market (here a demo market the test runs itself, reached by
// URL and key), mirrors its book, and closes; the market then goes away. The next start opens on the
// cached book at once — the same rows — marked offline with "book as of", and trading is off.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { SETTINGS_FILE_NAME, silentLog } from '../../src/core/app/index.ts';
import { queryBook } from '../../src/core/query/index.ts';
import { MemorySecretStore } from '../../src/core/secrets/index.ts';
import { startDemoMarket } from '../../src/demo/index.ts';
import { startWebHost } from '../../src/web-host/index.ts';
import { saveScreenshot, visibleIds, watchProblems } from './market-fixtures.ts';

test('an offline start shows the cached rows at once, marked offline, with trading off', async ({ page }) => {
  const problems = watchProblems(page);
  const dataDir = mkdtempSync(join(tmpdir(), 'skindesk-e2e-offline-'));
  const market = await startDemoMarket({ port: 0, listings: 3000, rate: 0, seed: 31 });
  const secrets = new MemorySecretStore({ 'api-key': market.apiKey });
  writeFileSync(join(dataDir, SETTINGS_FILE_NAME), JSON.stringify({ market: { useDemo: false, baseUrl: market.baseUrl } }));

  // first run: online, the book is mirrored to disk
  const online = await startWebHost({ dataDir, secrets, log: silentLog });
  let cached: number[];
  try {
    const live = await online.core.whenLive(30_000);
    expect(live.market.mode).toBe('real');
    cached = queryBook(online.core.session.db, { sort: { field: 'created_at', dir: 'desc' }, limit: 40 }).rows.map((r) => r.id);
    expect(cached.length).toBe(40);
  } finally {
    await online.close();
    await market.close();
  }

  // second run: the market is gone
  const offline = await startWebHost({ dataDir, secrets, log: silentLog });
  try {
    await page.goto(offline.url);
    await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-state', 'offline', { timeout: 15_000 });
    await expect(page.getByTestId('sync-badge')).toContainText('book as of');
    await expect(page.getByTestId('market-badge')).toHaveText('Real market');
    await expect(page.getByTestId('offline-banner')).toContainText('Trading is off');
    const total = queryBook(offline.core.session.db, { limit: 1, count: true }).total as number;
    expect(total).toBeGreaterThan(2_900);
    await expect(page.getByTestId('book-summary')).toHaveText(`${total.toLocaleString('en-US')} listings`);
    await expect.poll(async () => (await visibleIds(page)).slice(0, 20)).toEqual(cached.slice(0, 20));

    // read-only for trading: B does nothing, the detail's Buy is disabled and says why
    const first = page.locator(`[data-listing-id="${cached[0]}"]`);
    await first.click();
    await page.keyboard.press('b');
    await expect(page.getByRole('dialog', { name: 'Buy' })).toHaveCount(0);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('detail-buy')).toBeDisabled();
    // and the app refuses an order even if one were sent
    const refused = await page.evaluate(() => window.skindesk?.buyListings({ lines: [{ listingId: 1, amount: 1, maxPrice: 100 }] }));
    expect(refused).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    await saveScreenshot(page, 'offline');
  } finally {
    await offline.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  expect(problems).toEqual([]);
});
