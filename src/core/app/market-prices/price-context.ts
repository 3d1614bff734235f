/**
 * Price context of one item for the detail view: the marketplace's market and recommended price and
 * lowest listing (GET /prices/all), the 30-day average (GET /sales/averages), and the cheapest listing
 * in our own mirror right now. Both marketplace sets are cached in the mirror's SQLite file (prices,
 * sale_averages) with the ETag they came with, so the detail shows them offline, and they are read
 * again only when older than the server's own cache time (60 s and 10 min): a detail view opened ten
 * times a minute costs at most one conditional request per game.
 */
import { LIMITS } from '../../../shared/api/index.ts';
import type { AppId } from '../../../shared/api/index.ts';
import type { PriceContext } from '../../../shared/ipc/calls-market.ts';
import { medianOfSorted } from '../../../shared/median.ts';
import { type DopplerPhase, paintIndexesOfPhases, phaseOfPaintIndex } from '../../../shared/phases.ts';
import { ApiError } from '../../api/errors.ts';
import { Caches, type Db } from '../../store/index.ts';
import type { MarketSession } from '../session.ts';

export interface ItemKey {
  app_id: AppId;
  market_hash_name: string;
}

interface SetStamp {
  generated_at: string;
}

const pricesKey = (app: number) => `prices-all:${app}`;
const averagesKey = (app: number) => `sales-averages:${app}`;

/** Refreshes of one set share one request (several detail views open at once). */
const refreshing = new Map<string, Promise<void>>();

async function refreshOnce(key: string, work: () => Promise<void>): Promise<void> {
  let running = refreshing.get(key);
  if (!running) {
    running = work().finally(() => refreshing.delete(key));
    refreshing.set(key, running);
  }
  return running;
}

function isFresh(caches: Caches, key: string, maxAgeMs: number, now: number): boolean {
  const entry = caches.get<SetStamp>(key);
  return entry !== null && now - entry.fetchedAt < maxAgeMs;
}

async function refreshPrices(session: MarketSession, app: AppId): Promise<void> {
  const client = session.client;
  if (!client) return;
  const caches = new Caches(session.db);
  if (isFresh(caches, pricesKey(app), LIMITS.pricesAllCacheMs, Date.now())) return;
  await refreshOnce(`${session.baseUrl}|${pricesKey(app)}`, async () => {
    const answer = await client.callDetailed('pricesAll', { query: { app_id: String(app) } }, { priority: 'interactive' });
    if (!session.db.open) return;
    // a 304 means the rows in SQLite are still the current ones: only the stamp moves
    if (!answer.fromCache) await caches.replacePrices(answer.data.prices, app);
    if (!session.db.open) return;
    caches.put(pricesKey(app), { generated_at: answer.data.generated_at } satisfies SetStamp, answer.etag);
  });
}

async function refreshAverages(session: MarketSession, app: AppId): Promise<void> {
  const client = session.client;
  if (!client) return;
  const caches = new Caches(session.db);
  if (isFresh(caches, averagesKey(app), LIMITS.averagesCacheMs, Date.now())) return;
  await refreshOnce(`${session.baseUrl}|${averagesKey(app)}`, async () => {
    const answer = await client.callDetailed('salesAverages', { query: { app_id: String(app) } }, { priority: 'interactive' });
    if (!session.db.open) return;
    if (!answer.fromCache) await caches.replaceAverages(answer.data.averages, app);
    if (!session.db.open) return;
    caches.put(averagesKey(app), { generated_at: answer.data.generated_at } satisfies SetStamp, answer.etag);
  });
}

/** The cheapest live listing of exactly this item in the mirror, and how many there are. */
function lowestInBook(db: Db, item: ItemKey): { price: number | null; id: number | null; count: number } {
  const row = db
    .prepare(
      `SELECT min(l.price) AS price, count(*) AS count FROM listings l
       WHERE l.alive = 1 AND l.app_id = ? AND l.name_id = (SELECT name_id FROM item_names WHERE name = ?)`,
    )
    .get(item.app_id, item.market_hash_name) as { price: number | null; count: number };
  if (row.price === null) return { price: null, id: null, count: 0 };
  const cheapest = db
    .prepare(
      `SELECT l.id FROM listings l WHERE l.alive = 1 AND l.app_id = ? AND l.price = ?
         AND l.name_id = (SELECT name_id FROM item_names WHERE name = ?) ORDER BY l.id LIMIT 1`,
    )
    .pluck()
    .get(item.app_id, row.price, item.market_hash_name) as number | undefined;
  return { price: row.price, id: cheapest ?? null, count: row.count };
}

const DAY_MS = 86_400_000;

/**
 * The same name in the same Doppler phase: its cheapest live listing in the mirror and the sales of that
 * phase the feed showed in 30 days (a sale's paint index is known when the mirror held its details).
 */
