// The live book in the real renderer over the real core (browser test host, demo market): a float +
// sticker filter set in the filter panel shows exactly the rows `skindesk search` finds in the same
// mirror file; the item detail shows the float bar and the stickers; the command palette and the help
// overlay run and list the same commands; the last filter survives a reload, and a price typed and left
// at once (Alt+9 from its field) is kept. Screenshots for the README.
import { type Page, expect, test } from '@playwright/test';
import { queryBook } from '../../src/core/query/index.ts';
import { readListing } from '../../src/core/store/index.ts';
import { formatAgainst, formatFloat } from '../../src/renderer/format/numbers.ts';
import { itemKey } from '../../src/shared/item-key.ts';
import { servedMarketPrices } from '../shared/served-market-prices.ts';
import {
  type MarketHost,
  cliSearch,
  createDetailedListings,
  demo,
  openApp,
  saveScreenshot,
  startMarketHost,
  visibleIds,
  watchProblems,
} from './market-fixtures.ts';

let m: MarketHost;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  m = await startMarketHost({ demo: { listings: 3000, rate: 12, seed: 17 } });
  await createDetailedListings(m.host, 240);
  // the detail backfill must have filled the snapshot's rows: while it writes, what a float or sticker
  // filter matches grows, and the UI and the CLI would be compared at two different moments
  await expect
    .poll(async () => (await m.host.core.call('getBackfillProgress', {})).state, { timeout: 90_000 })
    .toBe('done');
});

test.afterAll(async () => {
  await m?.close();
});

/** Fails for each of the toolbar items whose content is cut off (its box narrower than what it holds). */
async function expectNotCutOff(page: Page, testIds: readonly string[]): Promise<void> {
  for (const id of testIds) {
    const clipped = await page.getByTestId(id).evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    expect(clipped, `${id} is cut off`).toBe(false);
  }
}

/** A word that several of the filtered listings' stickers share (so the filter narrows, but not to nothing). */
function commonStickerWord(): string {
  const rows = queryBook(m.host.core.session.db, {
    filter: { app_id: 730, float: { max: 0.38 }, stickers: { min_count: 1 } },
    limit: 1000,
  }).rows;
  const counts = new Map<string, number>();
  for (const row of rows) {
    const words = new Set((row.stickers ?? []).flatMap((s) => s.name.toLowerCase().match(/[a-z]{4,}/g) ?? []));
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const ranked = [...counts].filter(([w, n]) => n >= 2 && n < rows.length && w !== 'sticker').sort((a, b) => b[1] - a[1]);
  const word = ranked[0]?.[0];
  if (!word) throw new Error('no sticker word shared by several listings');
  return word;
}

test('a float + sticker filter shows exactly the rows skindesk search finds in the same mirror', async ({ page }) => {
  const problems = watchProblems(page);
  await openApp(page, m.host);
  // each row against its item's market price, once the app has read prices/all (when it connects, then
  // every 5 minutes): what the grid shows for the first rows is what their prices and the demo market's
  // own price set say
  const db = m.host.core.session.db;
  const marketPrice = await servedMarketPrices(demo(m.host));
  const againstMarketShown = async () => {
    // the rows read in one go: new listings keep arriving on top, and a row read in two steps (its id,
    // then its cell) could be two rows under a loaded machine
    const shownRows = await page
      .locator('[data-listing-id]')
      .evaluateAll((els) => els.slice(0, 8).map((el) => ({ id: Number(el.getAttribute('data-listing-id')), shown: el.querySelector('[data-col="market"]')?.textContent ?? null })));
    const seen = shownRows.map(({ id, shown }) => {
      const listing = readListing(db, id);
      return { shown, expected: listing ? formatAgainst(listing.price, marketPrice.get(itemKey(listing.app_id, listing.market_hash_name)) ?? null) : null };
    });
    return seen.length === 8 && seen.every((r) => r.expected !== null && r.shown === r.expected);
  };
  await expect.poll(againstMarketShown, { timeout: 15_000 }).toBe(true);
  await saveScreenshot(page, 'book');

  const word = commonStickerWord();
  demo(m.host).pauseActivity(); // the book holds still while the UI and the CLI are compared

  await page.getByRole('radiogroup', { name: 'Game' }).getByText('CS2', { exact: true }).click();
  await page.getByTestId('wear-FN').click();
  await page.getByTestId('wear-FT').click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('wear-MW')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel('Max float')).toHaveValue('0.38');
  await page.getByTestId('add-sticker-filter').click();
  await page.getByLabel('Sticker name 1').fill(word);
  await page.locator('[role="columnheader"][data-sort-field="price"]').click();

  const expected = cliSearch(m.dbFile, ['--app-id', '730', '--float-min', '0', '--float-max', '0.38', '--sticker', word, '--sort', 'price:asc', '--limit', '100000']);
  expect(expected.length).toBeGreaterThan(1);
  for (const row of expected) {
    expect(row.paint_wear).toBeLessThanOrEqual(0.38);
    expect(row.stickers?.some((s) => s.name.toLowerCase().includes(word))).toBe(true);
  }
  await expect(page.getByTestId('book-summary')).toHaveText(`${expected.length.toLocaleString('en-US')} listings`);
  await expect(page.getByTestId('filter-chips')).toContainText(word);
  const body = await page.getByTestId('book-grid-body').boundingBox();
  const fit = Math.min(expected.length, Math.floor((body?.height ?? 0) / 28) - 1);
  expect(fit).toBeGreaterThan(1);
  await expect.poll(async () => (await visibleIds(page)).slice(0, fit)).toEqual(expected.slice(0, fit).map((r) => r.id));
  // every row on screen shows its float and its stickers
  const first = page.locator(`[data-listing-id="${expected[0]?.id}"]`);
  await expect(first).toContainText(formatFloat(expected[0]?.paint_wear as number));
  await expect(first.locator('.sd-slots')).toHaveAttribute('data-stickers', String(expected[0]?.stickers?.length));
  await saveScreenshot(page, 'filters');
  demo(m.host).resumeActivity();
  expect(problems).toEqual([]);
});

