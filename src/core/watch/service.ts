/**
 * The watch service: watchlists judged on every new listing and price change, alerts (feed, OS
 * notification), and guarded auto-buy, over one book database. The host feeds it the sync engine's
 * `received` creations (judged from the frame, before the book applies them: a new listing carries
 * everything about itself), its `applied` batches (price changes, judged on the stored listing) and its
 * `status`, and hands it the market (REST client and purchaser) once connected; the app and
 * `skindesk watch` are two such hosts.
 *
 * The hot path is kept short: a listing is judged in memory (plus one indexed read per price change), an
 * automatic purchase is decided and sent first, and everything else (match memory, alert rows,
 * notifications, listeners) runs on the next turn of the event loop. A run that stops in between loses
 * no alert: the purchase's log entry, written before it was sent, carries the alert, and the next run
 * to start — or a run going beside it, within a minute — writes it (WatchStore.recoverAlerts). Nor is an
 * alert's OS notification, or its webhook post, lost with the coalescing window that held it: the alert
 * row says it is owed one until a run tells it, and one still owed after a run stopped is told by the
 * next (or by a run beside it, within a minute), once.
 */
import { EventEmitter } from 'node:events';
import type { ListingCreatedEvent, ListingEvent } from '../../shared/api/index.ts';
import { DISMISSABLE_ALERT_STATES } from '../../shared/ipc/calls-watch.ts';
import type { PriceReference, Watchlist, WatchlistInput } from '../../shared/watchlist.ts';
import type { ApiClient } from '../api/client.ts';
import type { Purchaser } from '../api/purchaser.ts';
import type { Db } from '../store/database.ts';
import type { EngineState } from '../sync/engine.ts';
import { AutoBuyer } from './auto-buyer.ts';
import { BalanceTracker } from './balance.ts';
import { WatchEvaluator, type WatchMatch } from './evaluator.ts';
import { ListingReader } from './matcher.ts';
import { AlertWebhooks } from './alert-webhook.ts';
import { AlertNotifier } from './notifier.ts';
import { ReferencePrices, ReferenceRefresher } from './reference-prices.ts';
import { ALERT_CHANNELS, type AlertChannel, type AlertFacts, type AlertState, type AutoBuyLogEntry, type WatchAlert, WatchStore } from './store.ts';

export interface WatchServiceOptions {
  db: Db;
  now?: () => number;
  /** Judge only the watchlists this accepts (the CLI runs those of its file); default every one. */
  only?: (watchlist: Watchlist) => boolean;
  /** Whether purchases may be sent at all (the CLI's --auto-buy); default true. */
  purchasing?: boolean;
  /** OS notification (the platform's); alerts are coalesced before they get here. */
  notify?: (title: string, body: string) => void;
  notifyWindowMs?: number;
  onWarning?: (message: string) => void;
  /**
   * Judging a feed event failed (the book could not be read): the feed's handlers have no caller to
   * throw to. Default: onWarning with the error's message.
   */
  onJudgeFailure?: (error: unknown) => void;
  /** A watchlist's alert webhook failed (at most once a minute per URL); default: onWarning. */
  onAlertWebhookFailure?: (message: string) => void;
  /** The alert webhooks' HTTP client (tests); default the global fetch. */
  webhookFetch?: typeof fetch;
  /** Balance reads (tests shorten them). */
  balanceRefreshMs?: number;
  /** Sweeps for details the book stored, at most this often (default 15 s; tests shorten it). */
  detailSweepMs?: number;
}

export class WatchError extends Error {
  readonly code: 'NOT_FOUND' | 'REFUSED';
  constructor(code: 'NOT_FOUND' | 'REFUSED', message: string) {
    super(message);
    this.name = 'WatchError';
    this.code = code;
  }
}

type WatchServiceEvents = {
  /** One match, right after it was acted on (before its alert row exists). */
  match: [match: WatchMatch];
  /** New alerts, written (one batch per applied batch or sweep). */
  alerts: [alerts: WatchAlert[]];
  /** An alert changed state (buying, bought, dismissed...). */
  alertState: [alert: WatchAlert];
  /** A sweep of the whole book finished: how many watchlists it judged and how many matches it found. */
  swept: [summary: { watchlists: number; matches: number }];
  /** An auto-buy log entry was written or got its outcome. */
  purchase: [entry: AutoBuyLogEntry];
  killSwitch: [engaged: boolean];
  watchlists: [watchlists: Watchlist[]];
};

