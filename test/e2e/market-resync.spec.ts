// A resync whose book read is slow (the demo market holds /book for 20 s): the feed comes back at once,
// and the grid keeps following it — a new listing and a reprice show while the badge still says
// "resyncing", whose tooltip says what the book does meanwhile. Once the read lands, the book is live.
import { expect, test } from '@playwright/test';
import { demo, startMarketHost, type MarketHost, watchProblems } from './market-fixtures.ts';

let market: MarketHost;

test.beforeAll(async () => {
  market = await startMarketHost({ demo: { listings: 3000, rate: 0, seed: 17 } });
});

test.afterAll(async () => {
  await market?.close();
});

test('during a slow resync the grid keeps following the feed, and the badge says so', async ({ page }) => {
  test.setTimeout(90_000);
  const problems = watchProblems(page);
  const host = market.host;
  const dm = demo(host);
  await page.goto(host.url);
  await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-state', 'live', { timeout: 15_000 });
  const newest = page.locator('[data-listing-id]').first();
  await expect(newest).toBeVisible();
  const shownFirst = await newest.getAttribute('data-listing-id');
  const repriced = Number(shownFirst);

  dm.chaos.set({ rest: { bookDelayMs: 20_000 } });
  dm.chaos.dropWebSockets('clean');
  const badge = page.getByTestId('sync-badge');
  await expect(badge).toHaveAttribute('data-state', 'resyncing', { timeout: 10_000 });
  // the book is asked for only once the new socket is subscribed: from then on, the market trades
  await expect.poll(() => dm.chaos.stats.rest.delayed, { timeout: 10_000 }).toBeGreaterThan(0);
  const fresh = dm.createListing({ appId: 730 });
  dm.repriceListing(repriced, 4_321);

  const freshRow = page.locator(`[data-listing-id="${fresh.listing.id}"]`);
  await expect(freshRow).toBeVisible({ timeout: 10_000 });
  await expect(page.locator(`[data-listing-id="${repriced}"]`)).toContainText('$43.21');
  await expect(badge).toHaveAttribute('data-state', 'resyncing');

  await badge.hover();
  await expect(page.getByRole('tooltip')).toContainText('The book keeps following the feed');
  await page.screenshot({ path: 'test-results/screenshots/resyncing.png' });

  dm.chaos.calm();
  await expect(badge).toHaveAttribute('data-state', 'live', { timeout: 40_000 });
  await expect(freshRow).toBeVisible();
  expect(problems).toEqual([]);
});
