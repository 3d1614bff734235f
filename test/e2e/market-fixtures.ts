// Shared setup of the market e2e specs: the browser test host on a small demo market with a data folder
// the test knows (so `skindesk search --db` can read the same mirror), listings with details created
// through the demo's harness, and helpers for the grid and for README screenshots.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { DEMO_DATABASE_FILE_NAME, silentLog } from '../../src/core/app/index.ts';
import type { QueryRow } from '../../src/core/query/index.ts';
import type { SaleRecord } from '../../src/core/store/index.ts';
import { type WebHost, type WebHostOptions, startWebHost } from '../../src/web-host/index.ts';
import { hideToasts, saveScreenshot as saveUiScreenshot } from './screenshots.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface MarketHost {
  host: WebHost;
  dataDir: string;
  dbFile: string;
  /** Closes the host and deletes its data folder. */
  close(): Promise<void>;
}

export async function startMarketHost(options: Omit<WebHostOptions, 'dataDir' | 'log'> = {}): Promise<MarketHost> {
  const dataDir = mkdtempSync(join(tmpdir(), 'skindesk-e2e-market-'));
  const host = await startWebHost({ dataDir, log: silentLog, ...options });
  await host.core.whenLive(30_000);
  const close = async () => {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { host, dataDir, dbFile: join(dataDir, DEMO_DATABASE_FILE_NAME), close };
}

export function demo(host: WebHost) {
  const market = host.demo;
  if (!market) throw new Error('the web host is not on the demo market');
  return market;
}

/**
 * Creates CS2 listings (they arrive on the feed with float, seed and stickers) and waits until the mirror
 * agrees with the market on each: alive with its details while the market lists it, gone once the
 * simulated crowd bought or delisted it meanwhile (it picks any public listing). Returns the ones still
 * listed.
 */
export async function createDetailedListings(host: WebHost, count: number): Promise<number[]> {
  const market = demo(host);
  const ids = Array.from({ length: count }, () => market.createListing({ appId: 730 }).listing.id);
  const listed = () => ids.filter((id) => market.state.listing(id)?.status === 'ACTIVE');
  const mirrored = (id: number) => host.core.session.db.prepare('SELECT 1 FROM listing_attrs WHERE id = ? AND alive = 1').get(id) !== undefined;
  await expect
    .poll(
      () => {
        const stillListed = new Set(listed());
        return ids.every((id) => mirrored(id) === stillListed.has(id));
      },
      { timeout: 15_000, message: 'created listings never reached the mirror with their details' },
    )
    .toBe(true);
  return listed();
}

/** What `skindesk <command> --db FILE ...` prints, run on the app's own mirror file. */
export function cliText(command: string, dbFile: string, args: string[]): string {
  return execFileSync(process.execPath, [join(ROOT, 'bin/skindesk.mjs'), command, '--db', dbFile, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
  });
}

/** The JSON lines of `skindesk <command> --db FILE ...`, parsed. */
function cliLines<T>(command: string, dbFile: string, args: string[]): T[] {
  return cliText(command, dbFile, args)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** `skindesk search --db FILE ...`: the query engine from the command line. */
export const cliSearch = (dbFile: string, args: string[]): QueryRow[] => cliLines<QueryRow>('search', dbFile, args);

/** `skindesk sales --db FILE ...`: the mirror's sold history from the command line, oldest first. */
export const cliSales = (dbFile: string, args: string[]): SaleRecord[] => cliLines<SaleRecord>('sales', dbFile, args);

/** Page errors and console errors, except images that cannot load offline (their fallback is shown). */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    if (/Failed to load resource: net::ERR_(NAME_NOT_RESOLVED|INTERNET_DISCONNECTED|CONNECTION_REFUSED|ADDRESS_UNREACHABLE|TIMED_OUT)/.test(msg.text())) return;
    problems.push(`console: ${msg.text()}`);
  });
  return problems;
}

/** Ids of the listing rows on screen, top to bottom. */
export async function visibleIds(page: Page): Promise<number[]> {
  const rows = await page
    .locator('[data-testid="book-grid-body"] [data-listing-id]')
    .evaluateAll((els) =>
      els
        .map((el) => ({ id: Number(el.getAttribute('data-listing-id')), top: el.getBoundingClientRect().top }))
        .sort((a, b) => a.top - b.top),
    );
  const body = await page.getByTestId('book-grid-body').boundingBox();
  if (!body) return [];
  return rows.filter((r) => r.top >= body.y - 1 && r.top < body.y + body.height - 10).map((r) => r.id);
}

/** A README screenshot of the real UI (docs/screenshots/<name>.png). */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await page.mouse.move(2, 2); // no hover highlight or tooltip in the picture
  await hideToasts(page);
  await saveUiScreenshot(page, name);
}

export async function openApp(page: Page, host: WebHost): Promise<void> {
  await page.goto(host.url);
  await expect(page.getByTestId('market-badge')).toBeVisible();
  await expect(page.getByTestId('book-summary')).toHaveText(/\d listings?$/);
}