test('the detail shows the float bar with its wear band and every sticker with its scrape', async ({ page }) => {
  const problems = watchProblems(page);
  await openApp(page, m.host);
  // the filter of the previous test was restored from the app (the last filter survives a restart)
  await expect(page.getByTestId('filter-chips')).toContainText('FN+MW+FT');
  await page.getByRole('radiogroup', { name: 'Game' }).getByText('All', { exact: true }).click();
  await page.getByRole('button', { name: 'Clear all filters' }).click();
  await page.locator('[role="columnheader"][data-sort-field="price"]').click();

  const target = queryBook(m.host.core.session.db, {
    filter: { app_id: 730, float: { min: 0.001 }, stickers: { min_count: 2 } },
    sort: { field: 'price', dir: 'desc' },
    limit: 1,
  }).rows[0];
  if (!target || target.paint_wear === null || !target.stickers) throw new Error('no listing with a float and two stickers');
  // a few sales of the same item over the last hours, for the price history: listed together, bought
  // one every 25 minutes (so each waited on the market a while, as the time to sell shows)
  const listed = Array.from({ length: 8 }, (_, k) =>
    demo(m.host).createListing({ appId: 730, name: target.market_hash_name, price: Math.max(1, target.price + ((k * 37) % 90) - 45) }),
  );
  for (const { listing } of listed) {
    demo(m.host).advanceClock(25 * 60_000);
    demo(m.host).buyListing(listing.id);
  }
  await page.getByLabel('Search item names').fill(target.market_hash_name);
  // the search applies after a short pause; a click before it lands on the old view, whose selection the
  // new view then clears
  await expect(page.getByTestId('filter-chips')).toContainText(target.market_hash_name);
  const row = page.locator(`[data-listing-id="${target.id}"]`);
  await row.click();
  const toolbar = page.getByTestId('book-toolbar');
  const search = page.getByLabel('Search item names');
  const toolbarBefore = await toolbar.boundingBox();
  const searchBefore = await search.boundingBox();
  await page.keyboard.press('Enter');

  const detail = page.getByTestId('detail-panel');
  await expect(detail.getByTestId('detail-name')).toHaveText(target.market_hash_name);
  // the toolbar stays put as the panel opens (its buttons go icon-only at the same height): neither it
  // nor the search field in it moves down, and the grid under it does not jump
  await expect(page.getByTestId('presets-button')).not.toContainText('Presets');
  expect((await toolbar.boundingBox())?.height, 'the toolbar keeps its height').toBe(toolbarBefore?.height);
  expect((await search.boundingBox())?.y, 'the search field stays put').toBe(searchBefore?.y);
  const bar = detail.getByTestId('float-bar');
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('data-float', String(target.paint_wear));
  await expect(bar).toContainText(formatFloat(target.paint_wear, 10));
  // the marker sits at the float's place on the bar
  const barBox = await bar.boundingBox();
  const markerBox = await detail.getByTestId('float-marker').boundingBox();
  if (!barBox || !markerBox) throw new Error('float bar not laid out');
  expect(Math.abs(markerBox.x + markerBox.width / 2 - (barBox.x + barBox.width * target.paint_wear))).toBeLessThan(3);

  const stickers = detail.getByTestId('detail-sticker');
  await expect(stickers).toHaveCount(target.stickers.length);
  for (const s of target.stickers) {
    const shown = detail.locator(`[data-testid="detail-sticker"][data-slot="${s.slot}"]`);
    await expect(shown).toContainText(s.name);
    await expect(shown).toContainText(`scrape ${s.wear === null || s.wear <= 0 ? 0 : Math.round(s.wear * 100)}%`);
  }
  // the stickers' worth at their market prices (each is an item of prices/all), and the SP against it
  await expect(detail.getByTestId('sticker-worth')).toHaveText(/^\$[\d,.]+ · SP −?\d+%$/);
  // images load lazily; offline (this machine) each shows its drawn fallback, in the same box
  await expect(detail.getByTestId('sticker-image')).toHaveCount(target.stickers.length);
  await expect(detail.getByTestId('price-chart')).toBeVisible();
  await expect.poll(async () => Number(await detail.getByTestId('price-chart').getAttribute('data-points'))).toBeGreaterThanOrEqual(8);
  // the licence's attribution: the TradingView link on the chart and the caption under it
  await expect(detail.locator('a[href*="tradingview.com"]')).toHaveCount(1);
  await expect(detail).toContainText('TradingView Lightweight Charts');
  await expect(detail).toContainText('Market price');
  await expect(detail).toContainText('30-day average');
  // those sales waited 25 minutes to 3 h 20 min on the market: their median is hours, not the 0 s of an
  // instant buy
  await expect(detail.getByTestId('time-to-sell')).toHaveText(/^\dh/);
  // the open panel narrows the toolbar: the search box gives way, no button is cut off
  await expectNotCutOff(page, ['presets-button', 'watch-filter', 'cart-button', 'book-summary']);
  await saveScreenshot(page, 'detail');
  // a 1024 px window has no room for the filters, a usable grid and the detail side by side: the two
  // panels take turns, so the grid keeps its columns; the toolbar's buttons go icon-only and none is cut
  // off or drawn over the detail panel; the active filter stays named and one click from cleared
  const wide = page.viewportSize();
  const filterPanel = page.getByLabel('Min price');
  await expect(filterPanel).toBeVisible();
  await page.setViewportSize({ width: 1024, height: 640 });
  await expect(filterPanel).toHaveCount(0);
  await expect(detail).toBeVisible();
  const gridBox = await page.getByTestId('book-grid').boundingBox();
  expect(gridBox?.width ?? 0, 'the grid keeps room for its columns').toBeGreaterThanOrEqual(520);
  const detailLeft = (await detail.boundingBox())?.x ?? 0;
  const toolbarItems = ['presets-button', 'watch-filter', 'filter-chips', 'export-view', 'cart-button'];
  for (const id of toolbarItems) {
    const box = await page.getByTestId(id).boundingBox();
    expect(box, `${id} is shown`).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0), `${id} stays left of the detail panel`).toBeLessThanOrEqual(detailLeft);
  }
  await expectNotCutOff(page, toolbarItems);
  await expect(page.getByRole('button', { name: 'Clear all filters' })).toBeVisible();
  await expect(page.getByTestId('filter-chips')).toContainText(target.market_hash_name);
  // a chip is shown whole or not at all (then counted): none is drawn past the room the toolbar leaves,
  // none squeezed to "“…" (only a chip at its 220 px cap ends in an ellipsis)
  const chips = await page.getByTestId('filter-chips').evaluate((el) => {
    const box = el.firstElementChild as HTMLElement;
    const right = box.getBoundingClientRect().right;
    const shown = [...box.children].filter((c) => getComputedStyle(c).visibility === 'visible');
    const cut = shown.filter((c) => {
      const label = c.querySelector('.mantine-Badge-label') ?? c;
      const squeezed = c.getBoundingClientRect().width < 219 && label.scrollWidth > label.clientWidth + 1;
      return squeezed || c.getBoundingClientRect().right > right + 0.5;
    });
    return { shown: shown.length, cut: cut.length };
  });
  expect(chips.cut).toBe(0);
  if (chips.shown === 0) await expect(page.getByTestId('filter-overflow')).toHaveText('1 filter');
  // F brings the filters back and the detail makes way; Enter opens it again and the filters go
  await page.keyboard.press('f');
  await expect(filterPanel).toBeVisible();
  await expect(detail).toHaveCount(0);
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(detail).toBeVisible();
  await expect(filterPanel).toHaveCount(0);
  // the smallest window (960 px), the filters beside the grid: the grid gives up columns it can spare
  // (blue, fade, vs market...) rather than cutting off its last one, the age
  await page.setViewportSize({ width: 960, height: 640 });
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);
  await expect(filterPanel).toBeVisible();
  const cutHeaders = await page.getByTestId('book-grid').evaluate((grid) => {
    const right = grid.getBoundingClientRect().right;
    return [...grid.querySelectorAll('[role="columnheader"]')].filter((h) => h.getBoundingClientRect().right > right + 0.5).map((h) => h.textContent);
  });
  expect(cutHeaders).toEqual([]);
  await expect(page.getByRole('columnheader', { name: 'Age' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(detail).toBeVisible();
  if (wide) await page.setViewportSize(wide);
  await expect(filterPanel).toBeVisible();
  await expect(page.getByTestId('book-summary')).toBeVisible();

  // inspect in game: the app opens the listing's steam:// preview link it read from its own mirror
  const opened = m.host.platform.opened.length;
  await detail.getByTestId('inspect').click();
  await expect.poll(() => m.host.platform.opened.length).toBe(opened + 1);
  expect(m.host.platform.opened.at(-1)).toMatch(/^steam:\/\/rungame\/730\/\d{17}\/\+csgo_econ_action_preview%20[SM]\d+A\d+D\d+$/);

  // Escape closes the detail; the selection stays
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);
  await expect(row).toHaveAttribute('aria-selected', 'true');
  expect(problems).toEqual([]);
});

