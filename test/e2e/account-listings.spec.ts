// My listings through the browser test host against the demo market: a partial reprice is explained
// before it is sent and creates the second listing (the surplus at the old price); a bulk delist in
// which one listing can no longer be delisted shows that row failing, in plain words, beside the others.
import { expect, test } from '@playwright/test';
import { formatCents } from '../../src/shared/money.ts';
import type { WebHost } from '../../src/web-host/index.ts';
import { openScreen, saveScreenshot, startAccountHost, watchProblems } from './account-fixtures.ts';

let host: WebHost;

test.beforeAll(async () => {
  host = await startAccountHost(32);
});

test.afterAll(async () => {
  await host?.close();
});

test('a partial reprice is explained first, and creates the second listing', async ({ page }) => {
  const problems = watchProblems(page);
  await openScreen(page, host, 'listings', 'Alt+4');
  // a commodity stack of several copies (the demo user lists one of CS2 and one of Rust)
  const { listings } = await host.core.call('getMyListings', { status: 'ACTIVE', limit: 50 });
  const stack = listings.find((l) => l.commodity && l.amount >= 3 && l.price_decay === null)!;
  expect(stack).toBeTruthy();
  const row = page.locator(`[data-testid="listing-row"][data-listing-id="${stack.id}"]`);
  await row.getByTestId('listing-edit').click();

  const dialog = page.getByTestId('confirm-dialog');
  const newPrice = stack.price + 25;
  await dialog.getByTestId('edit-price').fill((newPrice / 100).toFixed(2));
  await expect(dialog.getByTestId('edit-explanation')).toHaveAttribute('data-kind', 'reprice');
  await dialog.getByTestId('edit-amount-switch').check();
  await dialog.getByTestId('edit-amount').fill('1');
  const explanation = dialog.getByTestId('edit-explanation');
  await expect(explanation).toHaveAttribute('data-kind', 'partial_reprice');
  await expect(explanation).toContainText(`keeps 1 copy at ${formatCents(newPrice)}`);
  await expect(explanation).toContainText(`stay on the market as a NEW listing at the old price ${formatCents(stack.price)}`);
  await saveScreenshot(page, 'partial-reprice');
  await dialog.getByTestId('confirm-button').click();

  const split = dialog.getByTestId('edit-split');
  await expect(split).toContainText(`holds the other ${stack.amount - 1} copies at the old price ${formatCents(stack.price)}`);
  const splitId = Number(/#(\d+)/.exec((await split.textContent()) ?? '')?.[1]);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // both listings are on the screen, and on the server
  await expect(row).toContainText(formatCents(newPrice));
  const second = page.locator(`[data-testid="listing-row"][data-listing-id="${splitId}"]`);
  await expect(second).toContainText(formatCents(stack.price));
  await expect(second).toContainText(String(stack.amount - 1));
  expect(host.demo!.state.listing(stack.id)?.listing).toMatchObject({ amount: 1, price: newPrice });
  expect(host.demo!.state.listing(splitId)?.listing).toMatchObject({ amount: stack.amount - 1, price: stack.price, market_hash_name: stack.market_hash_name });
  expect(problems).toEqual([]);
});

test('bulk delist: the row that fails is shown failing, the others are done', async ({ page }) => {
  const problems = watchProblems(page);
  await openScreen(page, host, 'listings', 'Alt+4');
  const rows = page.getByTestId('listing-row');
  await expect(rows.nth(2)).toBeVisible();
  const ids = await rows.evaluateAll((els) => els.slice(0, 3).map((el) => Number(el.getAttribute('data-listing-id'))));
  for (const id of ids) await page.locator(`[data-listing-id="${id}"]`).getByRole('checkbox').check();
  await expect(page.getByTestId('listings-selection')).toContainText('3 listings selected');
  await page.getByTestId('bulk-delist-open').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText('Delist 3 listings');

  // while the user reads the review, a buyer takes the middle one
  host.demo!.buyListing(ids[1]!);
  await dialog.getByTestId('confirm-button').click();

  const results = dialog.getByTestId('bulk-results');
  await expect(results).toBeVisible();
  await expect(dialog.getByTestId('bulk-summary')).toHaveText('2 of 3 done; 1 row failed.');
  const failed = results.locator(`[data-listing-id="${ids[1]}"]`);
  await expect(failed).toHaveAttribute('data-ok', 'false');
  await expect(failed).toContainText('LISTING_NOT_FOUND');
  await expect(failed).toContainText('That listing is gone');
  for (const id of [ids[0], ids[2]]) await expect(results.locator(`[data-listing-id="${id}"]`)).toHaveAttribute('data-ok', 'true');
  await saveScreenshot(page, 'bulk-delist');
  await dialog.getByRole('button', { name: 'Close' }).click();
  for (const id of ids) await expect(page.locator(`[data-testid="listing-row"][data-listing-id="${id}"]`)).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('an undercut guard follows a cheaper rival down, one cent under it, and says so', async ({ page }) => {
  const problems = watchProblems(page);
  const demo = host.demo!;
  // The rival below must be the guard's first reason to move (it reprices at most once every 30 s): no
  // simulated seller or buyer acts meanwhile, and the test lists its own item — the earlier tests' delists
  // and the crowd's purchases leave no listing of the demo user to count on — as its item's cheapest.
  demo.pauseActivity();
  const trader = demo.accounts.find((a) => !a.simulated)!;
  const name = demo.state.book().listings.find((l) => !l.commodity)!.market_hash_name;
  const listed = demo.createListing({ seller: trader.id, name, price: 500 });
  const othersOfTheItem = () => demo.state.book().listings.filter((l) => l.market_hash_name === name && l.id !== listed.listing.id);
  for (const other of othersOfTheItem()) if (other.price <= 500) demo.repriceListing(other.id, 550);
  demo.flushFeed();
  await openScreen(page, host, 'listings', 'Alt+4');
  const { listings } = await host.core.call('getMyListings', { status: 'ACTIVE', limit: 50 });
  const target = listings.find((l) => l.id === listed.listing.id)!;
  expect(target).toMatchObject({ price: 500, price_decay: null });
  const row = page.locator(`[data-testid="listing-row"][data-listing-id="${target.id}"]`);
  await row.getByTestId('listing-edit').click();
  const dialog = page.getByTestId('confirm-dialog');
  const panel = dialog.getByTestId('guard-panel');
  await panel.getByTestId('guard-floor').fill('0.01');
  await panel.getByTestId('guard-save').click();
  await expect(panel.getByTestId('guard-note')).toBeVisible();

  // a rival lists the same item for less: the guard goes one cent under the cheapest other
  demo.createListing({ name: target.market_hash_name, price: target.price - 20 });
  demo.flushFeed();
  const cheapestOther = () => Math.min(...othersOfTheItem().map((l) => l.price));
  await expect.poll(() => demo.state.listing(target.id)?.listing.price, { timeout: 15_000 }).toBe(cheapestOther() - 1);
  // after its reprice the guard finds itself lowest; the count of reprices stays
  await expect(panel.getByTestId('guard-note')).toContainText('(1 reprice so far)', { timeout: 10_000 });
  await saveScreenshot(page, 'undercut-guard');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row.getByTestId('guard-mark')).toHaveAttribute('data-state', /^(undercut|lowest)$/);
  await expect(row).toContainText(formatCents(cheapestOther() - 1));
  demo.resumeActivity();
  expect(problems).toEqual([]);
});

test('at 1024×640 the listings table keeps its headers, standings, decay and ages on one line each', async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1024, height: 640 });
  await openScreen(page, host, 'listings', 'Alt+4');
  await expect(page.getByTestId('listing-row').first()).toBeVisible();
  // the lines a cell's text takes: the distinct tops of its text's boxes
  const wrapped = (selector: string) =>
    page.locator(selector).evaluateAll((els) =>
      els
        .filter((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size > 1;
        })
        .map((el) => el.textContent),
    );
  const headers = page.getByTestId('listings-table').locator('thead th');
  await expect(headers.filter({ hasText: 'Can add' })).toHaveCount(1);
  expect(await wrapped('[data-testid="listings-table"] thead th')).toEqual([]);
  expect(await wrapped('[data-testid="standing"]')).toEqual([]);
  expect(await wrapped('[data-testid="decay-progress"] p')).toEqual([]);
  expect(await wrapped('[data-testid="listing-row"] td:nth-last-child(2)')).toEqual([]);
  await page.screenshot({ path: 'test-results/screenshots/account-listings-1024.png' });
  expect(problems).toEqual([]);
});
