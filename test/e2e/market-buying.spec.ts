// Buying in the real renderer over the real core (browser test host, demo market): a purchase from the
// grid succeeds, the row leaves the book and the balance drops by the price; a price raised while the
// dialog is open is never promised by its button, and the refusal says so in plain words; a cart of two
// listings is bought in one order; a private listing is bought from its pasted share link.
import { expect, test, type Page } from '@playwright/test';
import { formatCents } from '../../src/shared/money.ts';
import { type MarketHost, demo, openApp, saveScreenshot, startMarketHost, watchProblems } from './market-fixtures.ts';

let m: MarketHost;

test.beforeAll(async () => {
  // no background trading: every change on screen is one this test made
  m = await startMarketHost({ demo: { listings: 3000, rate: 0, seed: 23 } });
});

test.afterAll(async () => {
  await m?.close();
});

async function balance(page: Page): Promise<number> {
  const text = (await page.getByTestId('balance').innerText()).replace(/[$,]/g, '');
  return Math.round(Number(text) * 100);
}

/**
 * A new CS2 listing of a single item (not a commodity stack, so buying it empties it) at a known price;
 * newest first, so it is the top row once the feed brings it.
 */
async function newListing(page: Page, price: number): Promise<number> {
  let created = demo(m.host).createListing({ appId: 730, price });
  for (let tries = 0; created.listing.commodity && tries < 50; tries++) {
    demo(m.host).delistListing(created.listing.id);
    created = demo(m.host).createListing({ appId: 730, price });
  }
  if (created.listing.commodity) throw new Error('the demo catalog gave only commodities');
  await expect(page.locator(`[data-listing-id="${created.listing.id}"]`)).toBeVisible();
  return created.listing.id;
}

/** The app open, a new listing at `price` in the book, and its Buy dialog opened with B. */
async function buyDialogOfANewListing(page: Page, price: number) {
  await openApp(page, m.host);
  const id = await newListing(page, price);
  const before = await balance(page);
  await page.locator(`[data-listing-id="${id}"]`).click();
  await page.keyboard.press('b');
  return { id, before, dialog: page.getByRole('dialog', { name: 'Buy' }) };
}

