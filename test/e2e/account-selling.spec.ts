// The account screens through the browser test host against the demo market: selling from the Steam
// inventory (checked, sent, the trade followed live until accepted, the listing then on My listings),
// and listing from the backpack with a price decay previewed hour by hour.
import { expect, test } from '@playwright/test';
import { decayPriceAt } from '../../src/shared/api/index.ts';
import { formatCents, parseCents } from '../../src/shared/money.ts';
import type { WebHost } from '../../src/web-host/index.ts';
import { freePort, openScreen, saveScreenshot, startAccountHost, watchProblems } from './account-fixtures.ts';

let host: WebHost;

test.beforeAll(async () => {
  host = await startAccountHost(31);
  // Both feeds: the webhook receiver (registered with the demo market) sees every status change as it
  // happens, the poller catches up with what it missed; both feed the one tracker.
  const view = await host.core.call('setTradeFeeds', {
    notifyOnStatusChange: true,
    webhook: { enabled: true, port: await freePort(), headerPrefix: 'X-Service-' },
  });
  expect(view.receiver.state).toBe('listening');
});

test.afterAll(async () => {
  await host?.close();
});

test('sell from the inventory → the trade is accepted → the listing appears', async ({ page }) => {
  const problems = watchProblems(page);
  host.demo!.setTradeOutcome('Accepted');
  await openScreen(page, host, 'inventory', 'Alt+2');
  await expect(page.getByTestId('token-clock')).toContainText(/tokens valid \d+:\d\d/);
  const rows = page.getByTestId('inventory-row');
  await expect(rows.first()).toBeVisible();

  // a locked item cannot be selected; pick the first tradable skin
  const row = rows.filter({ hasText: 'tradable' }).filter({ hasNotText: 'commodity' }).first();
  const name = (await row.locator('p').first().textContent())!.trim();
  // where the columns stand before any row is in an offer: its longer badge must not push them about
  const copiesHeader = page.getByTestId('inventory-table').getByRole('columnheader', { name: 'Copies' });
  const copiesAt = (await copiesHeader.boundingBox())!.x;
  await row.click();
  await expect(page.getByTestId('inventory-selection')).toContainText('1 row selected');
  await page.getByTestId('sell-open').click();

  // the price per copy starts at the recommended price; ask a little more
  const dialog = page.getByTestId('confirm-dialog');
  const recommended = parseCents((await dialog.getByTestId('sell-price').inputValue()).replace(/,/g, ''))!;
  const price = recommended + 7;
  await dialog.getByTestId('sell-price').fill((price / 100).toFixed(2));
  await expect(dialog.getByTestId('confirm-button')).toBeEnabled();
  await expect(dialog.getByTestId('confirm-button')).toContainText(formatCents(price));
  await saveScreenshot(page, 'sell-review');
  await dialog.getByTestId('confirm-button').click();

  // the deposit id is answered and followed as a trade until it is accepted
  const follow = dialog.getByTestId('trade-follow');
  await expect(follow).toContainText(/Deposit \d+/);
  await expect(follow.getByTestId('follow-status')).toHaveText('Accepted', { timeout: 15_000 });
  await saveScreenshot(page, 'sell');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // the sold row is marked as inside the offer until the inventory is read again
  await expect(page.getByTestId('inventory-row').filter({ hasText: name })).toContainText(/in offer · deposit \d+/);
  expect((await copiesHeader.boundingBox())!.x).toBe(copiesAt);

  await openScreen(page, host, 'listings', 'Alt+4');
  const listing = page.getByTestId('listing-row').filter({ hasText: name });
  await expect(listing).toHaveCount(1);
  await expect(listing).toContainText(formatCents(price));
  // and the server agrees
  const mine = host.demo!.state.book().listings.filter((l) => l.market_hash_name === name && l.price === price);
  expect(mine.length).toBeGreaterThanOrEqual(1);

  await openScreen(page, host, 'trades', 'Alt+5');
  const trade = page.getByTestId('trade-row').filter({ hasText: name });
  await trade.click();
  const timeline = page.getByTestId('trade-timeline');
  await expect(timeline).toContainText('Accepted');
  await expect(timeline).toContainText('Active');
  await expect(timeline).toContainText('seen by webhook');
  // every trade followed is counted, and reachable a page at a time
  const { total } = await host.core.call('getTrades', {});
  await expect(page.getByTestId('pager-count')).toHaveText(`${total.toLocaleString('en-US')} ${total === 1 ? 'trade' : 'trades'}`);
  await saveScreenshot(page, 'trades');
  // in a 1024 px window beside the timeline, the items give way and every status stays whole
  const wide = page.viewportSize();
  await page.setViewportSize({ width: 1024, height: 640 });
  const statuses = page.getByTestId('trade-status');
  expect(await statuses.count()).toBeGreaterThan(0);
  for (const status of await statuses.all()) {
    const cut = await status.evaluate((el) => [el, ...el.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth + 1));
    expect(cut, `${await status.getAttribute('data-status')} is cut off`).toBe(false);
  }
  if (wide) await page.setViewportSize(wide);
  expect(problems).toEqual([]);
});

