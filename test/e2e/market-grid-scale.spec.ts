// The grid at a million rows and beyond, in real Chromium: the built renderer with a stand-in for
// window.skindesk that answers book windows computed from their position (row i has id i + 1), so the
// test is about the grid alone — its spacer stays under the browser's element-height cap, End reaches
// the very last row, a jump to the middle shows the rows there, and only windows of rows are ever asked
// for (never the book). 2,000,000 rows exercise the compressed scrolling.
import { readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const RENDERER = resolve(import.meta.dirname, '../../out/renderer');
const ORIGIN = 'http://skindesk.test';
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** Runs in the page before the app: a window.skindesk whose book has `total` rows. */
function fakeBridge({ total }: { total: number }) {
  const calls: { name: string; offset?: number; limit?: number }[] = [];
  const now = '2026-01-01T00:00:00.000Z';
  const status = {
    market: { mode: 'demo', baseUrl: 'http://127.0.0.1:1', demoReason: 'no_api_key' },
    state: 'live',
    since: now,
    lastSeq: '1',
    bookAsOf: now,
    rows: total,
    eventsPerSecond: 0,
    problem: null,
  };
  const row = (i: number) => ({
    id: i + 1,
    app_id: 730,
    market_hash_name: `Row ${i + 1} | Test Skin (Field-Tested)`,
    price: 100 + (i % 5000),
    amount: 1,
    commodity: false,
    created_at: now,
    paint_wear: ((i * 7919) % 1000) / 1000,
    paint_seed: i % 1000,
    paint_index: 44,
    fade: null,
    blue: null,
    stattrak: false,
    souvenir: false,
    stickers: [],
    keychains: [],
  });
  const answers: Record<string, (input: Record<string, unknown>) => unknown> = {
    getStatus: () => status,
    getBackfillProgress: () => ({ state: 'done', detailed: total, total, problem: null }),
    getRateLimits: () => ({ endpoints: [], rateLimited: 0, queued: 0 }),
    getBalance: () => ({ balance: 100_000, userName: 'test', asOf: now, problem: null }),
    getMarketScreenState: () => ({ lastView: null, presets: [] }),
    setLastBookView: () => ({ saved: true }),
    queryBookWindow: (input) => {
      const offset = input['offset'] as number;
      const limit = input['limit'] as number;
      const rows = [];
      for (let i = offset; i < Math.min(total, offset + limit); i++) rows.push(row(i));
      return { rows, offset, total, version: 1, totalVersion: 1, lastSeq: '1' };
    },
  };
  const api = new Proxy(
    {},
    {
      get(_target, name: string) {
        if (name.startsWith('on')) return () => () => undefined;
        return async (input: Record<string, unknown> = {}) => {
          calls.push({ name, offset: input['offset'] as number | undefined, limit: input['limit'] as number | undefined });
          const answer = answers[name];
          return answer
            ? { ok: true, value: answer(input) }
            : { ok: false, error: { code: 'UNAVAILABLE', message: `${name} is not part of this test`, apiCode: null, issues: [], outcomeUnknown: false } };
        };
      },
    },
  );
  Object.defineProperty(window, 'skindesk', { value: api });
  Object.defineProperty(window, '__calls', { value: calls });
}

async function openWithRows(page: Page, total: number): Promise<void> {
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const file = join(RENDERER, path === '/' ? 'index.html' : path);
    if (!file.startsWith(RENDERER)) return route.fulfill({ status: 404 });
    try {
      return route.fulfill({ body: readFileSync(file), contentType: TYPES[extname(file)] ?? 'application/octet-stream' });
    } catch {
      return route.fulfill({ status: 404 });
    }
  });
  await page.addInitScript(fakeBridge, { total });
  await page.goto(`${ORIGIN}/`);
  await expect(page.getByTestId('book-summary')).toHaveText(`${total.toLocaleString('en-US')} listings`);
  await expect(page.locator('[data-listing-id="1"]')).toBeVisible();
}

async function gridMetrics(page: Page) {
  return page.getByTestId('book-grid-body').evaluate((el) => ({ scrollHeight: el.scrollHeight, scrollTop: el.scrollTop, clientHeight: el.clientHeight }));
}

