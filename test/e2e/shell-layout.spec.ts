// The status bar in a small window (1024×640): while the whole book is read — the moment its state
// matters most — the state badge, the kill switch and the market badge stay whole; the long "writing …
// listings into the book" line, the last seq, the event rate and the book's size are what give way. The built renderer runs against a stand-in for
// window.skindesk that answers a resyncing, auto-buy-stopped app. The command palette takes the keys
// typed right after Ctrl+K, and the help overlay the Escape typed right after "?", however late the machine's frames come.
import { readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const RENDERER = resolve(import.meta.dirname, '../../out/renderer');
const ORIGIN = 'http://skindesk.test';
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

/** Runs in the page before the app: an app in `state`, reading a book of a million listings. */
function fakeBridge({ state }: { state: 'resyncing' | 'offline' }) {
  const now = new Date().toISOString();
  const status = {
    market: { mode: 'real', baseUrl: 'https://market.example', demoReason: null },
    state,
    since: now,
    lastSeq: '9007199254740993',
    bookAsOf: now,
    rows: 997_021,
    eventsPerSecond: 123.4,
    problem: null,
    bookRead:
      state === 'resyncing' ? { phase: 'merging', rows: 997_021, bytes: 104_857_600, merged: 412_160 } : null,
  };
  const answers: Record<string, (input: Record<string, unknown>) => unknown> = {
    getStatus: () => status,
    getBackfillProgress: () => ({ state: 'running', detailed: 412_160, total: 997_021, problem: null }),
    getRateLimits: () => ({ endpoints: [], rateLimited: 0, queued: 12 }),
    getBalance: () => ({ balance: 123_456_789, userName: 'test', asOf: now, problem: null }),
    getAutoBuyState: () => ({ killSwitch: true, live: true, log: [] }),
    listWatchAlerts: () => ({ alerts: [] }),
    takeStartupNotifications: () => ({ notifications: [] }),
    getMarketScreenState: () => ({ lastView: null, presets: [] }),
    setLastBookView: () => ({ saved: true }),
    queryBookWindow: (input) => ({
      rows: [],
      offset: input['offset'],
      total: 0,
      version: 1,
      totalVersion: 1,
      lastSeq: '1',
    }),
  };
  const pushes = new Map<string, (payload: unknown) => void>();
  Object.defineProperty(window, '__push', { value: (name: string, payload: unknown) => pushes.get(name)?.(payload) });
  const api = new Proxy(
    {},
    {
      get(_target, name: string) {
        // pushes: the test sends them through window.__push(name, payload)
        if (name.startsWith('on'))
          return (listener: (payload: unknown) => void) => {
            pushes.set(name, listener);
            return () => undefined;
          };
        return async (input: Record<string, unknown> = {}) => {
          const answer = answers[name];
          return answer
            ? { ok: true, value: answer(input) }
            : {
                ok: false,
                error: {
                  code: 'UNAVAILABLE',
                  message: `${name} is not part of this test`,
                  apiCode: null,
                  issues: [],
                  outcomeUnknown: false,
                },
              };
        };
      },
    },
  );
  Object.defineProperty(window, 'skindesk', { value: api });
}

async function open(page: Page, state: 'resyncing' | 'offline'): Promise<void> {
  await page.setViewportSize({ width: 1024, height: 640 });
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const file = join(RENDERER, path === '/' ? 'index.html' : path);
    if (!file.startsWith(RENDERER)) return route.fulfill({ status: 404 });
    try {
      return route.fulfill({
        body: readFileSync(file),
        contentType: TYPES[extname(file)] ?? 'application/octet-stream',
      });
    } catch {
      return route.fulfill({ status: 404 });
    }
  });
  await page.addInitScript(fakeBridge, { state });
  await page.goto(`${ORIGIN}/`);
  await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-state', state);
  await expect(page.getByTestId('kill-switch')).toHaveAttribute('data-engaged', 'true');
}

/** Each element's box within the bar and as wide as its content (nothing squeezed or cut off). */
async function clipped(page: Page, testIds: string[]): Promise<string[]> {
  return page.getByTestId('status-bar').evaluate((bar, ids) => {
    const outer = bar.getBoundingClientRect();
    const problems: string[] = [];
    for (const id of ids) {
      const el = bar.querySelector(`[data-testid="${id}"]`);
      if (!(el instanceof HTMLElement)) {
        problems.push(`${id}: missing`);
        continue;
      }
      const box = el.getBoundingClientRect();
      if (box.left < outer.left - 0.5 || box.right > outer.right + 0.5)
        problems.push(`${id}: outside the bar`);
      for (const part of [el, ...el.querySelectorAll<HTMLElement>('*')]) {
        if (part.scrollWidth > part.clientWidth + 1)
          problems.push(`${id}: "${part.textContent}" cut to ${part.clientWidth}px of ${part.scrollWidth}px`);
      }
    }
    return problems;
  }, testIds);
}