function phaseContext(db: Db, item: ItemKey, phase: DopplerPhase, now: number): NonNullable<PriceContext['phase']> {
  const indexes = paintIndexesOfPhases([phase]);
  const inList = indexes.map(() => '?').join(', ');
  const book = db
    .prepare(
      `SELECT l.price, l.id FROM listings l CROSS JOIN listing_attrs a ON a.id = l.id
       WHERE l.alive = 1 AND l.app_id = ? AND l.name_id = (SELECT name_id FROM item_names WHERE name = ?)
         AND a.cs_paint_index IN (${inList}) ORDER BY l.price, l.id`,
    )
    .all(item.app_id, item.market_hash_name, ...indexes) as { price: number; id: number }[];
  const sales = db
    .prepare(
      `SELECT count(*) AS sales, sum(amount) AS copies, sum(price * amount) AS paid FROM sold_history
       WHERE market_hash_name = ? AND sold_ms >= ? AND app_id = ? AND paint_index IN (${inList})`,
    )
    .get(item.market_hash_name, now - 30 * DAY_MS, item.app_id, ...indexes) as { sales: number; copies: number | null; paid: number | null };
  return {
    name: phase,
    lowest_in_book: book[0]?.price ?? null,
    lowest_in_book_id: book[0]?.id ?? null,
    listings_in_book: book.length,
    sales_30d: sales.sales,
    average_30d: sales.copies ? Math.round((sales.paid ?? 0) / sales.copies) : null,
  };
}

/** Sales looked at for the item's time to sell: the recent ones say how fast it sells now. */
const TIME_TO_SELL_SALES = 100;

/** The median time the item's last sales on the feed had been listed before they sold. */
function timeToSell(db: Db, item: ItemKey): PriceContext['time_to_sell'] {
  const waits = (
    db
      .prepare(
        `SELECT sold_ms, listed_at FROM sold_history WHERE market_hash_name = ? AND app_id = ?
         ORDER BY sold_ms DESC LIMIT ${TIME_TO_SELL_SALES}`,
      )
      .all(item.market_hash_name, item.app_id) as { sold_ms: number; listed_at: string }[]
  )
    .map((s) => Math.max(0, s.sold_ms - Date.parse(s.listed_at)))
    .sort((a, b) => a - b);
  return waits.length === 0 ? null : { sales: waits.length, median_ms: medianOfSorted(waits) };
}

const stampTime = (caches: Caches, key: string): string | null => {
  const entry = caches.get<SetStamp>(key);
  return entry ? entry.value.generated_at : null;
};

/** Stickers are CS2 items of their own in prices/all: each priced by its name (null when absent). */
function stickerPrices(db: Db, names: readonly string[]): PriceContext['stickers'] {
  const read = db.prepare<[string], number>('SELECT market_price FROM prices WHERE app_id = 730 AND market_hash_name = ?').pluck();
  return names.map((name) => ({ name, market_price: read.get(name) ?? null }));
}

export async function readPriceContext(
  session: MarketSession,
  item: ItemKey,
  refresh: boolean,
  stickers: readonly string[] = [],
  paintIndex: number | null = null,
): Promise<PriceContext> {
  let problem: string | null = null;
  if (refresh && session.client) {
    const results = await Promise.allSettled([refreshPrices(session, item.app_id), refreshAverages(session, item.app_id)]);
    const failure = results.find((r) => r.status === 'rejected');
    if (failure) {
      const reason = (failure as PromiseRejectedResult).reason;
      problem = `Prices could not be refreshed: ${reason instanceof ApiError ? reason.explanation : 'unexpected error'} Showing the cached ones.`;
    }
  } else if (!session.client) {
    problem = 'Offline: prices are from the cache.';
  }
  const db = session.db;
  const caches = new Caches(db);
  const price = db
    .prepare(
      'SELECT market_price, recommended_price, lowest_listing_price FROM prices WHERE app_id = ? AND market_hash_name = ?',
    )
    .get(item.app_id, item.market_hash_name) as
    | { market_price: number; recommended_price: number; lowest_listing_price: number | null }
    | undefined;
  const average = db
    .prepare('SELECT average_price, sales, volume FROM sale_averages WHERE app_id = ? AND market_hash_name = ?')
    .get(item.app_id, item.market_hash_name) as { average_price: number; sales: number; volume: number } | undefined;
  const book = lowestInBook(db, item);
  const phase = item.app_id === 730 ? phaseOfPaintIndex(paintIndex) : null;
  return {
    market_price: price?.market_price ?? null,
    recommended_price: price?.recommended_price ?? null,
    lowest_listing_price: price?.lowest_listing_price ?? null,
    lowest_in_book: book.price,
    lowest_in_book_id: book.id,
    listings_in_book: book.count,
    average_30d: average?.average_price ?? null,
    sales_30d: average?.sales ?? null,
    volume_30d: average?.volume ?? null,
    pricesAsOf: stampTime(caches, pricesKey(item.app_id)),
    averagesAsOf: stampTime(caches, averagesKey(item.app_id)),
    time_to_sell: timeToSell(db, item),
    stickers: stickerPrices(db, stickers),
    phase: phase === null ? null : phaseContext(db, item, phase, Date.now()),
    problem,
  };
}