test('list from the backpack with a price decay', async ({ page }) => {
  const problems = watchProblems(page);
  await openScreen(page, host, 'backpack', 'Alt+3');
  const rows = page.getByTestId('backpack-row');
  await expect(rows.first()).toBeVisible();
  const skin = rows.filter({ hasNotText: 'commodity' }).filter({ hasNotText: 'until' }).first();
  const name = (await skin.locator('p').first().textContent())!.trim();
  const market = parseCents((await skin.locator('td').nth(4).textContent())!.replace(/,/g, ''))!;
  await skin.click();
  await page.getByTestId('list-open').click();
  // a curve from 30% above the market price down to 10% below it, over two days
  const curve = { start_price: Math.round(market * 1.3) + 10, end_price: Math.max(1, Math.round(market * 0.9)), total_hours: 48 };

  const dialog = page.getByTestId('confirm-dialog');
  await dialog.getByTestId('list-group').first().locator('label', { hasText: /^Decay$/ }).click();
  const editor = dialog.getByTestId('decay-editor');
  await editor.getByTestId('decay-start').fill((curve.start_price / 100).toFixed(2));
  await editor.getByTestId('decay-end').fill((curve.end_price / 100).toFixed(2));
  await editor.getByTestId('decay-hours').fill('48');
  await expect(dialog.getByTestId('decay-curve')).toBeVisible();
  // the price at any hour: the start, and halfway through the 48 hours
  await editor.getByRole('slider', { name: 'Hour of the curve' }).focus();
  await page.keyboard.press('Home');
  await expect(editor.getByTestId('decay-price-at')).toHaveText(`0 h: ${formatCents(curve.start_price)}`);
  for (let i = 0; i < 24; i++) await page.keyboard.press('ArrowRight');
  await expect(editor.getByTestId('decay-price-at')).toHaveText(`24 h: ${formatCents(decayPriceAt(curve, 24))}`);
  await expect(dialog.getByTestId('confirm-button')).toBeEnabled();
  await saveScreenshot(page, 'list-decay');
  await dialog.getByTestId('confirm-button').click();
  await expect(dialog.getByTestId('listed-result')).toContainText(name);
  await dialog.getByRole('button', { name: 'Close' }).click();

  await openScreen(page, host, 'listings', 'Alt+4');
  const listing = page.getByTestId('listing-row').filter({ hasText: name });
  await expect(listing.getByTestId('decay-progress')).toBeVisible();
  await expect(listing).toContainText(formatCents(curve.start_price));
  const truth = host.demo!.state.listing(Number((await listing.getAttribute('data-listing-id'))!));
  expect(truth?.full.market_hash_name).toBe(name);
  // every active listing says where it stands in the mirrored book (the web host mirrors every game)
  const rowCount = await page.getByTestId('listing-row').count();
  await expect(page.getByTestId('standing').filter({ hasText: /^(alone|only [\w ]+|lowest ([\w ]+ )?of \d+|\d+ ([\w ]+ )?cheaper · \$[\d,.]+)$/ })).toHaveCount(rowCount);
  await saveScreenshot(page, 'listings');
  expect(problems).toEqual([]);
});

test('a refused price moves nothing in the Sell dialog, and Enter in a price sends the offer', async ({ page }) => {
  const problems = watchProblems(page);
  await openScreen(page, host, 'inventory', 'Alt+2');
  const rows = page.getByTestId('inventory-row');
  await expect(rows.first()).toBeVisible();
  const free = rows.filter({ hasText: 'tradable' }).filter({ hasNotText: 'commodity' }).filter({ hasNotText: 'in offer' });
  await free.nth(0).click();
  await free.nth(1).click({ modifiers: ['Control'] });
  await page.getByTestId('sell-open').click();

  const dialog = page.getByTestId('confirm-dialog');
  const table = dialog.getByTestId('sell-groups');
  const height = async () => (await table.boundingBox())!.height;
  const before = await height();
  const second = dialog.getByTestId('sell-price').nth(1);
  await second.fill('1,5');
  // the words are in a tooltip beside the red field and beside the button, not under the field in its row
  const words = 'Use a point for cents (12.50); a comma only separates thousands (1,250.00).';
  await expect(page.getByRole('tooltip')).toHaveText(words);
  await expect(second).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByTestId('blocked-reason')).toHaveText(`Group 2: ${words}`);
  expect(await height()).toBe(before);
  // with nothing the offer could ask, no total and no amount on the button
  await dialog.getByTestId('sell-price').nth(0).fill('');
  await expect(dialog.getByTestId('sell-total')).toHaveText('–');
  await expect(dialog.getByTestId('confirm-button')).toHaveText('Send trade offer');

  await dialog.getByTestId('sell-price').nth(0).fill('3.00');
  await second.fill('4.00');
  await second.press('Enter');
  await expect(dialog.getByTestId('trade-follow')).toContainText(/Deposit \d+/);
  expect(problems).toEqual([]);
});