test('keyboard first: the palette runs commands and ? lists every hotkey', async ({ page }) => {
  const problems = watchProblems(page);
  await openApp(page, m.host);
  // start from the whole book, whatever filter the previous test left behind
  const clearFilters = page.getByRole('button', { name: 'Clear all filters' });
  if (await clearFilters.isVisible()) await clearFilters.click();
  await page.keyboard.press('Control+k');
  const palette = page.getByPlaceholder('Go to a screen or run a command…');
  await expect(palette).toBeFocused();
  await saveScreenshot(page, 'palette');
  await palette.fill('sort by price highest');
  // Enter runs the highlighted action: wait until the filtered list shows it, as a person would
  await expect(page.locator('.mantine-Spotlight-action[data-selected="true"]')).toHaveText('Sort by price (highest first)');
  await page.keyboard.press('Enter');
  await expect(page.locator('[role="columnheader"][data-sort-field="price"]')).toHaveAttribute('aria-sort', 'descending');
  await expect(palette).toBeHidden();

  await page.keyboard.press('Shift+?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  for (const label of ['Buy the selected listing', 'Open the selected listing', 'Search item names', 'Open the command palette', 'Show keyboard shortcuts']) {
    await expect(help).toContainText(label);
  }
  await saveScreenshot(page, 'help');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  // "/" focuses the search; arrows move the selection
  await page.keyboard.press('/');
  await expect(page.getByLabel('Search item names')).toBeFocused();
  await page.keyboard.press('Escape');
  // the selection follows its listing as rows arrive above it; hold the book still to count positions
  demo(m.host).pauseActivity();
  // wait until the last events have landed and the screen shows the mirror's count
  await expect
    .poll(async () => (await page.getByTestId('book-summary').innerText()) === `${(queryBook(m.host.core.session.db, { limit: 1, count: true }).total as number).toLocaleString('en-US')} listings`)
    .toBe(true);
  await page.mouse.move(2, 2);
  await page.keyboard.press('Home');
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
  await expect(page.locator('[aria-selected="true"]')).toHaveAttribute('aria-rowindex', '6');
  await page.keyboard.press('End');
  await expect
    .poll(() =>
      page.evaluate(() => {
        const selected = document.querySelector('[aria-selected="true"]')?.getAttribute('aria-rowindex');
        return selected !== undefined && selected === document.querySelector('[data-testid="book-grid"]')?.getAttribute('aria-rowcount');
      }),
    )
    .toBe(true);
  demo(m.host).resumeActivity();
  expect(problems).toEqual([]);
});

