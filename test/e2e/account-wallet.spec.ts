// Orders and the wallet through the browser test host against the demo market: the order history
// exported as CSV through the save dialog (the test host writes into a folder) holds every order of the
// paged history; a crypto withdrawal followed to SUCCESS, and one to FAILED with the refund shown; one
// whose answer is lost after the market applied it is shown as unknown and holds the form until the
// check finds it (exactly one withdrawal made).
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ORDER_EXPORT_COLUMNS } from '../../src/shared/api/index.ts';
import { formatCents } from '../../src/shared/money.ts';
import type { WebHost } from '../../src/web-host/index.ts';
import { openScreen, saveScreenshot, startAccountHost, watchProblems } from './account-fixtures.ts';

let host: WebHost;

test.beforeAll(async () => {
  host = await startAccountHost(33);
});

test.afterAll(async () => {
  await host?.close();
});

test('the CSV export contains the orders', async ({ page }) => {
  const problems = watchProblems(page);
  await openScreen(page, host, 'orders', 'Alt+6');
  await expect(page.getByTestId('order-row').first()).toBeVisible();
  const shown = await page.getByTestId('order-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-order-item-id'))));

  await page.getByTestId('export-start').click();
  const done = page.getByTestId('export-done');
  await expect(done).toContainText(/\d+ order rows/);
  const file = host.platform.saved.at(-1)!;
  expect(file).toMatch(/skindesk-orders\.csv$/);
  await expect(done).toContainText(file);

  const lines = readFileSync(file, 'utf8').trim().split(/\r?\n/);
  expect(lines[0]).toBe(ORDER_EXPORT_COLUMNS.join(','));
  const exported = new Set(lines.slice(1).map((line) => Number(line.split(',')[0])));
  const { orders } = await host.core.call('getOrders', { page: 1, limit: 100 });
  expect(exported.size).toBe(lines.length - 1);
  expect(exported.size).toBe(orders.length);
  for (const id of shown) expect(exported.has(id)).toBe(true);
  await saveScreenshot(page, 'orders');

  // a filtered export: sold rows only
  await page.getByTestId('export-side').getByText('Sold', { exact: true }).click();
  await page.getByTestId('export-start').click();
  await expect(page.getByTestId('export-done')).toContainText('skindesk-orders-sold.csv');
  const sold = readFileSync(host.platform.saved.at(-1)!, 'utf8').trim().split(/\r?\n/).slice(1);
  expect(sold.length).toBe(orders.filter((o) => o.side === 'sold').length);
  expect(sold.every((line) => line.split(',')[2] === 'sold')).toBe(true);
  expect(problems).toEqual([]);
});

