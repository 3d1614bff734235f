// Watchlists in the real renderer over the real core (browser test host, demo market): a filter set on
// the book becomes a watchlist with one click; it is switched to confirm-first with a price ceiling in
// its dialog, with an alert webhook tested from the dialog; a matching listing appears on the demo market (through the harness), its alert shows in the
// feed, and one key (B) buys it — the listing leaves the market and the auto-buy log says bought. The
// status-bar kill switch then stops the next one. Screenshots for the README.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { type MarketHost, demo, openApp, saveScreenshot, startMarketHost, watchProblems } from './market-fixtures.ts';

let m: MarketHost;
let item: { name: string; price: number };

/** A local webhook receiver: what the app posts for alerts. */
const receiver = { origin: '', posts: [] as string[], server: createServer() };

test.beforeAll(async () => {
  receiver.server.on('request', (req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString('utf8')));
    req.on('end', () => {
      receiver.posts.push(text);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.server.listen(0, '127.0.0.1', r));
  receiver.origin = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
  m = await startMarketHost({ demo: { listings: 3000, rate: 0, seed: 29 }, syncOptions: { firstEventWaitMs: 50 } });
  const listings = demo(m.host).state.book().listings.filter((l) => !l.commodity && l.price >= 2_000);
  const chosen = listings[Math.floor(listings.length / 2)];
  if (!chosen) throw new Error('no suitable item in the demo book');
  item = { name: chosen.market_hash_name, price: chosen.price };
});

test.afterAll(async () => {
  await new Promise<void>((r) => receiver.server.close(() => r()));
  await m?.close();
});

test('watch a filter, get the alert for a new matching listing, buy it confirm-first with one key', async ({ page }) => {
  const problems = watchProblems(page);
  await openApp(page, m.host);

  // the book's filter, then "Watch"
  await page.getByTestId('name-search').fill(item.name);
  await expect(page.getByTestId('filter-chips')).toContainText(item.name.slice(0, 10));
  await page.getByTestId('watch-filter').click();
  await expect.poll(async () => (await m.host.core.call('listWatchlists', {})).watchlists.length).toBe(1);
  const [created] = (await m.host.core.call('listWatchlists', {})).watchlists;
  expect(created?.filter).toEqual({ name: item.name });

  // to the watchlists screen, and make it confirm-first at most half the item's price
  await page.keyboard.press('Alt+9');
  await expect(page.getByTestId('watchlists-screen')).toBeVisible();
  await page.getByRole('button', { name: `Edit ${created!.name}` }).click();
  const dialog = page.getByTestId('watchlist-dialog');
  await dialog.getByText('At most', { exact: true }).click();
  const ceiling = Math.floor(item.price / 2);
  await dialog.getByTestId('price-ceiling').fill((ceiling / 100).toFixed(2));
  await dialog.getByText('Confirm first (one key)').click();
  await dialog.getByTestId('rail-max_price').fill((ceiling / 100).toFixed(2));
  // alerts also go to a webhook: a URL into the local network is refused as typed, a good one is tested
  const webhook = dialog.getByTestId('alert-webhook');
  await webhook.fill('http://192.168.1.5/hook');
  await expect(dialog).toContainText('must be an https:// URL');
  await expect(dialog.getByTestId('alert-webhook-test')).toBeDisabled();
  await webhook.fill(`${receiver.origin}/hooks/TOKEN`);
  await dialog.getByTestId('alert-webhook-test').click();
  await expect(dialog.getByTestId('alert-webhook-result')).toHaveText('A test message was delivered.');
  await saveScreenshot(page, 'watchlist-dialog');
  await dialog.getByTestId('watchlist-save').click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await m.host.core.call('listWatchlists', {})).watchlists[0]?.auto_buy.mode).toBe('confirm');

  // a matching listing appears on the market
  const price = Math.floor(ceiling * 0.8);
  const listing = demo(m.host).createListing({ name: item.name, price });
  const row = page.locator(`[data-alert-id][data-listing-id="${listing.listing.id}"]`);
  await expect(row).toBeVisible({ timeout: 10_000 });
  await expect(row.getByTestId('alert-state')).toHaveText('new');
  await expect(row).toContainText((price / 100).toFixed(2));
  await expect(row.getByTestId('alert-buy')).toBeVisible();
  await expect.poll(() => receiver.posts.some((p) => p.includes(`"listing_id":${listing.listing.id}`))).toBe(true);
  await saveScreenshot(page, 'watchlists-alert');

  // one key: B buys the newest alert
  await page.keyboard.press('b');
  await expect(row.getByTestId('alert-state')).toHaveText('bought', { timeout: 10_000 });
  expect(demo(m.host).state.listing(listing.listing.id)?.status).not.toBe('ACTIVE');
  await expect(page.getByTestId('autobuy-log').locator('[data-log-id]').first()).toContainText('bought');
  const journal = m.host.core.session.db
    .prepare('SELECT state, trigger_seq, watchlist_id, source FROM purchase_journal WHERE listing_id = ?')
    .all(listing.listing.id);
  expect(journal).toEqual([{ state: 'bought', trigger_seq: expect.stringMatching(/^\d+$/), watchlist_id: created!.id, source: 'watch:confirm' }]);

  // the listing is one click away: its detail opens beside the feed
  await row.getByTestId('open-alert').click();
  await expect(page.getByText(item.name).first()).toBeVisible();
  // the feed narrows beside it: the name ends in an ellipsis inside its cell, never cut off mid-letter
  // at the cell's edge (this item's name is longer than the cell leaves)
  const name = await row.getByTestId('open-alert').evaluate((button) => {
    const cell = button.closest('td') as HTMLElement;
    const inner = cell.getBoundingClientRect().right - parseFloat(getComputedStyle(cell).paddingRight);
    return { pastCell: button.getBoundingClientRect().right > inner + 0.5, shortened: button.scrollWidth > button.clientWidth, ellipsis: getComputedStyle(button).textOverflow };
  });
  expect(name).toEqual({ pastCell: false, shortened: true, ellipsis: 'ellipsis' });

  // the status-bar kill switch stops the next purchase before anything is sent
  await page.getByTestId('kill-switch').click();
  await expect(page.getByTestId('kill-switch')).toHaveAttribute('data-engaged', 'true');
  const next = demo(m.host).createListing({ name: item.name, price });
  const nextRow = page.locator(`[data-alert-id][data-listing-id="${next.listing.id}"]`);
  await expect(nextRow).toBeVisible({ timeout: 10_000 });
  await nextRow.click();
  await page.keyboard.press('b');
  await expect(nextRow.getByTestId('alert-state')).toHaveText('blocked');
  await expect(page.getByTestId('watch-problem')).toContainText('kill switch');
  expect(demo(m.host).state.listing(next.listing.id)?.status).toBe('ACTIVE');
  await saveScreenshot(page, 'watchlists');
  await page.getByTestId('kill-switch').click();
  await expect(page.getByTestId('kill-switch')).toHaveAttribute('data-engaged', 'false');
  expect(problems).toEqual([]);
});

