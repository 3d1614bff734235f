// The sales tape in the real renderer over the real core (browser test host, demo market): it shows
// exactly the sales `skindesk sales` prints from the same mirror file, newest first — for the whole
// market, a game and a name —, a new sale comes in on top (or waits, counted, while the trader reads),
// and Enter shows the sale's item in the book; "export this view" writes the book's and the tape's rows
// exactly as the CLI prints them. Screenshots for the README.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readSalesTape } from '../../src/core/query/sales-tape.ts';
import { formatFloat } from '../../src/renderer/format/numbers.ts';
import { expect, type Page, test } from '@playwright/test';
import {
  type MarketHost,
  cliSales,
  cliSearch,
  cliText,
  createDetailedListings,
  demo,
  openApp,
  saveScreenshot,
  startMarketHost,
  watchProblems,
} from './market-fixtures.ts';

let m: MarketHost;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  m = await startMarketHost({ demo: { listings: 2000, rate: 60, seed: 29 } });
});

test.afterAll(async () => {
  await m?.close();
});

/** Listing ids of the tape's rows, top to bottom. */
const tapeIds = (page: Page) =>
  page
    .getByTestId('sale-row')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-listing-id'))));

/** What the CLI prints, newest first, as the tape's first page (200 rows) would show it. */
const newestFirst = (args: string[]) =>
  cliSales(m.dbFile, args)
    .reverse()
    .slice(0, 200)
    .map((s) => s.listing_id);

/** Waits until the mirror stops moving (the market paused, its last events applied). */
async function settled(): Promise<void> {
  demo(m.host).pauseActivity();
  demo(m.host).flushFeed();
  let last = '';
  await expect
    .poll(
      async () => {
        await new Promise((r) => setTimeout(r, 400));
        const seq = m.host.core.status().lastSeq ?? '';
        const same = seq === last;
        last = seq;
        return same;
      },
      { timeout: 15_000, message: 'the mirror kept moving' },
    )
    .toBe(true);
}

const soldInMirror = (id: number) =>
  m.host.core.session.db.prepare('SELECT 1 FROM sold_history WHERE listing_id = ?').get(id) !== undefined;

test('the sales tape: what skindesk sales prints, newest first and live; by game and name; Enter shows the item in the book', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const problems = watchProblems(page);
  // the simulated market sells for a while; then items of our own making, with their details, are bought
  // a few spare: the simulated crowd may buy one of them first
  const [first, second, third, fourth] = await createDetailedListings(m.host, 8);
  demo(m.host).buyListing(first!);
  demo(m.host).buyListing(second!);
  await expect.poll(() => soldInMirror(first!) && soldInMirror(second!), { timeout: 15_000 }).toBe(true);
  const recorded = () =>
    m.host.core.session.db.prepare('SELECT count(*) FROM sold_history').pluck().get() as number;
  await expect
    .poll(recorded, { timeout: 40_000, message: 'the simulated market sold too little' })
    .toBeGreaterThan(30);
  await settled();

  await openApp(page, m.host);
  await page.keyboard.press('Alt+s');
  await expect(page.getByTestId('screen-sales')).toBeVisible();
  await expect
    .poll(async () => (await tapeIds(page)).join(), { timeout: 15_000 })
    .toBe(newestFirst([]).join());
  expect((await tapeIds(page)).length).toBeGreaterThan(30);

  // a sale of an item the mirror had the details of carries its float and seed
  const sold = cliSales(m.dbFile, []).find((s) => s.listing_id === first)!;
  expect(sold.paint_wear).not.toBeNull();
  const row = page.locator(`[data-testid="sale-row"][data-listing-id="${first}"]`);
  await expect(row).toContainText(formatFloat(sold.paint_wear));
  await expect(row).toContainText(String(sold.paint_seed));

  // live: a new sale comes in on top while the tape follows the feed
  await page.mouse.move(2, 2);
  demo(m.host).buyListing(third!);
  await expect.poll(async () => (await tapeIds(page))[0], { timeout: 15_000 }).toBe(third);
  // ... and waits, counted, while the pointer is over the list: nothing moves under a reader
  await page.getByTestId('sales-body').hover();
  demo(m.host).buyListing(fourth!);
  await expect(page.getByTestId('sales-waiting')).toHaveText('1 new sale', { timeout: 15_000 });
  expect((await tapeIds(page))[0]).toBe(third);
  // the button's own effect: a pointer moving to it leaves the list, which shows the new sales by itself
  // and takes the button away, a race a loaded machine's click loses
  await page.getByTestId('sales-waiting').dispatchEvent('click');
  await expect.poll(async () => (await tapeIds(page))[0]).toBe(fourth);
  await page.mouse.move(2, 2);
  await expect.poll(async () => (await tapeIds(page)).join()).toBe(newestFirst([]).join());

  // one game
  const games = page.getByTestId('screen-sales').getByRole('radiogroup', { name: 'Game filter' });
  await games.getByText('Dota 2', { exact: true }).click();
  await expect.poll(async () => (await tapeIds(page)).join()).toBe(newestFirst(['--app-id', '570']).join());
  await games.getByText('All', { exact: true }).click();

  // a name: the sold item's own, typed in lower case (as the book's search, case does not matter)
  await page.keyboard.press('/');
  await page.keyboard.type(sold.market_hash_name.toLowerCase());
  const byName = newestFirst(['--name', sold.market_hash_name]);
  expect(byName).toContain(first);
  await expect.poll(async () => (await tapeIds(page)).join()).toBe(byName.join());
  await expect(page.getByTestId('sales-summary')).toContainText(/median \$/); // one item: its price spread
  // the whole line is in its tooltip, for a window that cuts it short
  expect(await page.getByTestId('sales-summary').evaluate((el) => (el as HTMLElement).title !== '' && (el as HTMLElement).title === el.textContent)).toBe(true);

  // Enter on a sale: its item in the book
  await page.locator(`[data-testid="sale-row"][data-listing-id="${first}"]`).click();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Search item names')).toHaveValue(`"${sold.market_hash_name}"`);

  // the README's picture: the whole market's tape, live again
  demo(m.host).resumeActivity();
  await page.keyboard.press('Alt+s');
  await expect(page.getByTestId('sales-search')).toHaveValue(sold.market_hash_name.toLowerCase()); // kept while away
  await page.getByTestId('sales-search').fill('');
  await page.getByTestId('sales-search').press('Escape');
  await expect.poll(async () => (await tapeIds(page)).length).toBeGreaterThan(40);
  demo(m.host).pauseActivity();
  await page.waitForTimeout(2500); // the last sales are in and their flash has faded
  await saveScreenshot(page, 'sales');
  expect(problems).toEqual([]);
});

