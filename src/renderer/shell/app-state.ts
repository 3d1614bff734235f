/**
 * App-wide live values every screen reads (sync status, detail backfill, balance, rate-limit headroom),
 * each loaded once and kept current by its push or a slow poll, however many components show it.
 */
import { useMemo, useSyncExternalStore } from 'react';
import type { BackfillProgress, IpcOutput, SyncState, SyncStatus } from '../../shared/ipc/index.ts';
import type { BalanceView } from '../../shared/ipc/calls-market.ts';
import { call, hasBridge, subscribe } from '../bridge/index.ts';
import { failureLatch, reportFailure } from './report-failure.ts';

type Listener = () => void;

/** A value with listeners; `start` runs on the first subscription (loads, subscribes to pushes). */
export class LiveStore<T> {
  #value: T;
  #listeners = new Set<Listener>();
  #start: ((store: LiveStore<T>) => (() => void) | void) | null;
  #stop: (() => void) | null = null;

  constructor(initial: T, start: ((store: LiveStore<T>) => (() => void) | void) | null = null) {
    this.#value = initial;
    this.#start = start;
  }

  get = (): T => this.#value;

  set(value: T): void {
    if (Object.is(value, this.#value)) return;
    this.#value = value;
    for (const listener of this.#listeners) listener();
  }

  subscribe = (listener: Listener): (() => void) => {
    this.#listeners.add(listener);
    if (this.#listeners.size === 1 && this.#start) this.#stop = this.#start(this) ?? null;
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) {
        this.#stop?.();
        this.#stop = null;
      }
    };
  };
}

export function useLive<T>(store: LiveStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** Loads with `load`, then follows the push `push` (same shape); a failed load is reported as `failure`. */
function pushed<T>(
  load: () => Promise<T>,
  on: (listener: (value: T) => void) => () => void,
  failure: string,
): (store: LiveStore<T | null>) => () => void {
  return (store) => {
    if (!hasBridge()) return () => undefined;
    let alive = true;
    let pushedOnce = false;
    const off = on((value) => {
      pushedOnce = true;
      store.set(value);
    });
    load()
      .then((value) => {
        if (alive && !pushedOnce) store.set(value);
      })
      .catch((err: unknown) => alive && reportFailure(failure, err));
    return () => {
      alive = false;
      off();
    };
  };
}

export const syncStatusStore = new LiveStore<SyncStatus | null>(
  null,
  pushed(
    () => call('getStatus', {}),
    (listener) => subscribe('syncStatus', listener),
    'The state of the book could not be read',
  ),
);

export const backfillStore = new LiveStore<BackfillProgress | null>(
  null,
  pushed(
    () => call('getBackfillProgress', {}),
    (listener) => subscribe('backfillProgress', listener),
    'The detail backfill could not be read',
  ),
);

type RateLimits = IpcOutput<'getRateLimits'>;
const RATE_POLL_MS = 2_000;
export const rateLimitStore = new LiveStore<RateLimits | null>(null, (store) => {
  if (!hasBridge()) return () => undefined;
  let alive = true;
  const latch = failureLatch('The rate limits could not be read');
  const poll = () =>
    call('getRateLimits', {})
      .then((value) => {
        latch.succeeded();
        if (alive) store.set(value);
      })
      .catch((err: unknown) => alive && latch.failed(err));
  void poll();
  const timer = setInterval(poll, RATE_POLL_MS);
  return () => {
    alive = false;
    clearInterval(timer);
  };
});

/** States in which the app sends orders (the same rule the app enforces on buyListings). */
const TRADING_STATES: readonly SyncState[] = ['live', 'resyncing'];

const BALANCE_POLL_MS = 30_000;

/**
 * The balance: the cached one at once (the app keeps it for offline), then the market's own — each time
 * the book turns live (the start, a reconnect, another market), after an automatic purchase, and every
 * 30 s while live (a listing of yours sold, a trade settled; GET /user allows 60 a minute); on a switch
 * to another market that is not live, that market's cached one. Every purchase report sets it too; a
 * read that was on its way before one does not undo it.
 */
export const balanceStore = new LiveStore<BalanceView | null>(null, (store) => {
  if (!hasBridge()) return () => undefined;
  let alive = true;
  const latch = failureLatch('The balance could not be read');
  // the reads' answers may come back in any order: the latest read asked wins, and a value set meanwhile
  // by anyone else (a purchase's report) is newer than any read already on its way
  let asked = 0;
  let applied = 0;
  const own = new WeakSet<BalanceView>();
  const read = (refresh: boolean) => {
    const n = ++asked;
    const before = store.get();
    call('getBalance', { refresh })
      .then((value) => {
        latch.succeeded();
        const current = store.get();
        const setByOthers = current !== before && !(current !== null && own.has(current));
        if (!alive || setByOthers || n < applied) return;
        applied = n;
        own.add(value);
        store.set(value);
      })
      .catch((err: unknown) => alive && latch.failed(err));
  };
  const trading = () => TRADING_STATES.includes(syncStatusStore.get()?.state ?? 'opening');
  read(false);
  let wasTrading = false;
  let market: string | null = null;
  const offStatus = syncStatusStore.subscribe(() => {
    const status = syncStatusStore.get();
    const now = trading();
    const where = status ? `${status.market.mode} ${status.market.baseUrl ?? ''}` : null;
    const anotherMarket = market !== null && where !== market;
    // another market's balance is never this one's: gone at once, then its own (the cached one while it
    // is not live — a real market that cannot be reached must not show the demo's balance)
    if (anotherMarket) store.set(null);
    if (now && (!wasTrading || anotherMarket)) read(true);
    else if (anotherMarket) read(false);
    wasTrading = now;
    market = where;
  });
  const offAutoBuy = subscribe('autoBuyChanged', ({ entries }) => {
    if (entries.some((e) => e.status === 'bought' || e.status === 'unknown')) read(true);
  });
  const timer = setInterval(() => trading() && read(true), BALANCE_POLL_MS);
  return () => {
    alive = false;
    offStatus();
    offAutoBuy();
    clearInterval(timer);
  };
});

export function refreshBalance(): Promise<void> {
  return call('getBalance', { refresh: true })
    .then((value) => balanceStore.set(value))
    .catch((err: unknown) => reportFailure('The balance could not be read', err));
}

export interface TradingState {
  allowed: boolean;
  /** Why buying is off, in plain words (null when allowed). */
  reason: string | null;
}

export function tradingStateOf(status: SyncStatus | null): TradingState {
  if (!status) return { allowed: false, reason: 'Connecting to the app…' };
  if (TRADING_STATES.includes(status.state)) return { allowed: true, reason: null };
  if (status.state === 'offline') return { allowed: false, reason: 'Offline: the book is the cached one, so trading is off until the market is reachable again.' };
  return { allowed: false, reason: `The book is not live yet (${status.state}); trading starts when it is.` };
}

/** Stable while the status is: commands built from it are not rebuilt on every render. */
export function useTradingState(): TradingState {
  const status = useLive(syncStatusStore);
  return useMemo(() => tradingStateOf(status), [status]);
}