test('a price typed and left at once with Alt+9 from its field is kept: saved, and the book shows it on Alt+0', async ({ page }) => {
  const problems = watchProblems(page);
  await openApp(page, m.host);
  const clearFilters = page.getByRole('button', { name: 'Clear all filters' });
  if (await clearFilters.isVisible()) await clearFilters.click();
  await page.getByLabel('Max price').click();
  // Alt+9 from the field (Linux: Alt types nothing), inside the panel's 250 ms pause
  await page.keyboard.type('50');
  await page.keyboard.press('Alt+9');
  await expect(page.getByTestId('book-screen')).toHaveCount(0);
  await expect.poll(async () => (await m.host.core.call('getMarketScreenState', {})).lastView?.filter).toEqual({ price: { max: 5000 } });
  await page.keyboard.press('Alt+0');
  await expect(page.getByLabel('Max price')).toHaveValue('50');
  await expect(page.getByTestId('filter-chips')).toContainText('price ≤ $50.00');
  await page.getByRole('button', { name: 'Clear all filters' }).click();
  expect(problems).toEqual([]);
});

test('Doppler phases: the phase buttons show exactly what skindesk search --phase finds, tagged in the grid and the detail', async ({ page }) => {
  const problems = watchProblems(page);
  // copies of one Doppler name, each in the phase its asset rolled (the demo spreads them like the market);
  // the crowd is held still first, or it may buy or delist one of them before the mirror shows it alive
  demo(m.host).pauseActivity();
  const name = '★ Karambit | Doppler (Factory New)';
  const created = Array.from({ length: 60 }, () => demo(m.host).createListing({ name }).listing.id);
  await expect
    .poll(() => created.every((id) => m.host.core.session.db.prepare('SELECT 1 FROM listing_attrs WHERE id = ? AND alive = 1').get(id) !== undefined), {
      timeout: 15_000,
    })
    .toBe(true);
  await openApp(page, m.host);
  const clearFilters = page.getByRole('button', { name: 'Clear all filters' });
  if (await clearFilters.isVisible()) await clearFilters.click();
  await page.getByLabel('Search item names').fill('karambit | doppler');
  await page.getByRole('button', { name: 'Pattern, fade, blue' }).click();
  await page.getByTestId('phase-p2').click();
  await page.getByTestId('phase-p4').click();
  await expect(page.getByTestId('phase-p2')).toHaveAttribute('aria-pressed', 'true');
  await page.locator('[role="columnheader"][data-sort-field="price"]').click();

  const expected = cliSearch(m.dbFile, ['--name', 'karambit | doppler', '--phase', 'p2', '--phase', 'Phase 4', '--sort', 'price:asc', '--limit', '100000']);
  expect(expected.length).toBeGreaterThan(1);
  for (const row of expected) expect([419, 421, 570, 572, 618, 853, 855, 1121, 1123]).toContain(row.paint_index);
  await expect(page.getByTestId('filter-chips')).toContainText('P2/P4');
  await expect(page.getByTestId('book-summary')).toHaveText(`${expected.length.toLocaleString('en-US')} listing${expected.length === 1 ? '' : 's'}`);
  const fit = Math.min(expected.length, 8);
  await expect.poll(async () => (await visibleIds(page)).slice(0, fit)).toEqual(expected.slice(0, fit).map((r) => r.id));
  const first = page.locator(`[data-listing-id="${expected[0]?.id}"]`);
  await expect(first.getByTestId('phase-tag')).toHaveText(expected[0]?.paint_index === 419 ? 'P2' : 'P4');
  await first.click();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('detail-phase')).toHaveText(expected[0]?.paint_index === 419 ? 'Phase 2' : 'Phase 4');
  // the cheapest of both phases is the cheapest of its own: the detail's phase row names its price
  const usd = (cents: number) => (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  await expect(page.getByTestId('phase-lowest')).toContainText(usd(expected[0]!.price));
  await expect(page.getByTestId('detail-panel')).toContainText(`Lowest ${expected[0]?.paint_index === 419 ? 'P2' : 'P4'} in book`);
  await expect(page.getByTestId('phase-sales')).toBeVisible();
  await saveScreenshot(page, 'phases');
  await page.keyboard.press('Escape');
  demo(m.host).resumeActivity();
  expect(problems).toEqual([]);
});

