/**
 * The caches are one market's: prices, averages and cached answers of another market are forgotten when
 * a session claims them for its own, and a session of the previous market, still closing, no longer
 * writes into them.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Caches, claimCaches, openDatabase, type Db } from '../../../src/core/store/index.ts';
import { attachDesk } from '../../../src/core/store/desk.ts';
import { CACHED_PRICE, tempDir } from './helpers.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function bookFile(): string {
  const t = tempDir('skindesk-cache-market-');
  cleanups.push(t.remove);
  return join(t.dir, 'skindesk.db');
}

function open(file: string): Db {
  const db = openDatabase(file);
  attachDesk(db, file);
  cleanups.push(() => db.open && db.close());
  return db;
}

const AVERAGE = {
  app_id: 730 as const,
  market_hash_name: CACHED_PRICE.market_hash_name,
  average_price: 1100,
  sales: 9,
  volume: 12,
};

async function fill(db: Db): Promise<void> {
  const caches = new Caches(db);
  await caches.replacePrices([CACHED_PRICE]);
  await caches.replaceAverages([AVERAGE]);
  caches.put('user', { id: 1, balance: 500 });
}

const held = (db: Db) => {
  const caches = new Caches(db);
  return {
    prices: caches.prices().length,
    averages: caches.averages().length,
    user: caches.get('user') !== null,
  };
};

describe('the caches of one market', () => {
  it("are kept for the same market (the address spelled any way), and forgotten for another's", async () => {
    const file = bookFile();
    const first = open(file);
    claimCaches(first, 'https://a.example/api', null);
    await fill(first);
    first.close();

    const again = open(file);
    claimCaches(again, 'https://A.example:443/api/', null);
    expect(held(again)).toEqual({ prices: 1, averages: 1, user: true });
    again.close();

    const other = open(file);
    claimCaches(other, 'https://b.example/api', null);
    expect(held(other)).toEqual({ prices: 0, averages: 0, user: false });
  });

  it("of a desk from before they were claimed are the book's market's", async () => {
    const file = bookFile();
    const old = open(file);
    await fill(old);
    old.close();

    const same = open(file);
    claimCaches(same, 'https://a.example/api', 'https://a.example/api');
    expect(held(same)).toEqual({ prices: 1, averages: 1, user: true });
    same.close();

    const unknown = bookFile();
    const before = open(unknown);
    await fill(before);
    before.close();
    const reopened = open(unknown);
    // no market recorded anywhere: nothing says whose they are
    claimCaches(reopened, 'https://a.example/api', null);
    expect(held(reopened)).toEqual({ prices: 0, averages: 0, user: false });
  });

  it("are no longer written by the previous market's session once another market claimed them", async () => {
    const file = bookFile();
    const previous = open(file);
    claimCaches(previous, 'https://a.example/api', null);
    // the next market's session opens before the previous one has closed (app-core.ts #replaceSession)
    const next = open(file);
    claimCaches(next, 'https://b.example/api', null);
    // answers the previous session was waiting for arrive now
    await fill(previous);
    expect(held(next)).toEqual({ prices: 0, averages: 0, user: false });

    await fill(next);
    expect(held(next)).toEqual({ prices: 1, averages: 1, user: true });
  });
});
