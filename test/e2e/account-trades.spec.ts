// The Trades screen through the browser test host against the demo market: a sale offer followed live
// (no reload) through the statuses the market moves it to, in flight while it can still change and out
// of it once declined, its value the market's own to the cent, and the columns where they were whatever
// status a row shows (a long one, "Needs confirmation", arriving or leaving moves nothing sideways).
import { type Page, expect, test } from '@playwright/test';
import { formatCents } from '../../src/shared/money.ts';
import type { WebHost } from '../../src/web-host/index.ts';
import { openScreen, startAccountHost, watchProblems } from './account-fixtures.ts';

let host: WebHost;

test.beforeAll(async () => {
  host = await startAccountHost(43);
});

test.afterAll(async () => {
  await host?.close();
});

/** The Trades screen open with its rows shown; reads where the table's top is (it must not move). */
async function openTradesTable(page: Page): Promise<() => Promise<number>> {
  await openScreen(page, host, 'trades', 'Alt+5');
  await expect(page.getByTestId('trade-row').first()).toBeVisible();
  const table = page.getByTestId('trades-table');
  return async () => (await table.boundingBox())!.y;
}

test('a trade’s status changes live, and the columns stay put', async ({ page }) => {
  const problems = watchProblems(page);
  const demo = host.demo!;
  demo.holdTrades(true);
  await openScreen(page, host, 'trades', 'Alt+5');
  await expect(page.getByTestId('trade-row').first()).toBeVisible();
  const itemsHeader = page.getByTestId('trades-table').getByRole('columnheader', { name: 'Items' });
  const itemsAt = async () => (await itemsHeader.boundingBox())!.x;
  const before = await itemsAt();

  const inventory = await host.core.call('getInventory', { appId: 730, refresh: true });
  const item = inventory.items.find((i) => i.tradable && i.inOffer === null)!;
  const { depositIds } = await host.core.call('sellItems', {
    appId: 730,
    groups: [{ items: [{ assetId: item.assetId, amount: 1 }], price: 1234 }],
  });
  const row = page.locator(`[data-testid="trade-row"][data-deposit-id="${depositIds[0]}"]`);
  await expect(row).toBeVisible();
  const tradeId = Number(await row.getAttribute('data-trade-id'));
  const truth = () => demo.state.trades().find((t) => t.id === tradeId)!;
  await expect(row).toContainText(formatCents(truth().value));

  for (const [status, inFlight] of [
    ['CreatedNeedsConfirmation', 1],
    ['InEscrow', 1],
    ['Declined', 0],
  ] as const) {
    demo.moveTrade(tradeId, status);
    await expect(row.getByTestId('trade-status')).toHaveAttribute('data-status', status);
    await expect(page.getByTestId('trades-in-flight')).toContainText(`in flight ${inFlight}/`);
    expect(await itemsAt(), `the Items column moved with ${status}`).toBe(before);
  }
  await row.click();
  const timeline = page.getByTestId('trade-timeline');
  await expect(timeline).toContainText('Needs confirmation');
  await expect(timeline).toContainText('In escrow');
  await expect(timeline).toContainText('Declined');
  await expect(page.getByTestId('trade-detail')).toContainText(truth().error ?? 'declined');
  expect(problems).toEqual([]);
});

test('while trade polls fail the screen says why in the header, and the table stays put', async ({ page }) => {
  const problems = watchProblems(page);
  const demo = host.demo!;
  const tableAt = await openTradesTable(page);
  const before = await tableAt();

  demo.chaos.set({ rest: { errorRate: 1 } });
  await host.core.call('refreshTrades', {}).catch(() => undefined);
  const failing = page.getByTestId('trades-poll-failing');
  await expect(failing).toContainText('Trades could not be polled for');
  await expect(failing).toContainText('retrying');
  expect(await tableAt(), 'the table moved when the failure line came').toBe(before);

  demo.chaos.set({ rest: { errorRate: 0 } });
  await host.core.call('refreshTrades', {});
  await expect(failing).toHaveCount(0);
  await expect(page.getByTestId('screen-trades')).toContainText(/polled \d+s ago/);
  expect(await tableAt(), 'the table moved when the failure line went').toBe(before);
  expect(problems).toEqual([]);
});

test('a failed "Poll now" is told in the header, and the table stays put', async ({ page }) => {
  const problems = watchProblems(page);
  const demo = host.demo!;
  const tableAt = await openTradesTable(page);
  const before = await tableAt();

  demo.chaos.set({ rest: { errorRate: 1 } });
  await page.getByRole('button', { name: 'Poll now' }).click();
  const failed = page.getByTestId('trades-poll-now-failed');
  await expect(failed).toContainText('The trades could not be polled: ');
  expect(await tableAt(), 'the table moved when the failure came').toBe(before);

  demo.chaos.set({ rest: { errorRate: 0 } });
  await page.getByRole('button', { name: 'Poll now' }).click();
  await expect(failed).toHaveCount(0);
  await expect(page.getByTestId('screen-trades')).toContainText(/polled \d+s ago/);
  expect(await tableAt(), 'the table moved when the failure went').toBe(before);
  expect(problems).toEqual([]);
});