test('a sticker craft: ×2+ on a sticker condition shows exactly the listings with two matching stickers', async ({ page }) => {
  const problems = watchProblems(page);
  demo(m.host).pauseActivity();
  await openApp(page, m.host);
  const clearFilters = page.getByRole('button', { name: 'Clear all filters' });
  if (await clearFilters.isVisible()) await clearFilters.click();
  await page.getByRole('radiogroup', { name: 'Game' }).getByText('CS2', { exact: true }).click();
  await page.getByTestId('add-sticker-filter').click();
  await page.getByLabel('Sticker name 1').fill('sticker');
  await page.locator('input[aria-label="Sticker matches 1"]').click();
  await page.getByRole('option', { name: '×2+' }).click();
  await expect(page.getByTestId('filter-chips')).toContainText('2× sticker');

  const filter = { app_id: 730 as const, stickers: { all: [{ name: 'sticker', min_matches: 2 }] } };
  const expected = queryBook(m.host.core.session.db, { filter, count: true, limit: 1 }).total as number;
  const one = queryBook(m.host.core.session.db, { filter: { app_id: 730, stickers: { all: [{ name: 'sticker' }] } }, count: true, limit: 1 }).total as number;
  expect(expected).toBeGreaterThan(0);
  expect(expected).toBeLessThan(one);
  await expect(page.getByTestId('book-summary')).toHaveText(`${expected.toLocaleString('en-US')} listing${expected === 1 ? '' : 's'}`);
  // every row on screen carries at least two stickers
  for (const id of (await visibleIds(page)).slice(0, 10)) {
    await expect(page.locator(`[data-listing-id="${id}"] .sd-slots`)).toHaveAttribute('data-stickers', /^[2-5]$/);
  }
  await page.screenshot({ path: test.info().outputPath('sticker-craft.png') });
  demo(m.host).resumeActivity();
  expect(problems).toEqual([]);
});