const WHOLE = ['sync-badge', 'backfill', 'rate-headroom', 'kill-switch', 'balance', 'market-badge'];

test('at 1024×640 during a book read the status bar keeps its state, kill switch and market whole', async ({
  page,
}) => {
  await open(page, 'resyncing');
  const read = page.getByTestId('book-read');
  await expect(read).toHaveText('writing 412,160 of 997,021 listings into the book');
  expect(await clipped(page, WHOLE)).toEqual([]);
  await page.screenshot({
    path: 'test-results/screenshots/status-bar-1024-resyncing.png',
    clip: { x: 0, y: 600, width: 1024, height: 40 },
  });
  // the read's line gives way, and says all of itself on hover
  await expect(read).toHaveAttribute('title', 'writing 412,160 of 997,021 listings into the book');
});

test('at 1024×640 offline, the "book as of" badge and the rest of the bar are whole', async ({ page }) => {
  await open(page, 'offline');
  await expect(page.getByTestId('sync-badge')).toContainText('book as of');
  expect(await clipped(page, WHOLE)).toEqual([]);
  await page.screenshot({
    path: 'test-results/screenshots/status-bar-1024-offline.png',
    clip: { x: 0, y: 600, width: 1024, height: 40 },
  });
});

test('the status bar does not shift when the detail backfill goes from 99 % to 100 %', async ({ page }) => {
  await open(page, 'offline');
  // a window wide enough that nothing before it has to give way
  await page.setViewportSize({ width: 1920, height: 1080 });
  const headroom = page.getByTestId('rate-headroom');
  const push = (detailed: number) =>
    page.evaluate(
      (d) =>
        (window as unknown as { __push(name: string, payload: unknown): void }).__push('onBackfillProgress', {
          state: 'running',
          detailed: d,
          total: 1000,
          problem: null,
        }),
      detailed,
    );
  await push(995);
  await expect(page.getByTestId('backfill')).toHaveText('detail 99%');
  const before = (await headroom.boundingBox())!.x;
  await push(1000);
  await expect(page.getByTestId('backfill')).toHaveText('detail 100%');
  expect((await headroom.boundingBox())!.x).toBe(before);
  await push(5);
  await expect(page.getByTestId('backfill')).toHaveText('detail 0%');
  expect((await headroom.boundingBox())!.x).toBe(before);
});

test('the command palette takes the keys typed right after Ctrl+K, on a loaded machine too', async ({ page }) => {
  await open(page, 'offline');
  // a loaded machine: frames come late (here each 300 ms after it was asked for) while the keys typed
  // meanwhile are handled at once; the palette's opening must not wait for a frame to take them, nor
  // leave them to the screen behind it
  await page.evaluate(() => {
    window.requestAnimationFrame = (callback) => window.setTimeout(() => callback(performance.now()), 300);
    window.cancelAnimationFrame = (id) => window.clearTimeout(id);
  });
  await page.keyboard.press('Control+k');
  await page.keyboard.type('go to sales');
  const search = page.getByPlaceholder('Go to a screen or run a command…');
  await expect(search).toBeFocused();
  await expect(search).toHaveValue('go to sales');
  await expect(page.locator('.mantine-Spotlight-action[data-selected="true"]')).toContainText('Go to Sales');
  await page.keyboard.press('Enter');
  await expect(search).toBeHidden();
  await expect(page.getByTestId('screen-sales')).toBeVisible();
});

test('the help overlay is there, focused, at once after "?", on a loaded machine too, and Escape closes it', async ({ page }) => {
  await open(page, 'offline');
  // frames come late, as in the palette's test above: the overlay's opening must not wait for a frame
  // (its animation, then the focus trap's timer) to be on screen and hold the focus, or the Escape typed
  // right after "?" goes to the screen behind it
  await page.evaluate(() => {
    window.requestAnimationFrame = (callback) => window.setTimeout(() => callback(performance.now()), 300);
    window.cancelAnimationFrame = (id) => window.clearTimeout(id);
  });
  await page.keyboard.press('Shift+?');
  // read at once, not waited for: no frame has come yet
  const atOnce = await page.evaluate(() => {
    const dialog = document.querySelector('[role="dialog"]');
    return { shown: dialog?.textContent?.includes('Keyboard shortcuts') ?? false, focused: dialog?.contains(document.activeElement) ?? false };
  });
  expect(atOnce).toEqual({ shown: true, focused: true });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
});