const PRUNE_EVERY_MS = 3_600_000;
/**
 * Sweeps for details the book stored (#onDetailsFilled) at most this often: a backfill stores a page a
 * second for many minutes, and a broad detail filter's sweep reads much of the book.
 */
const DETAIL_SWEEP_MS = 15_000;
/**
 * How often the journal is asked for the outcomes of purchases an earlier run left open, and the log
 * for alerts a run that stopped left unwritten (#recoverLeftAlerts).
 */
const SETTLE_EVERY_MS = 60_000;
/**
 * An alert still owed its OS notification or webhook post this long after it was written was left by a
 * run that stopped: a running one tells it within its window (5 s in the app), so three of them leave a
 * busy one time to do so before another run tells it (claimOwed keeps it to one either way).
 */
const NOTIFY_OWED_AFTER_MS = 15_000;
/**
 * How long an alert a run left untold stays owed: the next run started within it tells it, one started
 * later leaves it in the feed only (a notification or post about a match this old points at a listing
 * most likely sold).
 */
const NOTIFY_OWED_FOR_MS = 60 * 60_000;
/** The words for what a channel's telling is, in warnings. */
const CHANNEL_WORDS: Record<AlertChannel, { told: string; telling: string }> = {
  notification: { told: 'notify', telling: 'alert notifications are' },
  webhook: { told: 'post to their webhooks', telling: 'alert webhook posts are' },
};
/** How long judging applied batches may hold the event loop before it lets a frame in. */
const APPLIED_SLICE_MS = 0.5;
/** Blocked auto-buy decisions are kept this long (the log shows them; nothing else reads them). */
const BLOCKED_KEPT_MS = 30 * 24 * 3_600_000;

/** The filter keys a listing's price state alone answers; any other needs its details. */
const LEAN_FILTER_KEYS: ReadonlySet<string> = new Set(['app_id', 'name', 'commodity', 'price']);

/**
 * Whether a watchlist's matches depend on listings' details: a detail condition in its filter, or the
 * cheapest other listing as its reference (of a Doppler, of the same phase: its paint index).
 */
function looksAtDetails(w: Watchlist): boolean {
  if (w.price.kind === 'below' && w.price.reference === 'cheapest_other') return true;
  return Object.entries(w.filter).some(([key, value]) => value !== undefined && !LEAN_FILTER_KEYS.has(key));
}

/**
 * What a match's alert says beyond its time, watchlist, listing, name and seq: what an automatic
 * decision's log entry keeps until the alert row is written (and the next run writes it from).
 */
function alertFactsOf(match: WatchMatch): AlertFacts {
  return {
    watchlistName: match.watchlist.name,
    appId: match.listing.app_id,
    price: match.listing.price,
    amount: match.listing.amount,
    referencePrice: match.referencePrice,
    ceiling: match.ceiling,
    origin: match.origin,
  };
}

export class WatchService extends EventEmitter<WatchServiceEvents> {
  readonly store: WatchStore;
  readonly #db: Db;
  readonly #o: WatchServiceOptions;
  readonly #now: () => number;
  readonly #prices: ReferencePrices;
  readonly #evaluator: WatchEvaluator;
  readonly #reader: ListingReader;
  readonly #buyer: AutoBuyer;
  readonly #notifier: AlertNotifier | null;
  readonly #webhooks: AlertWebhooks;
  #refresher: ReferenceRefresher | null = null;
  #balance: BalanceTracker | null = null;
  #client: ApiClient | null = null;
  #state: EngineState | null = null;
  #sweeping: Promise<void> | null = null;
  #sweepAgain: number[] | 'all' | null = null;
  #pruneTimer: NodeJS.Timeout;
  #settleTimer: NodeJS.Timeout;
  #detailSweepTimer: NodeJS.Timeout | null = null;
  #lastDetailSweepAt = Number.NEGATIVE_INFINITY;
  /** The backfill's count of detailed listings last reported (onBackfillProgress); -1 before any. */
  #detailedSeen = -1;
  #closed = false;
  /** Stops a sweep under way when the service closes (its matches are then neither alerted nor remembered). */
  readonly #stopSweeps = new AbortController();
  /** Matches acted on whose alert rows are written on the next turn; with their auto-buy log entries. */
  #pendingAlerts: { match: WatchMatch; entryId: number | null; state: AlertState }[] = [];
  /**
   * Auto-buy log entries of those matches known before #flush tells the match (a guardrail blocks inside
   * buy()): told right after their match, which is the order listeners (`skindesk watch`) print them in.
   */
  #entriesAfterMatch: AutoBuyLogEntry[] = [];
  /** Inside #act's call of buy(): an entry it tells belongs to a match not told yet. */
  #buying = false;
  /** Applied batches still being judged (onApplied), oldest first. */
  #appliedBacklog: Generator<WatchMatch[], void, undefined>[] = [];
  #flushScheduled = false;

