// The portfolio and the trade feeds through the browser test host, then the account screens opening
// offline from SQLite once the marketplace is gone.
import { expect, test } from '@playwright/test';
import { formatCents } from '../../src/shared/money.ts';
import type { WebHost } from '../../src/web-host/index.ts';
import { freePort, openScreen, saveScreenshot, startAccountHost, watchProblems } from './account-fixtures.ts';

let host: WebHost;

test.beforeAll(async () => {
  host = await startAccountHost(34);
});

test.afterAll(async () => {
  await host?.close();
});

test('portfolio: balance, listed value, holdings at market prices, value over time', async ({ page }) => {
  const problems = watchProblems(page);
  // Setup: a week of points as earlier sessions of the app would have stored them (the marketplace keeps
  // no portfolio history; the app records a point on each refresh).
  const history = host.core.account.account().portfolio;
  const day = 24 * 60 * 60_000;
  for (let d = 7; d >= 1; d--) {
    history.record({ at: Date.now() - d * day, balance: 480_000 + d * 1_700, listedValue: 20_000 + (d % 3) * 2_500, inventoryValue: 30_000 - d * 900 });
  }
  await openScreen(page, host, 'portfolio', 'Alt+1');
  const account = host.demo!.state.account(1)!;
  await expect(page.getByTestId('portfolio-balance')).toContainText(formatCents(account.balance));
  await expect(page.getByTestId('portfolio-listed')).toContainText(/\d+ listings · \d+ items at asking prices/);
  await expect(page.getByTestId('portfolio-inventory')).toContainText('not read yet');
  // before the inventories are read, the positions are the backpack's and say so
  await expect(page.getByTestId('screen-portfolio')).toContainText('backpack only: read the Steam inventories to add them');
  await expect(page.getByTestId('position-row').first()).toBeVisible();

  await page.getByRole('button', { name: 'Read Steam inventories' }).click();
  await expect(page.getByTestId('portfolio-inventory')).toContainText(/CS2 \$[\d,.]+ · Rust \$[\d,.]+ · Dota 2 \$[\d,.]+ · TF2 \$[\d,.]+/, { timeout: 20_000 });
  await expect(page.getByTestId('portfolio-chart')).toBeVisible();
  await expect(page.getByTestId('screen-portfolio')).toContainText('backpack and Steam inventories · at Steam-derived market prices');
  // the largest position first, its share of what is held beside it
  const values = await page.getByTestId('position-row').evaluateAll((rows) =>
    rows.map((r) => Number((r.children[5]?.textContent ?? '').replace(/[$,]/g, ''))),
  );
  expect(values.length).toBeGreaterThan(1);
  expect(values).toEqual([...values].sort((a, b) => b - a));
  await expect(page.getByTestId('position-row').first()).toContainText(/\d+\.\d%/);
  await page.getByText('Portfolio', { exact: true }).first().hover(); // the button's tooltip off the picture
  await saveScreenshot(page, 'portfolio');

  // trading results from the whole order history, read on demand
  await expect(page.getByTestId('trading-results-note')).toHaveText('not read yet');
  await page.getByTestId('read-order-history').click();
  const orders = host.demo!.state.orders();
  const paid = orders.filter((o) => o.side === 'bought').reduce((sum, o) => sum + o.price * o.amount, 0);
  await expect(page.getByTestId('pnl-paid')).toContainText(formatCents(paid));
  await expect(page.getByTestId('trading-results-note')).toContainText(`${orders.length} order rows · read`);
  await expect(page.getByTestId('pnl-row').first()).toBeVisible();
  await page.getByTestId('trading-results').scrollIntoViewIfNeeded();
  await page.getByText('Trading results', { exact: true }).hover();
  await saveScreenshot(page, 'portfolio-trading');

  // one click from a position to the item on the market: the book opens filtered to it
  const first = page.getByTestId('position-row').first();
  const name = (await first.locator('td').nth(1).locator('p').first().textContent())!;
  await first.getByTestId('show-in-book').click();
  // quoted: the whole name, so its StatTrak™ and Souvenir versions are not among the rows
  await expect(page.getByTestId('name-search')).toHaveValue(`"${name}"`);
  await expect(page.getByTestId('filter-chips')).toContainText(name.slice(0, 10));
  expect(problems).toEqual([]);
});

test('trade feeds: the webhook receiver starts and is registered with the demo market', async ({ page }) => {
  const problems = watchProblems(page);
  await openScreen(page, host, 'trades', 'Alt+5');
  await page.getByTestId('trade-feeds-open').click();
  const panel = page.getByTestId('trade-feeds');
  await expect(panel.getByTestId('receiver-state')).toHaveText('off');
  await panel.getByLabel('Local port').fill(String(await freePort()));
  await panel.getByTestId('receiver-switch').check();
  await expect(panel.getByTestId('receiver-state')).toHaveText('listening');
  await expect(panel).toContainText(/Listening at http:\/\/127\.0\.0\.1:\d+\/webhook/);
  expect(host.demo!.webhookUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook$/);
  await saveScreenshot(page, 'trade-feeds');
  expect(problems).toEqual([]);
});

test('offline: the account screens open from SQLite, marked as stored copies', async ({ page }) => {
  // read once while online, so there is something stored
  await openScreen(page, host, 'orders', 'Alt+6');
  const firstOrder = await page.getByTestId('order-row').first().getAttribute('data-order-item-id');
  await openScreen(page, host, 'backpack', 'Alt+3');
  await expect(page.getByTestId('backpack-row').first()).toBeVisible();
  const backpackRows = await page.getByTestId('backpack-row').count();

  await host.demo!.close();
  await page.reload();
  await openScreen(page, host, 'orders', 'Alt+6');
  await expect(page.getByTestId('freshness-offline')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('order-row').first()).toHaveAttribute('data-order-item-id', firstOrder!);
  await openScreen(page, host, 'backpack', 'Alt+3');
  await expect(page.getByTestId('freshness-offline')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('backpack-row')).toHaveCount(backpackRows);
  await openScreen(page, host, 'portfolio', 'Alt+1');
  await expect(page.getByTestId('freshness-offline')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('portfolio-balance')).toContainText('$');
  await saveScreenshot(page, 'offline');
});