test('the game tag says each game as the app does ("Dota 2"), whole, in a game column no wider for it', async ({ page }) => {
  const problems = watchProblems(page);
  demo(m.host).pauseActivity(); // the items picked below stay listed
  await openApp(page, m.host);
  const clearFilters = page.getByRole('button', { name: 'Clear all filters' });
  if (await clearFilters.isVisible()) await clearFilters.click();
  await page.getByRole('radiogroup', { name: 'Game' }).getByText('All', { exact: true }).click();
  const gameHeader = page.locator('[role="columnheader"]').first();
  await expect(gameHeader).toHaveText('Game');
  const db = m.host.core.session.db;
  const itemOf = (app: number) =>
    db.prepare('SELECT n.name FROM listings l JOIN item_names n ON n.name_id = l.name_id WHERE l.alive = 1 AND l.app_id = ? LIMIT 1').pluck().get(app) as string;
  for (const [app, tag] of [[570, 'Dota 2'], [252490, 'Rust'], [730, 'CS2'], [440, 'TF2']] as const) {
    // the whole name in quotes: that item's rows only, the book still of all games (its game column shown)
    await page.getByLabel('Search item names').fill(`"${itemOf(app)}"`);
    const cells = page.locator('[data-testid="book-grid-body"] [data-col="game"]');
    await expect.poll(async () => [...new Set(await cells.allTextContents())]).toEqual([tag]);
    // the tag's text ends inside its cell (not cut to "Dot…"), and the column keeps its 46 px
    const fits = await cells.first().evaluate((cell) => {
      const text = cell.firstElementChild?.getBoundingClientRect();
      const box = cell.getBoundingClientRect();
      const contentRight = box.right - parseFloat(getComputedStyle(cell).paddingRight);
      return { width: box.width, textEndsInside: text !== undefined && text.right <= contentRight + 0.5, scrolls: cell.scrollWidth > cell.clientWidth };
    });
    expect(fits, tag).toEqual({ width: 46, textEndsInside: true, scrolls: false });
    expect((await gameHeader.boundingBox())?.width, tag).toBe(46);
    if (app === 570) await page.screenshot({ path: test.info().outputPath('game-tag-dota.png'), clip: { x: 300, y: 70, width: 700, height: 200 } });
  }
  await page.getByLabel('Search item names').fill('');
  demo(m.host).resumeActivity();
  expect(problems).toEqual([]);
});