/** The files the test host's save dialog wrote (it answers every dialog with a fresh path there). */
const exported = (prefix: string, ext: string) => {
  const dir = join(m.dataDir, 'exports');
  const name = readdirSync(dir).find((f) => f.startsWith(prefix) && f.endsWith(ext));
  if (!name) throw new Error(`no ${prefix}*${ext} in ${dir}`);
  return readFileSync(join(dir, name), 'utf8');
};
const lines = (text: string) => text.trimEnd().split('\n');

test('export this view: the book as filtered and the sales tape land in files holding exactly what the CLI prints', async ({
  page,
}) => {
  const problems = watchProblems(page);
  await settled();
  await openApp(page, m.host);
  await page.getByLabel('Search item names').fill('sticker');
  const expectedBook = cliSearch(m.dbFile, ['--name', 'sticker', '--limit', '100000']);
  expect(expectedBook.length).toBeGreaterThan(10);
  await expect(page.getByTestId('book-summary')).toHaveText(
    `${expectedBook.length.toLocaleString('en-US')} listings`,
  );
  await page.getByTestId('export-view').click();
  await page.getByTestId('export-view-jsonl').click();
  await expect(page.getByText(`${expectedBook.length.toLocaleString('en-US')} listings → `)).toBeVisible();
  expect(lines(exported('skindesk-book-', '.jsonl')).map((l) => JSON.parse(l) as unknown)).toEqual(
    expectedBook,
  );

  // from a listing's detail to its item's sales on the tape
  const first = page.locator(`[data-listing-id="${expectedBook[0]!.id}"]`);
  await first.click();
  await page.keyboard.press('Enter');
  await page.getByTestId('detail-all-sales').click();
  await expect(page.getByTestId('screen-sales')).toBeVisible();
  await expect(page.getByTestId('sales-search')).toHaveValue(`"${expectedBook[0]!.market_hash_name}"`);

  // the whole market's tape: the item's game and name cleared
  await page.getByTestId('sales-search').fill('');
  await page
    .getByTestId('screen-sales')
    .getByRole('radiogroup', { name: 'Game filter' })
    .getByText('All', { exact: true })
    .click();
  await page.getByTestId('export-view').click();
  await page.getByTestId('export-view-csv').click();
  await expect(page.getByText(/^\d[\d,]* sales → /)).toBeVisible();
  const tape = lines(exported('skindesk-sales-', '.csv'));
  const cli = lines(cliText('sales', m.dbFile, ['--format', 'csv']));
  expect(tape[0]).toBe(cli[0]); // the same header
  expect(tape.length).toBeGreaterThan(30);
  // the same rows, field for field; the tape is newest first, the CLI oldest first
  expect(tape.slice(1).sort()).toEqual(cli.slice(1).sort());

  // by float: the Field-Tested band — exactly what the tape reader finds in the same file
  await page.getByTestId('sales-float-phase').click();
  await page.getByTestId('wear-FT').click();
  await expect(page.getByTestId('sales-float-phase')).toHaveText('FT');
  const fieldTested = readSalesTape(m.host.core.session.db, {
    float: { min: 0.15, max: 0.38 },
    limit: 200,
  }).sales;
  expect(fieldTested.length).toBeGreaterThan(0);
  for (const sale of fieldTested) expect(sale.paint_wear).toBeGreaterThanOrEqual(0.15);
  await expect
    .poll(async () => (await tapeIds(page)).join())
    .toBe(fieldTested.map((s) => s.listing_id).join());
  await page.keyboard.press('Escape');
  const dropdown = page.locator('.mantine-Popover-dropdown');
  await expect(dropdown).toHaveCount(0);
  // opened with a click, closed by Escape at once: the focus is back on its button, and the screen
  // shortcuts, which an open popover holds back, work again
  await page.getByTestId('sales-float-phase').click();
  await expect(dropdown).toBeVisible();
  await expect(dropdown.locator(':focus')).toHaveCount(1); // the focus went into it
  await page.keyboard.press('Escape');
  await expect(dropdown).toHaveCount(0);
  await expect(page.getByTestId('sales-float-phase')).toBeFocused();
  await page.keyboard.press('Alt+6');
  await expect(page.getByTestId('screen-orders')).toBeVisible();
  demo(m.host).resumeActivity();
  expect(problems).toEqual([]);
});