test('at the smallest window (960 px) the alert feed keeps its item column legible beside the detail', async ({ page }) => {
  const problems = watchProblems(page);
  await openApp(page, m.host);
  const wide = page.viewportSize();
  await page.setViewportSize({ width: 960, height: 700 });
  await m.host.core.call('createWatchlist', { filter: { name: item.name }, watchlist: { price: { kind: 'ceiling', max_price: item.price } } });
  const listing = demo(m.host).createListing({ name: item.name, price: Math.floor(item.price / 2) });
  await page.keyboard.press('Alt+9');
  await expect(page.getByTestId('watchlists-list')).toBeVisible();
  // (the first test's watchlist, if it ran, alerts on the listing too)
  const row = page.locator(`[data-alert-id][data-listing-id="${listing.listing.id}"]`).first();
  await expect(row).toBeVisible({ timeout: 10_000 });
  await row.getByTestId('open-alert').click();
  await expect(page.getByTestId('detail-panel')).toBeVisible();
  // the item column keeps room for a name beside the detail (it had a few pixels)
  const itemWidths = () =>
    row.getByTestId('open-alert').evaluate((button) => {
      const cell = button.closest('td') as HTMLElement;
      return { cell: Math.round(cell.getBoundingClientRect().width), name: Math.round(button.getBoundingClientRect().width) };
    });
  await expect.poll(async () => (await itemWidths()).cell, { message: 'the item column' }).toBeGreaterThanOrEqual(180);
  expect((await itemWidths()).name, 'the shown part of the name').toBeGreaterThanOrEqual(150);
  // the watchlists gave way to the detail
  await expect(page.getByTestId('watchlists-list')).toBeHidden();
  // the feed still fits beside the detail: no column pushed past the screen's edge
  const actions = await row.locator('td').last().boundingBox();
  const detail = await page.getByTestId('detail-panel').boundingBox();
  expect((actions?.x ?? 0) + (actions?.width ?? 0)).toBeLessThanOrEqual((detail?.x ?? 0) + 1);
  await page.screenshot({ path: test.info().outputPath('watchlists-960x700.png') });
  // closing the detail brings the watchlists back
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('detail-panel')).toBeHidden();
  await expect(page.getByTestId('watchlists-list')).toBeVisible();
  if (wide) await page.setViewportSize(wide);
  expect(problems).toEqual([]);
});