test('the sorted column says its direction beside the detail too: no header too narrow for its arrow', async ({ page }) => {
  const problems = watchProblems(page);
  // the row clicked must stay in the book until Enter opens it
  demo(m.host).pauseActivity();
  await openApp(page, m.host);
  const clearFilters = page.getByRole('button', { name: 'Clear all filters' });
  if (await clearFilters.isVisible()) await clearFilters.click();
  await page.getByRole('radiogroup', { name: 'Game' }).getByText('CS2', { exact: true }).click();
  // the one-game book is shown (no game column) before a row is picked: a row clicked in the all-games
  // book as it is replaced is not selected, and Enter then opens nothing
  await expect(page.locator('[data-testid="book-grid-body"] [data-col="game"]')).toHaveCount(0);
  const first = page.locator('[data-testid="book-grid-body"] [data-listing-id]').first();
  await first.click();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('detail-panel')).toBeVisible();
  /** The width of the sorted header's arrow: 0 when its cell is too narrow and the arrow was squeezed out. */
  const arrowWidth = (field: string) =>
    page.locator(`[role="columnheader"][data-sort-field="${field}"] svg`).evaluate((svg) => svg.getBoundingClientRect().width);
  for (const field of ['created_at', 'price', 'float']) {
    const header = page.locator(`[role="columnheader"][data-sort-field="${field}"]`);
    if ((await header.getAttribute('aria-sort')) === null) await header.locator('button').click();
    await expect(header).toHaveAttribute('aria-sort', /ascending|descending/);
    expect(await arrowWidth(field), `the ${field} header's arrow`).toBeGreaterThanOrEqual(10);
    const cut = await header.locator('button').evaluate((b) => b.scrollWidth > b.clientWidth + 1);
    expect(cut, `the ${field} header is cut off`).toBe(false);
  }
  // back to the book's usual order for the tests after
  await page.locator('[role="columnheader"][data-sort-field="created_at"] button').click();
  await page.keyboard.press('Escape');
  demo(m.host).resumeActivity();
  expect(problems).toEqual([]);
});
