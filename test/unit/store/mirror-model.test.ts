/**
 * The store against a model of the market: random listing histories, delivered reordered and
 * duplicated, with snapshots merged (stepped, events applied between the steps as during a resync) at
 * random points and tombstones pruned; at the end the book must equal the market's at its last seq.
 */
import { describe, expect, it } from 'vitest';
import { BookStore, mergeSnapshot } from '../../../src/core/store/index.ts';
import type { LeanListing, ListingEvent } from '../../../src/shared/api/index.ts';
import {
  amountChangedEvent,
  createRng,
  createdEvent,
  makeFullListing,
  priceChangedEvent,
  removedEvent,
  soldEvent,
  type Rng,
} from '../../bench/generate.ts';
import { book, openTestStore } from './helpers.ts';

interface Model {
  events: ListingEvent[];
  /** The book after the events up to and including index i. */
  bookAt(i: number): LeanListing[];
}

function market(rng: Rng, listings: number, steps: number): Model {
  const events: ListingEvent[] = [];
  const live = new Map<number, LeanListing>();
  let seq = 2n ** 53n - 1000n;
  let nextId = 1;
  for (let i = 0; i < steps; i++) {
    seq += 1n + BigInt(Math.floor(rng() * 3));
    const ids = [...live.keys()];
    const r = rng();
    if (nextId <= listings && (r < 0.3 || ids.length === 0)) {
      const full = { ...makeFullListing(rng, nextId++), amount: 1 + Math.floor(rng() * 4) };
      events.push(createdEvent(full, seq));
      live.set(full.id, {
        id: full.id,
        app_id: full.app_id,
        market_hash_name: full.market_hash_name,
        price: full.price,
        amount: full.amount,
        commodity: full.commodity,
        created_at: full.created_at,
      });
      continue;
    }
    if (ids.length === 0) continue;
    const l = live.get(ids[Math.floor(rng() * ids.length)] as number) as LeanListing;
    if (r < 0.6) {
      const after = 1 + Math.floor(rng() * 10_000);
      events.push(priceChangedEvent(l.id, l.app_id, l.price, after, seq));
      live.set(l.id, { ...l, price: after });
    } else if (r < 0.85) {
      const n = Math.floor(rng() * l.amount);
      events.push(amountChangedEvent(l.id, l.app_id, n, seq));
      seq += 1n;
      events.push(soldEvent(l, l.amount - n, seq));
      if (n === 0) live.delete(l.id);
      else live.set(l.id, { ...l, amount: n });
    } else {
      events.push(removedEvent(l.id, l.app_id, seq));
      live.delete(l.id);
    }
  }
  return {
    events,
    bookAt(i) {
      const b = new Map<number, LeanListing>();
      for (const e of events.slice(0, i + 1)) {
        const id = e.data.listing_id;
        if (e.event === 'listing.created') {
          const d = e.data;
          b.set(id, {
            id,
            app_id: d.app_id,
            market_hash_name: d.market_hash_name,
            price: d.price,
            amount: d.amount,
            commodity: d.commodity,
            created_at: d.created_at,
          });
        } else if (e.event === 'listing.price_changed')
          b.set(id, { ...(b.get(id) as LeanListing), price: e.data.price_after });
        else if (e.event === 'listing.amount_changed') {
          if (e.data.new_amount === 0) b.delete(id);
          else b.set(id, { ...(b.get(id) as LeanListing), amount: e.data.new_amount });
        } else if (e.event === 'listing.removed') b.delete(id);
      }
      return [...b.values()].sort((x, y) => x.id - y.id);
    },
  };
}

/** Delivery order: each event late by up to `window` places, some delivered twice. */
function delivery(rng: Rng, n: number, window: number): number[] {
  const keyed: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    keyed.push([i + rng() * window, i]);
    if (rng() < 0.1) keyed.push([i + rng() * window * 3, i]);
  }
  return keyed.sort((a, b) => a[0] - b[0]).map(([, i]) => i);
}

describe('the store against a model market', () => {
  for (let run = 0; run < Number(process.env.MODEL_RUNS ?? 40); run++) {
    it(`run ${run}: the book equals the market's after reordering, duplicates, stepped snapshots and pruning`, async () => {
      const rng = createRng(1000 + run);
      const m = market(rng, 400, 1500);
      const order = delivery(rng, m.events.length, 1 + Math.floor(rng() * (run % 2 ? 300 : 30)));
      const t = openTestStore();
      try {
        let maxDelivered = -1;
        let pos = 0;
        const deliver = (count: number) => {
          const batch: ListingEvent[] = [];
          for (; count > 0 && pos < order.length; count--, pos++) {
            const i = order[pos] as number;
            maxDelivered = Math.max(maxDelivered, i);
            batch.push(m.events[i] as ListingEvent);
          }
          if (batch.length > 0) t.store.applyEvents(batch);
          return batch;
        };
        /** Merges the market's book at the first event from `from` on that is at least as new as all applied. */
        const resyncFrom = async (from: number) => {
          const floor = t.store.state().lastSeq ?? 0n;
          let at = from;
          while (m.events[at]!.seq < floor) at++;
          await mergeSnapshot(t.store, { seq: m.events[at]!.seq, listings: m.bookAt(at) }, { scope: null, resync: true });
        };
        while (pos < order.length) {
          deliver(1 + Math.floor(rng() * 40));
          if (rng() < 0.05) {
            // a snapshot at the last event published before it (at least the last one delivered)
            const at = Math.min(m.events.length - 1, maxDelivered + Math.floor(rng() * 20));
            const rows = m.bookAt(at);
            const applied: ListingEvent[] = [];
            const abort = new AbortController();
            const abandon = rng() < 0.2;
            let steps = 0;
            const merging = mergeSnapshot(
              t.store,
              { seq: m.events[at]!.seq, listings: rows },
              {
                scope: null,
                resync: true,
                budgetMs: 0,
                // events keep arriving between the merge's steps (applied at once, as during a resync)
                atomic: rng() < 0.3,
                signal: abort.signal,
                pause: async () => {
                  applied.push(...deliver(Math.floor(rng() * 5)));
                  if (abandon && ++steps === 2) abort.abort(new Error('socket closed'));
                },
              },
            );
            const merged = await merging.then(
              () => true,
              () => false,
            );
            // ... and the buffer is applied again after the merge
            if (merged && applied.length > 0) t.store.applyEvents(applied);
            if (!merged) {
              // a reconnect: lost events are read from a snapshot at least as new as everything applied
              await resyncFrom(Math.max(at, maxDelivered));
            }
          }
          if (rng() < 0.03) {
            // a restart: a new store on the same file (in-memory orphans are lost)
            t.store = new BookStore(t.db, t.clock);
            // ... whose first session reads a snapshot at least as new as everything applied
            await resyncFrom(Math.max(0, maxDelivered));
          }
          if (rng() < 0.05) {
            t.clock.t += 1; // (orphans live 30 s: none expires here)
            t.store.pruneTombstones(0);
          }
        }
        expect(book(t.db)).toEqual(m.bookAt(m.events.length - 1));
      } finally {
        t.close();
      }
    });
  }
});