async function maxWindowAsked(page: Page): Promise<number> {
  return page.evaluate(() =>
    Math.max(0, ...(window as unknown as { __calls: { name: string; limit?: number }[] }).__calls.filter((c) => c.name === 'queryBookWindow').map((c) => c.limit ?? 0)),
  );
}

for (const total of [1_000_000, 2_000_000]) {
  test(`${total.toLocaleString('en-US')} rows scroll end to end and only windows of rows are fetched`, async ({ page }) => {
    await openWithRows(page, total);
    const metrics = await gridMetrics(page);
    // below Chromium's element-height cap (~33.5M px): every row stays reachable
    expect(metrics.scrollHeight).toBeLessThanOrEqual(30_000_000);

    // End: the very last row
    await page.locator(`[data-listing-id="1"]`).click();
    await page.keyboard.press('End');
    const last = page.locator(`[data-listing-id="${total}"]`);
    await expect(last).toBeVisible();
    await expect(last).toHaveAttribute('aria-selected', 'true');
    await expect(last).toHaveAttribute('aria-rowindex', String(total));
    const end = await gridMetrics(page);
    expect(end.scrollTop + end.clientHeight).toBeGreaterThanOrEqual(end.scrollHeight - 1);
    const lastBox = await last.boundingBox();
    const bodyBox = await page.getByTestId('book-grid-body').boundingBox();
    if (!lastBox || !bodyBox) throw new Error('grid not laid out');
    expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(bodyBox.y + bodyBox.height + 1);
    // rows on screen are consecutive and evenly spaced: no gap, no overlap, even when compressed
    const placed = await page.locator('[data-listing-id]').evaluateAll((els) =>
      els.map((e) => ({ id: Number(e.getAttribute('data-listing-id')), top: e.getBoundingClientRect().top })).sort((a, b) => a.id - b.id),
    );
    for (let i = 1; i < placed.length; i++) {
      expect(placed[i]!.id - placed[i - 1]!.id).toBe(1);
      expect(Math.abs(placed[i]!.top - placed[i - 1]!.top - 28)).toBeLessThan(0.6);
    }

    // the scrollbar dragged to the middle shows the rows in the middle
    await page.getByTestId('book-grid-body').evaluate((el) => {
      el.scrollTop = (el.scrollHeight - el.clientHeight) / 2;
    });
    const middle = Math.round(total / 2);
    await expect
      .poll(async () => {
        const ids = await page.locator('[data-listing-id]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-listing-id'))));
        return ids.some((id) => Math.abs(id - middle) < 100);
      })
      .toBe(true);

    // Home: back to the first row; and no request ever asked for more than one window
    await page.keyboard.press('Home');
    await expect(page.locator('[data-listing-id="1"]')).toBeVisible();
    expect(await maxWindowAsked(page)).toBeLessThanOrEqual(500);
  });
}

test('the selected row stands out on every row, and a row keeps its stripe as the window moves', async ({ page }) => {
  await openWithRows(page, 1_000);
  const body = page.getByTestId('book-grid-body');
  const background = (id: number) => page.locator(`[data-listing-id="${id}"]`).evaluate((el) => getComputedStyle(el).backgroundColor);
  // the keyboard moves the selection with the pointer away from the grid (nothing frozen under it)
  await page.mouse.move(0, 0);
  for (let id = 1; id <= 6; id++) {
    await page.keyboard.press('ArrowDown');
    const selected = page.locator(`[data-listing-id="${id}"]`);
    await expect(selected).toHaveAttribute('aria-selected', 'true');
    const own = await background(id);
    const unselected = new Set([await background(id + 1), await background(id + 2)]);
    // odd rows and even rows alike: the selection is not hidden under a stripe
    expect(unselected.has(own), `row ${id} selected looks like an unselected row (${own})`).toBe(false);
  }
  // a step of a scroll (past the window's overscan, so the rows drawn change): rows 20–30 stay striped
  const stripes = async () => Promise.all(Array.from({ length: 10 }, (_, i) => background(20 + i)));
  await body.evaluate((el) => el.scrollTo(0, 28 * 15));
  await expect(page.locator('[data-listing-id="5"]')).toHaveCount(0);
  const before = await stripes();
  await body.evaluate((el) => el.scrollBy(0, 28));
  await expect(page.locator('[data-listing-id="6"]')).toHaveCount(0);
  expect(await stripes()).toEqual(before);
});