test('crypto withdrawal: followed to SUCCESS, and to FAILED with the refund', async ({ page }) => {
  const problems = watchProblems(page);
  await openScreen(page, host, 'wallet', 'Alt+8');
  await page.getByTestId('wallet-ticker').getByText('ETH', { exact: true }).click();

  // the address is checked for the ticker, the minimum explained, before anything can be sent
  await page.getByTestId('wallet-address').fill('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
  await page.getByTestId('wallet-amount').fill('5');
  await expect(page.getByTestId('send-problems')).toContainText('does not look like an Ethereum address');
  await expect(page.getByTestId('send-problems')).toContainText('minimum ETH withdrawal');
  await expect(page.getByTestId('wallet-review')).toBeDisabled();

  const address = '0x52908400098527886E0F7030069857D2E4169EE7';
  await page.getByTestId('wallet-address').fill(address);
  await page.getByTestId('wallet-amount').fill('25');
  await expect(page.getByTestId('wallet-quote')).toContainText('$0.25');
  await expect(page.getByTestId('wallet-review')).toBeEnabled();

  host.demo!.setWithdrawalOutcome('SUCCESS');
  await page.getByTestId('wallet-review').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByTestId('confirm-address')).toHaveText(address);
  await dialog.getByTestId('confirm-button').click();
  await expect(dialog.getByTestId('action-result').getByTestId('withdrawal-status')).toHaveText('SUCCESS', { timeout: 15_000 });
  await dialog.getByRole('button', { name: 'Close' }).click();

  host.demo!.setWithdrawalOutcome('FAILED');
  await page.getByTestId('wallet-amount').fill('30');
  await page.getByTestId('wallet-review').click();
  await dialog.getByTestId('confirm-button').click();
  const result = dialog.getByTestId('action-result');
  await expect(result.getByTestId('withdrawal-status')).toHaveText('FAILED', { timeout: 15_000 });
  await expect(result.getByTestId('withdrawal-refund')).toContainText(`refunded ${formatCents(3000)} to the balance`);
  await dialog.getByRole('button', { name: 'Close' }).click();

  const cards = page.getByTestId('withdrawal');
  await expect(cards.filter({ has: page.locator('[data-status="SUCCESS"]') })).toHaveCount(1);
  await expect(cards.filter({ hasText: 'refunded' })).toHaveCount(1);
  await saveScreenshot(page, 'wallet');

  // the refund is in the ledger, after the withdrawal it undoes
  await openScreen(page, host, 'transactions', 'Alt+7');
  const ledger = page.getByTestId('ledger-row');
  await expect(ledger.first()).toContainText(/crypto refund/i);
  await expect(ledger.first()).toContainText(`+${formatCents(3000)}`);
  await saveScreenshot(page, 'ledger');
  expect(problems).toEqual([]);
});

test('crypto withdrawal whose answer is lost: shown as unknown, the form held, settled by the check', async ({ page }) => {
  const problems = watchProblems(page);
  await openScreen(page, host, 'wallet', 'Alt+8');
  const account = host.demo!.state.account(1)!;
  const before = account.withdrawals.size;
  await page.getByTestId('wallet-ticker').getByText('ETH', { exact: true }).click();
  await page.getByTestId('wallet-address').fill('0x52908400098527886E0F7030069857D2E4169EE7');
  await page.getByTestId('wallet-amount').fill('12.34');
  await expect(page.getByTestId('wallet-review')).toBeEnabled();

  // the market makes the withdrawal, then the connection drops before the answer
  host.demo!.setWithdrawalOutcome('SUCCESS');
  host.demo!.chaos.set({ rest: { withdrawalLostRate: 1, hangMs: 0 } });
  await page.getByTestId('wallet-review').click();
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.getByTestId('confirm-button').click();
  await expect(dialog.getByTestId('error-note')).toContainText('got no clear answer');
  await expect(dialog.getByTestId('error-note')).toContainText('may have done it');
  await expect(dialog.getByTestId('error-note')).toContainText('No clear answer');
  host.demo!.chaos.set({ rest: { withdrawalLostRate: 0 } });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(account.withdrawals.size).toBe(before + 1);

  // held: the unknown one is shown with what to do, and the form cannot send another
  const card = page.getByTestId('withdrawal-unsettled');
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('unsettled-words')).toContainText('$12.34 in ETH to 0x5290…9EE7');
  await expect(card.getByTestId('unsettled-not-sent')).toBeVisible();
  await expect(card.getByTestId('unsettled-sent')).toBeVisible();
  await expect(page.getByTestId('wallet-review')).toBeDisabled();
  await expect(page.getByText(/^Held: an earlier withdrawal may have been sent/)).toBeVisible();
  await saveScreenshot(page, 'wallet-held');

  // the check finds it in the ledger: settled as sent, followed like the others; nothing sent twice
  await card.getByTestId('unsettled-check').click();
  await expect(card).toHaveCount(0);
  await expect(page.getByTestId('wallet-review')).toBeEnabled();
  await expect(page.getByTestId('withdrawal').filter({ hasText: '$12.34' })).toHaveCount(1);
  expect(account.withdrawals.size).toBe(before + 1);
  expect(problems).toEqual([]);
});