  constructor(options: WatchServiceOptions) {
    super();
    this.#o = options;
    this.#db = options.db;
    this.#now = options.now ?? Date.now;
    this.store = new WatchStore(options.db, this.#now);
    this.#notifier = options.notify
      ? new AlertNotifier({
          notify: options.notify,
          claim: (alerts) => this.#claim('notification', alerts),
          ...(options.notifyWindowMs === undefined ? {} : { windowMs: options.notifyWindowMs }),
        })
      : null;
    // read before the recovery below writes alerts of its own (told with #tell)
    const owed = this.#owedAlerts();
    // before the evaluator reads the match memory: the alerts recovered come with theirs
    const recovered = this.#recoverAlerts();
    this.#prices = new ReferencePrices(options.db);
    this.#evaluator = new WatchEvaluator(options.db, this.store, this.#prices);
    this.#reader = new ListingReader(options.db);
    this.#buyer = new AutoBuyer(this.store, this.#now);
    this.#buyer.on('entry', (entry) => this.#onEntry(entry));
    this.#buyer.on('killSwitch', (engaged) => this.emit('killSwitch', engaged));
    this.#webhooks = new AlertWebhooks({
      onFailure: options.onAlertWebhookFailure ?? ((message) => this.#warn(message)),
      ...(options.notifyWindowMs === undefined ? {} : { windowMs: options.notifyWindowMs }),
      ...(options.webhookFetch === undefined ? {} : { fetch: options.webhookFetch }),
      now: this.#now,
      claim: (alerts) => this.#claim('webhook', alerts),
    });
    this.#pruneTimer = setInterval(() => this.#prune(), PRUNE_EVERY_MS);
    this.#pruneTimer.unref();
    this.#settleTimer = setInterval(() => {
      this.#recoverLeftAlerts();
      this.settleEarlierPurchases();
    }, SETTLE_EVERY_MS);
    this.#settleTimer.unref();
    this.#reload();
    // never told by the run that stopped with them in its windows: one summary each
    this.#tellOwed(owed);
    // never told by the run that stopped before writing them
    this.#tell(recovered, (id) => this.store.get(id));
  }

  // ---- the host's feeds ---------------------------------------------------------------------------

  /** The market to buy on (null: not connected). Call again after a reconnect with a new client. */
  attachMarket(client: ApiClient | null, purchaser: Purchaser | null): void {
    if (this.#client === client) return;
    this.#refresher?.stop();
    this.#balance?.stop();
    this.#refresher = null;
    this.#balance = null;
    this.#client = client;
    if (client) {
      this.#refresher = new ReferenceRefresher({
        client,
        db: this.#db,
        prices: this.#prices,
        onWarning: (m) => this.#warn(m),
        onRefreshed: (reference) => {
          const using = this.#evaluator.active.filter((w) => w.price.kind === 'below' && w.price.reference === reference);
          if (using.length > 0) void this.sweep(using.map((w) => w.id));
        },
      });
      if (purchaser && this.#o.purchasing !== false) {
        this.#balance = new BalanceTracker({
          client,
          purchases: purchaser,
          now: this.#now,
          onWarning: (m) => this.#warn(m),
          ...(this.#o.balanceRefreshMs === undefined ? {} : { refreshEveryMs: this.#o.balanceRefreshMs }),
        });
        this.#buyer.attachMarket({ client, purchaser, balance: this.#balance });
        // read at once: an automatic purchase never waits for a balance, so it must be known beforehand
        this.#balance.start();
      } else {
        this.#buyer.attachMarket(null);
      }
    } else {
      this.#buyer.attachMarket(null);
    }
    this.#reload();
    this.settleEarlierPurchases();
  }

  /** The sync engine's state: auto-buy runs only while live; the book is swept when it becomes live. */
  onStatus(state: EngineState): void {
    const was = this.#state;
    this.#state = state;
    this.#buyer.setBookLive(state === 'live');
    if (state === 'live' && was !== 'live') void this.sweep();
  }

  /** A new listing's frame, before it is applied (the sync engine's `received` event). */
  onArrived(event: ListingCreatedEvent): void {
    if (this.#closed) return;
    try {
      const matches = this.#evaluator.evaluateArrival(event);
      if (matches.length > 0) this.#act(matches);
    } catch (err) {
      this.#judgeFailed(err);
    }
  }

  /**
   * One applied batch of the sync engine (its `applied` event). Judged within a time slice per turn of
   * the event loop: a new listing's frame arriving meanwhile is judged (and bought) between two slices,
   * not after the whole backlog.
   */
  onApplied(events: readonly ListingEvent[]): void {
    if (this.#closed) return;
    this.#appliedBacklog.push(this.#evaluator.evaluateSteps(events));
    if (this.#appliedBacklog.length === 1) this.#judgeApplied();
  }

  #judgeApplied(sliceMs = APPLIED_SLICE_MS): void {
    const until = performance.now() + sliceMs;
    while (this.#appliedBacklog.length > 0 && !this.#closed) {
      const steps = this.#appliedBacklog[0] as Generator<WatchMatch[], void, undefined>;
      try {
        for (let step = steps.next(); !step.done; step = steps.next()) {
          if (step.value.length > 0) this.#act(step.value);
          if (performance.now() >= until) {
            setImmediate(() => this.#judgeApplied());
            return;
          }
        }
      } catch (err) {
        // that batch is over (a generator that threw is done); the ones after it are still judged
        this.#judgeFailed(err);
      }
      this.#appliedBacklog.shift();
    }
    this.#appliedBacklog = [];
  }

  /**
   * The backfill's progress, as the mirror reports it (every page and every state change): the
   * watchlists are swept only when its count of detailed listings moved (#onDetailsFilled).
   */
  onBackfillProgress(progress: { detailed: number }): void {
    if (progress.detailed === this.#detailedSeen) return;
    this.#detailedSeen = progress.detailed;
    this.#onDetailsFilled();
  }

  /**
   * The book stored the details (float, seed, stickers...) of listings it held without them: the
   * worker's backfill of the snapshot's rows — the whole book after a first load, and every listing that
   * appeared while the feed was down. A watchlist whose rule looks at details could not match them
   * before, and no feed event will bring them again: the watchlists that do are swept, at most once every
   * DETAIL_SWEEP_MS (`detailSweepMs`) while details keep coming; each sweep alerts only what it had not
   * matched, and like every sweep it never buys by itself.
   */
  #onDetailsFilled(): void {
    if (this.#closed || this.#detailSweepTimer !== null) return;
    const wait = this.#lastDetailSweepAt + (this.#o.detailSweepMs ?? DETAIL_SWEEP_MS) - performance.now();
    const run = () => {
      this.#detailSweepTimer = null;
      if (this.#closed) return;
      this.#lastDetailSweepAt = performance.now();
      const ids = this.#evaluator.active.filter(looksAtDetails).map((w) => w.id);
      if (ids.length > 0) void this.sweep(ids);
    };
    if (wait <= 0) {
      run();
      return;
    }
    this.#detailSweepTimer = setTimeout(run, wait);
    this.#detailSweepTimer.unref();
  }

  #judgeFailed(err: unknown): void {
    if (this.#o.onJudgeFailure) this.#o.onJudgeFailure(err);
    else this.#warn(`a feed event could not be judged: ${err instanceof Error ? err.message : String(err)}`);
  }

  // ---- watchlists -------------------------------------------------------------------------------

  list(): Watchlist[] {
    return this.store.list();
  }

  /** Saves a new watchlist and sweeps the whole book for it. */
  create(input: WatchlistInput): Watchlist {
    const w = this.store.create(input);
    this.#reload();
    void this.sweep([w.id]);
    return w;
  }

  update(id: number, input: WatchlistInput): Watchlist {
    const { watchlist: w, ruleChanged } = this.store.update(id, input);
    // the same rule keeps what it matched (the store keeps it too): only a new rule judges afresh
    if (ruleChanged) this.#evaluator.forget(id);
    this.#reload();
    void this.sweep([w.id]);
    return w;
  }

  /** Creates, or replaces the one of the same name (the CLI's watchlists file). */
  upsert(input: WatchlistInput): Watchlist {
    const existing = this.store.byName(input.name.trim());
    return existing ? this.update(existing.id, input) : this.create(input);
  }

  setPaused(id: number, paused: boolean): Watchlist {
    const w = this.store.setPaused(id, paused);
    this.#reload();
    if (!paused) void this.sweep([id]);
    return w;
  }

  delete(id: number): boolean {
    const deleted = this.store.delete(id);
    this.#evaluator.forget(id);
    this.#reload();
    return deleted;
  }

  /**
   * Judges the whole book for some watchlists (every active one by default). Matches become alerts;
   * a sweep never buys by itself (confirm-first alerts can still be bought with one keystroke).
   */
  sweep(ids?: readonly number[]): Promise<void> {
    if (this.#sweeping) {
      this.#sweepAgain = ids === undefined || this.#sweepAgain === 'all' ? 'all' : [...(this.#sweepAgain ?? []), ...ids];
      return this.#sweeping;
    }
    const run = async () => {
      let next: readonly number[] | undefined = ids;
      for (;;) {
        const matches = await this.#evaluator.sweep(next, this.#stopSweeps.signal);
        if (this.#closed) return;
        if (matches.length > 0) this.#act(matches);
        const judged = next === undefined ? this.#evaluator.active.length : this.#evaluator.active.filter((w) => next!.includes(w.id)).length;
        this.emit('swept', { watchlists: judged, matches: matches.length });
        const again = this.#sweepAgain;
        this.#sweepAgain = null;
        if (again === null) return;
        next = again === 'all' ? undefined : again;
      }
    };
    this.#sweeping = run()
      .catch((err: unknown) => this.#warn(`the watchlist check of the whole book failed: ${(err as Error).message}`))
      .finally(() => {
        this.#sweeping = null;
      });
    return this.#sweeping;
  }

  // ---- alerts and buying ------------------------------------------------------------------------

  alerts(limit = 200, afterId = 0): WatchAlert[] {
    this.#flush();
    return this.store.alerts(limit, afterId);
  }

  dismiss(alertId: number): WatchAlert {
    this.#flush();
    const alert = this.store.alert(alertId);
    if (!alert) throw new WatchError('NOT_FOUND', `alert ${alertId} does not exist`);
    if (!DISMISSABLE_ALERT_STATES.includes(alert.state)) {
      throw new WatchError('REFUSED', `an alert whose purchase is ${alert.state.replace('_', ' ')} stays as it is: only an alert nothing came of can be dismissed`);
    }
    this.store.setAlertState(alertId, 'dismissed');
    const updated = { ...alert, state: 'dismissed' as const };
    this.emit('alertState', updated);
    return updated;
  }

  /**
   * Confirm-first: buys the alerted listing at the price seen in the alert, through the same guardrails
   * as an automatic purchase. Resolves with the log entry once the purchase has its outcome.
   */
  async confirm(alertId: number): Promise<AutoBuyLogEntry> {
    this.#flush();
    const alert = this.store.alert(alertId);
    if (!alert) throw new WatchError('NOT_FOUND', `alert ${alertId} does not exist`);
    const watchlist = this.store.get(alert.watchlistId);
    if (!watchlist) throw new WatchError('REFUSED', 'Not bought: the watchlist of this alert was deleted.');
    if (watchlist.auto_buy.mode === 'off') {
      throw new WatchError('REFUSED', `Not bought: watchlist “${watchlist.name}” does not buy (its auto-buy is off); buy it from the book.`);
    }
    // pausing means no alerts and no buying: an alert caught before the pause must not buy behind it
    if (watchlist.paused) throw new WatchError('REFUSED', `Not bought: watchlist “${watchlist.name}” is paused — resume it to buy.`);
    if (alert.state !== 'new' && alert.state !== 'blocked') {
      throw new WatchError('REFUSED', `Not bought: this alert was already handled (${alert.state.replace('_', ' ')}).`);
    }
    if (this.#o.purchasing === false) throw new WatchError('REFUSED', 'Not bought: purchasing is off in this session.');
    // a deliberate keystroke can wait for the first balance read (an automatic purchase never does)
    if (this.#balance && this.#balance.available() === null) await this.#balance.refresh();
    const listing = this.#reader.read(alert.listingId);
    const { entry, settled } = this.#buyer.buy({
      watchlist,
      mode: 'confirm',
      alertId,
      listingId: alert.listingId,
      appId: alert.appId,
      marketHashName: alert.marketHashName,
      price: alert.price,
      available: listing?.amount ?? alert.amount,
      seq: alert.seq,
      // an alert judged on its frame's arrival can come before the sync worker applied it: no row at
      // all is "not written yet", not "gone" (a removal or a sale leaves a tombstone)
      listingAlive: listing !== null || !this.#reader.held(alert.listingId),
    });
    this.#setAlertState(alert, entry.decision === 'blocked' ? 'blocked' : 'buying');
    return settled;
  }

  get killSwitch(): boolean {
    return this.#buyer.killSwitch;
  }

  setKillSwitch(engaged: boolean): void {
    this.#buyer.setKillSwitch(engaged);
  }

  log(limit = 200): AutoBuyLogEntry[] {
    return this.store.log(limit);
  }

  /**
   * Gives the purchases an earlier run left pending (or unknown) the outcome the purchase journal has
   * found for them since (see WatchStore.settleFromJournal): in the log, on their alerts and to the
   * `purchase` listeners. Run when a market is attached and every minute; hosts call it again once the
   * purchaser has reconciled the journal.
   */
  settleEarlierPurchases(): void {
    if (this.#closed || !this.#db.open) return;
    try {
      for (const entry of this.store.settleFromJournal(this.#buyer.inFlightEntries)) this.#onEntry(entry);
    } catch (err) {
      this.#warn(`the outcomes of earlier purchases could not be read from the journal: ${(err as Error).message}`);
    }
  }

  /** Reads the balance now (the guardrails use the last one read); resolves when it is known or failed. */
  async refreshBalance(): Promise<number | null> {
    await this.#balance?.refresh();
    return this.#balance?.available() ?? null;
  }

  get bookLive(): boolean {
    return this.#buyer.bookLive;
  }

  /** Resolves when every purchase sent so far has its outcome (and its alert is written). */
  async settled(): Promise<void> {
    this.#judgeApplied(Infinity);
    await this.#buyer.settled();
    this.#flush();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#pruneTimer);
    clearInterval(this.#settleTimer);
    if (this.#detailSweepTimer !== null) clearTimeout(this.#detailSweepTimer);
    this.#refresher?.stop();
    this.#balance?.stop();
    this.#stopSweeps.abort();
    await this.#sweeping;
    await this.#buyer.settled();
    this.#flush();
    // after the last alerts were written: what the notification window and the webhooks still hold is
    // told (one summary), not dropped
    this.#notifier?.close();
    await this.#webhooks.close();
  }

  // ---- internals --------------------------------------------------------------------------------

  #act(matches: WatchMatch[]): void {
    const buying = this.#o.purchasing !== false;
    for (const match of matches) {
      const w = match.watchlist;
      let entryId: number | null = null;
      let state: AlertState = 'new';
      if (buying && match.origin === 'event' && w.auto_buy.mode === 'auto') {
        this.#buying = true;
        let bought: ReturnType<AutoBuyer['buy']>;
        try {
          bought = this.#buyer.buy({
            watchlist: w,
            mode: 'auto',
            alertId: null,
            listingId: match.listing.id,
            appId: match.listing.app_id,
            marketHashName: match.listing.market_hash_name,
            price: match.listing.price,
            available: match.listing.amount,
            seq: match.seq,
            listingAlive: true,
            alert: alertFactsOf(match),
          });
        } finally {
          this.#buying = false;
        }
        const { entry } = bought;
        entryId = entry.id;
        state = entry.decision === 'blocked' ? 'blocked' : 'buying';
      }
      this.#pendingAlerts.push({ match, entryId, state });
    }
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => this.#flush());
    }
  }

  /** Writes what the hot path left for later: match memory, alert rows; then tells the listeners. */
  #flush(): void {
    this.#flushScheduled = false;
    const entries = this.#entriesAfterMatch;
    this.#entriesAfterMatch = [];
    if (this.#pendingAlerts.length === 0 || !this.#db.open) {
      for (const entry of entries) this.emit('purchase', entry);
      return;
    }
    const pending = this.#pendingAlerts;
    this.#pendingAlerts = [];
    // under the desk's write lock, as WatchStore.recoverAlerts: it and this never both write one alert
    const alerts = this.store.exclusively(() => {
      this.#evaluator.persist();
      const written: WatchAlert[] = [];
      for (const { match, entryId, state: decided } of pending) {
        let state = decided;
        const entry = entryId === null ? null : this.store.logEntry(entryId);
        // written from the decision's log entry by a run that started meanwhile (the CLI beside the
        // app), which also told it
        if (entry?.alertId != null) continue;
        const alert = this.store.addAlert({
          atMs: this.#now(),
          watchlistId: match.watchlist.id,
          listingId: match.listing.id,
          marketHashName: match.listing.market_hash_name,
          seq: match.seq,
          ...alertFactsOf(match),
        }, this.#owes(match.watchlist));
        if (entry) {
          this.store.linkAlert(entry.id, alert.id);
          // the outcome may have arrived already
          if (entry.status && entry.status !== 'pending') state = entry.status;
        }
        if (state !== 'new') this.store.setAlertState(alert.id, state);
        written.push({ ...alert, state });
      }
      return written;
    });
    for (const { match, entryId } of pending) {
      this.emit('match', match);
      for (const entry of entries) if (entry.id === entryId) this.emit('purchase', entry);
    }
    for (const entry of entries) if (!pending.some((p) => p.entryId === entry.id)) this.emit('purchase', entry);
    const watchlists = new Map(pending.map((p) => [p.match.watchlist.id, p.match.watchlist]));
    this.#tell(alerts, (id) => watchlists.get(id));
  }

  /** New alerts to the OS notifications and webhooks their watchlists ask for, and to the listeners. */
  #tell(alerts: WatchAlert[], watchlistOf: (id: number) => Watchlist | null | undefined): void {
    if (alerts.length === 0) return;
    const settings = new Map(alerts.map((a) => [a.watchlistId, watchlistOf(a.watchlistId)?.alerts]));
    this.#notifier?.add(alerts.filter((a) => settings.get(a.watchlistId)?.notify));
    const webhooks = new Set([...settings.values()].map((s) => s?.webhook));
    for (const url of webhooks) {
      if (url) this.#webhooks.add(url, alerts.filter((a) => settings.get(a.watchlistId)?.webhook === url));
    }
    this.emit('alerts', alerts);
  }

  /**
   * The alerts a run that stopped while this one runs left unwritten (`skindesk watch` beside the app,
   * killed between a purchase and its alert): written and told now, not at the next start. This run's
   * own are written first (#flush), so none of them is taken for one left behind; each is told once,
   * by whichever run links it to its log entry (recoverAlerts and #flush both hold the desk's lock).
   */
  #recoverLeftAlerts(): void {
    if (this.#closed || !this.#db.open) return;
    this.#flush();
    const owed = this.#owedAlerts();
    const recovered = this.#recoverAlerts();
    this.#tellOwed(owed);
    this.#tell(recovered, (id) => this.store.get(id));
  }

  /** The alerts a run that stopped never wrote (WatchStore.recoverAlerts); a failure is said, not thrown. */
  #recoverAlerts(): WatchAlert[] {
    try {
      return this.store.recoverAlerts((id) => this.#owes(this.store.get(id)));
    } catch (err) {
      this.#warn(`the alerts of purchases an earlier run sent could not be written: ${(err as Error).message}`);
      return [];
    }
  }

  /**
   * How this run owes a watchlist's alerts being told: an OS notification when it asks for them and this
   * host shows them, a post when it names a webhook.
   */
  #owes(watchlist: Watchlist | null): AlertChannel[] {
    const owed: AlertChannel[] = [];
    if (this.#notifier !== null && watchlist?.alerts.notify === true) owed.push('notification');
    if (watchlist?.alerts.webhook) owed.push('webhook');
    return owed;
  }

  /**
   * The alerts a run that stopped never told (held in its windows at a crash, or told with its file
   * already closed), per channel: those still owed it NOTIFY_OWED_AFTER_MS after they were written,
   * which a running app would have told within its window. Notifications are taken only by a run that
   * shows them; a failure is said, not thrown.
   */
  #owedAlerts(): Record<AlertChannel, WatchAlert[]> {
    const owed: Record<AlertChannel, WatchAlert[]> = { notification: [], webhook: [] };
    if (!this.#db.open) return owed;
    const now = this.#now();
    for (const channel of ALERT_CHANNELS) {
      if (channel === 'notification' && !this.#notifier) continue;
      try {
        owed[channel] = this.store.owedAlerts(channel, now - NOTIFY_OWED_AFTER_MS, now - NOTIFY_OWED_FOR_MS);
      } catch (err) {
        this.#warn(`the alerts an earlier run did not ${CHANNEL_WORDS[channel].told} could not be read: ${(err as Error).message}`);
      }
    }
    return owed;
  }

  /**
   * What a run that stopped never told: one summary to the OS notifications, one per webhook (the one
   * its watchlist names now; an alert whose watchlist names none any more stays owed, and is released
   * with the others after NOTIFY_OWED_FOR_MS).
   */
  #tellOwed(owed: Record<AlertChannel, WatchAlert[]>): void {
    this.#notifier?.tellTogether(owed.notification);
    const byUrl = new Map<string, WatchAlert[]>();
    for (const alert of owed.webhook) {
      const url = this.store.get(alert.watchlistId)?.alerts.webhook;
      if (url) byUrl.set(url, [...(byUrl.get(url) ?? []), alert]);
    }
    for (const [url, alerts] of byUrl) this.#webhooks.tellTogether(url, alerts);
  }

  /**
   * A window's claim: of these alerts, those no run has told yet on `channel`, marked told. When the
   * file cannot be written (closed at a stop, locked) none is told now: each stays owed, and is told by
   * this run's minute check or by the next run — late, but once.
   */
  #claim(channel: AlertChannel, alerts: readonly WatchAlert[]): WatchAlert[] {
    if (!this.#db.open) return [];
    try {
      return this.store.claimOwed(channel, alerts);
    } catch (err) {
      this.#warn(`${CHANNEL_WORDS[channel].telling} held back: the desk file could not be written (${(err as Error).message})`);
      return [];
    }
  }

  #onEntry(entry: AutoBuyLogEntry): void {
    if (entry.alertId !== null && entry.status !== null && entry.status !== 'pending' && this.#db.open) {
      const alert = this.store.alert(entry.alertId);
      if (alert) this.#setAlertState(alert, entry.status);
    }
    if (this.#buying || this.#pendingAlerts.some((p) => p.entryId === entry.id)) {
      this.#entriesAfterMatch.push(entry);
      return;
    }
    this.emit('purchase', entry);
  }

  #setAlertState(alert: WatchAlert, state: AlertState): void {
    this.store.setAlertState(alert.id, state);
    this.emit('alertState', { ...alert, state });
  }

  /** Re-reads the watchlists after a change: what is judged, which prices are fetched, the balance. */
  #reload(): void {
    const all = this.store.list();
    const only = this.#o.only;
    const active = all.filter((w) => !w.paused && (only === undefined || only(w)));
    this.#evaluator.setWatchlists(active);
    const references = new Set<PriceReference>();
    for (const w of active) if (w.price.kind === 'below') references.add(w.price.reference);
    this.#refresher?.setNeeds(references);
    this.emit('watchlists', all);
  }

  #prune(): void {
    if (!this.#db.open) return;
    try {
      // the alerts first: the pruning writes the match memory, and a memory without its alert is never told
      this.#flush();
      this.#evaluator.prune();
      this.store.pruneAlerts();
      this.store.pruneBlocked(this.#now() - BLOCKED_KEPT_MS);
    } catch (err) {
      this.#warn(`pruning the watchlist tables failed: ${(err as Error).message}`);
    }
  }

  #warn(message: string): void {
    this.#o.onWarning?.(message);
  }
}