test('a purchase from the grid succeeds: the row leaves the book and the balance drops by the price', async ({ page }) => {
  const problems = watchProblems(page);
  await openApp(page, m.host);
  await expect(page.getByTestId('balance')).toHaveText(/\$\d/);
  const id = await newListing(page, 1_234);
  const before = await balance(page);

  const row = page.locator(`[data-listing-id="${id}"]`);
  await row.click();
  await page.keyboard.press('b');
  const dialog = page.getByRole('dialog', { name: 'Buy' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('buy-total')).toHaveText('$12.34');
  await expect(dialog.getByLabel('Max price')).toHaveValue('$12.34');
  await expect(dialog.getByTestId('balance-after')).toHaveText(formatCents(before - 1_234));
  await saveScreenshot(page, 'buy-dialog');

  await page.keyboard.press('Enter');
  const outcome = dialog.getByTestId('purchase-outcome');
  await expect(outcome).toHaveAttribute('data-status', 'bought');
  await expect(outcome).toContainText('Bought');
  await expect(page.getByTestId('balance')).toHaveText(formatCents(before - 1_234));
  await expect(dialog.getByTestId('balance-before')).toHaveText(formatCents(before));
  await expect(dialog.getByTestId('balance-now')).toHaveText(formatCents(before - 1_234));
  await expect(dialog.getByTestId('balance-after')).toHaveCount(0);
  await page.keyboard.press('Enter'); // the focused Close button
  await expect(dialog).toHaveCount(0);
  await page.mouse.move(2, 2); // not over the grid: nothing is held in place
  await expect(row).toHaveCount(0);
  expect(demo(m.host).state.listing(id)?.status).not.toBe('ACTIVE');
  expect(problems).toEqual([]);
});

test('a maximum set below an unchanged price is refused as that, not as a seller who raised the price', async ({ page }) => {
  const problems = watchProblems(page);
  const { before, dialog } = await buyDialogOfANewListing(page, 500);
  await dialog.getByLabel('Max price').fill('4');
  await dialog.getByTestId('confirm-buy').click();
  const outcome = dialog.getByTestId('purchase-outcome');
  await expect(outcome).toHaveAttribute('data-code', 'LISTING_PRICE_CHANGED');
  await expect(outcome).toContainText('Your maximum is below the price — not bought');
  await expect(outcome).toContainText('listed at $5.00, above your maximum of $4.00');
  await expect(outcome).not.toContainText('raised');
  await expect(dialog.getByTestId('buy-price')).toHaveText('$5.00');
  expect(await balance(page)).toBe(before);
  expect(problems).toEqual([]);
});

test('a price raised while the dialog is open: the button says the maximum it sends, the refusal says so, and the new price is one click', async ({ page }) => {
  const problems = watchProblems(page);
  const { id, before, dialog } = await buyDialogOfANewListing(page, 500);
  await expect(dialog.getByTestId('buy-total')).toHaveText('$5.00');
  await expect(dialog.getByTestId('confirm-buy')).toHaveText('Buy for $5.00');
  demo(m.host).repriceListing(id, 725); // the seller raises it while the trader looks
  // the feed brought the new price to the row and to the open dialog; the maximum stays the trader's, and
  // the button promises only what it sends
  await expect(page.locator(`[data-listing-id="${id}"]`)).toHaveAttribute('data-price', '725');
  await expect(dialog.getByTestId('buy-price')).toHaveText('$7.25');
  await expect(dialog.getByTestId('price-moved')).toContainText('moved from $5.00');
  await expect(dialog.getByLabel('Max price')).toHaveValue('$5.00');
  await expect(dialog.getByTestId('confirm-buy')).toHaveText('Buy at most $5.00');

  await dialog.getByTestId('confirm-buy').click();
  const outcome = dialog.getByTestId('purchase-outcome');
  await expect(outcome).toHaveAttribute('data-status', 'not_bought');
  await expect(outcome).toHaveAttribute('data-code', 'LISTING_PRICE_CHANGED');
  // the raise was on screen: no "the seller raised it just before your order arrived"
  await expect(outcome).toContainText('Your maximum is below the price — not bought');
  await expect(outcome).toContainText('listed at $7.25, above your maximum of $5.00');
  await expect(outcome).not.toContainText('just before');
  await expect(outcome).toContainText('nothing was charged');
  expect(await balance(page)).toBe(before);
  await saveScreenshot(page, 'buy-price-changed');

  // deciding to pay the new price is one click, and the second attempt goes through
  await dialog.getByRole('button', { name: 'Use $7.25' }).click();
  await expect(dialog.getByTestId('confirm-buy')).toHaveText('Buy for $7.25');
  await dialog.getByTestId('confirm-buy').click();
  await expect(outcome).toHaveAttribute('data-status', 'bought');
  await expect(page.getByTestId('balance')).toHaveText(formatCents(before - 725));
  await dialog.getByTestId('close-buy').click();
  expect(problems).toEqual([]);
});

test('a cart of two listings is bought in one order; a private listing from its share link', async ({ page }) => {
  const problems = watchProblems(page);
  await openApp(page, m.host);
  const a = await newListing(page, 300);
  const b = await newListing(page, 450);
  const before = await balance(page);
  for (const id of [a, b]) {
    await page.locator(`[data-listing-id="${id}"]`).click();
    await page.keyboard.press('a');
  }
  await expect(page.getByTestId('cart-button')).toContainText('2');
  await page.mouse.move(2, 2);
  await page.keyboard.press('c');
  const drawer = page.getByRole('dialog', { name: /Cart/ });
  await expect(drawer.locator('[data-cart-listing-id]')).toHaveCount(2);
  await expect(drawer.getByTestId('cart-total')).toHaveText('$7.50');
  await saveScreenshot(page, 'cart');
  await drawer.getByTestId('buy-cart').click();
  await expect(drawer.getByTestId('purchase-outcome')).toHaveAttribute('data-status', 'bought');
  await expect(drawer.getByTestId('purchase-outcome')).toContainText('2 listings for $7.50');
  await expect(page.getByTestId('balance')).toHaveText(formatCents(before - 750));
  await expect(drawer.locator('[data-cart-listing-id]')).toHaveCount(0);
  for (const id of [a, b]) expect(demo(m.host).state.listing(id)?.status).not.toBe('ACTIVE');

  // a private listing: not in the book; bought with the token of its share link
  const hidden = demo(m.host).createListing({ appId: 730, price: 640, private: true });
  await drawer.getByLabel('Share link or token').fill(`https://market.example/listings/${hidden.listing.id}?private_token=${hidden.privateToken}`);
  await drawer.getByLabel('Private max price').fill('6.40');
  await drawer.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(drawer.locator(`[data-cart-listing-id="${hidden.listing.id}"]`)).toBeVisible();
  await drawer.getByTestId('buy-cart').click();
  await expect(drawer.getByTestId('purchase-outcome')).toHaveAttribute('data-status', 'bought');
  await expect(page.getByTestId('balance')).toHaveText(formatCents(before - 750 - 640));
  // one copy left the seller's listing (a stack keeps the rest)
  const after = demo(m.host).state.listing(hidden.listing.id);
  expect(after === null || after.status !== 'PRIVATE' || after.listing.amount === hidden.listing.amount - 1).toBe(true);
  expect(problems).toEqual([]);
});
