/**
 * The account side of one market session: cached reads, the trade feeds (tracker, poller, optional
 * webhook receiver), the crypto withdrawal tracker and the portfolio history, all over the session's
 * SQLite file, so every account screen opens offline with what was last seen.
 *
 * The REST client appears only once the session has connected; until then reads are served from the
 * cache (a missing client counts as "cannot reach the marketplace") and writes are refused.
 */
import type { Statement } from 'better-sqlite3';
import {
  type BackpackItem,
  type EndpointName,
  type LeanListing,
  type MyListing,
  rateLimitKey,
  type Trade,
  type User,
} from '../../../shared/api/index.ts';
import { SkindeskError } from '../../../shared/ipc/index.ts';
import { AccountReads, type AccountApi } from '../../account/account-reads.ts';
import { CryptoWithdrawalTracker } from '../../account/crypto-withdrawal.ts';
import { InventoryOffers } from '../../account/inventory-offers.ts';
import { PortfolioHistory } from '../../account/portfolio.ts';
import { TradingPnlStore } from '../../account/trading-pnl.ts';
import { UnclearMoves, assignUnclearMoves } from '../../account/unclear-moves.ts';
import { type GuardView, UndercutGuards } from '../../account/undercut-guard.ts';
import { WithdrawalGuard } from '../../account/withdrawal-guard.ts';
import { type WithdrawalAttempt, WithdrawalJournal, assignOpenWithdrawals } from '../../account/withdrawal-journal.ts';
import type { ApiClient } from '../../api/client.ts';
import { type Clock, systemClock } from '../../api/clock.ts';
import { ApiError } from '../../api/errors.ts';
import { accountKey, assignOpenPurchases, isAccountOf } from '../../api/purchase-journal.ts';
import type { TradePollerOptions } from '../../trades/poller.ts';
import { TradeFeeds, type TradeFeedsOptions } from '../../trades/trade-feeds.ts';
import { Caches, type Db } from '../../store/index.ts';
import { ACCOUNT_TABLES, addDeskColumn, createDeskTables } from '../../store/desk.ts';
import { USER_CACHE_KEY } from '../market-buying/balance.ts';

/**
 * How long a closing session waits for the answer to a crypto withdrawal or a list or withdraw of items
 * (the client gives up after 10 s without one).
 */
const SEND_ANSWER_WAIT_MS = 30_000;

const IDENTITY_SCHEMA = `
CREATE TABLE IF NOT EXISTS account_identity (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  account TEXT NOT NULL,
  key_id TEXT
);
`;

/** The stored account and the key (apiKeyId) it was met with; key_id null when met before it was kept. */
interface StoredIdentity {
  account: string;
  key_id: string | null;
}

/** What an account session needs of the market session (MarketSession satisfies it). */
export interface MarketSide {
  readonly db: Db;
  readonly client: ApiClient | null;
  /**
   * The identity of the key the session sends (apiKeyId, never the key), known before connecting; null
   * when it is not the user's (the demo market's). Tells a new key from the one the stored account was
   * met with, while the market does not say whose it is.
   */
  readonly keyId: string | null;
}

export interface AccountTimings {
  /** GET /trades cadence (see TradePoller). */
  poller?: Pick<TradePollerOptions, 'activeIntervalMs' | 'idleIntervalMs' | 'nudgeGraceMs' | 'fullSweepEveryMs'>;
  /** Between polls of a crypto withdrawal (default 5 s; the route allows 30 a minute). */
  withdrawalPollMs?: number;
  /** How often the undercut guards look at the book (default 3 s), and their cooldown between edits. */
  guardCheckMs?: number;
  guardCooldownMs?: number;
  /** Waits between attempts to meet the key's account while GET /user fails (default MEET_RETRY_MS). */
  meetRetryMs?: readonly number[];
  /** After a lost list or withdraw, how long an unchanged backpack row is not yet taken as "not sent" (default 30 s). */
  moveNotSentAfterMs?: number;
}

function notConnected(name: EndpointName): ApiError {
  return new ApiError({
    kind: 'network',
    route: rateLimitKey(name),
    message: 'not connected to the marketplace yet',
    explanation: 'Not connected to the marketplace yet.',
    maybeDelivered: false,
  });
}

export class AccountSession {
  readonly market: MarketSide;
  readonly reads: AccountReads;
  readonly withdrawals: CryptoWithdrawalTracker;
  /** Crypto withdrawals journaled before sending; one whose outcome is unknown holds the next. */
  readonly withdrawalGuard: WithdrawalGuard;
  readonly portfolio: PortfolioHistory;
  readonly tradingPnl: TradingPnlStore;
  readonly undercut: UndercutGuards;
  /** The latest state seen of each backpack row (the pre-send checks of list draw on it). */
  readonly backpackSeen = new Map<number, BackpackItem>();
  /** The latest state seen of each own listing (old price and amount for edits). */
  readonly listingsSeen = new Map<number, MyListing>();
  /**
   * Inventory rows (by asset id) sent in an offer since their game's inventory was last read: the
   * deposit's id, or null when the answer to the sell or deposit was lost (they may be in an offer).
   * Kept in the desk, so that a restart does not let the stored read offer them again.
   */
  readonly inOffer: InventoryOffers;
  /**
   * Backpack items whose list or withdraw got no clear answer: the next send of one is checked against a
   * fresh read first. Kept in the desk, and written there before the send goes out, so that a restart or
   * a crash (even one while the request was out) does not let the repeat go out unchecked, each under the
   * marketplace and the account whose key sent it: another marketplace's never apply, nor another
   * account's once the key's account is met, and they are kept for their own account when the key turns
   * out to be another's (see unclear-moves.ts).
   */
  readonly unclearMoves: UnclearMoves;
  /** Aborts withdrawal follow loops when the session ends. */
  readonly stopping = new AbortController();
  readonly clock: Clock;
  readonly timings: AccountTimings;
  /** Anything the client can call, resolved at call time (the client appears after connecting). */
  readonly api: AccountApi;
  #feeds: TradeFeeds;
  #guardTimer: NodeJS.Timeout | null = null;
  /** Bumped by every start and stop: a start whose own-listings read outlived it does nothing. */
  #guardRun = 0;
  /** The key's account (accountKey), once meetAccount has read it in this session. */
  #metAccount: string | null = null;
  /** The account (accountKey: market origin and user id) the account tables hold the data of. */
  readonly #identity: { read: Statement<[], StoredIdentity>; write: Statement<[string, string | null]> };

  constructor(
    market: MarketSide,
    options: {
      /**
       * The account behind the market is new (a demo market just started, with a new demo account): what
       * an earlier one left in the account tables (trades followed, listings, withdrawals) is forgotten.
       */
      newAccount: boolean;
      clock?: Clock;
      timings?: AccountTimings;
      /** Where a problem worked around goes (the app's log). */
      warn?: (message: string) => void;
      /** Whether the book is live (guards act only then: a resyncing book may show rivals that left). */
      bookLive?: () => boolean;
      /** The kill switch (stops every automatic action, guards included). */
      halted?: () => boolean;
      onGuardChange?: (guard: GuardView) => void;
    },
  ) {
    this.market = market;
    this.clock = options.clock ?? systemClock;
    this.timings = options.timings ?? {};
    this.api = {
      call: (name, input, opts) => {
        const client = this.market.client;
        if (!client) return Promise.reject(notConnected(name));
        return client.call(name, input as never, opts);
      },
    };
    const db = market.db;
    // a new key's account not met yet: the stored reads are the previous key's account's
    this.reads = new AccountReads({ api: this.api, db, clock: this.clock, storedUsable: () => !this.awaitingAccount });
    createDeskTables(db, IDENTITY_SCHEMA);
    addDeskColumn(db, 'account_identity', 'key_id', 'TEXT');
    this.#identity = {
      read: db.prepare<[], StoredIdentity>('SELECT account, key_id FROM account_identity WHERE id = 1'),
      write: db.prepare<[string, string | null]>('INSERT OR REPLACE INTO account_identity (id, account, key_id) VALUES (1, ?, ?)'),
    };
    this.withdrawals = new CryptoWithdrawalTracker({
      source: { call: (name, input, opts) => this.api.call(name, input, opts) },
      db,
      clock: this.clock,
      ...(this.timings.withdrawalPollMs ? { intervalMs: this.timings.withdrawalPollMs } : {}),
    });
    const journal = new WithdrawalJournal(db);
    // a send the previous run of the app never heard back from may have reached the marketplace
    journal.markInterrupted();
    this.withdrawalGuard = new WithdrawalGuard({
      journal,
      clock: this.clock,
      knownIds: () => this.withdrawals.list().map((w) => w.withdrawal_id),
    });
    this.inOffer = new InventoryOffers(db);
    this.portfolio = new PortfolioHistory({ db });
    this.tradingPnl = new TradingPnlStore(db);
    const bookLive = options.bookLive ?? (() => true);
    this.undercut = new UndercutGuards({
      db,
      now: () => this.clock.now(),
      // a new key's account not met yet: the guards are the previous key's account's
      canAct: () => this.market.client !== null && bookLive() && !this.awaitingAccount,
      ownListingIds: () => this.listingsSeen.keys(),
      ...(options.halted ? { halted: options.halted } : {}),
      reprice: async (listingId, price) => {
        try {
          // background: an edit the user makes by hand goes first within the route's 30 a minute
          return ((await this.client().editListing({ listing_id: listingId, price }, { priority: 'background' })) as LeanListing).price;
        } finally {
          // even when its answer was lost: the price may have changed
          this.reads.invalidate('myListingsValue');
        }
      },
      ...(options.onGuardChange ? { onChange: options.onGuardChange } : {}),
      ...(this.timings.guardCooldownMs !== undefined ? { cooldownMs: this.timings.guardCooldownMs } : {}),
    });
    this.unclearMoves = new UnclearMoves({
      db,
      scope: () => {
        const client = this.market.client;
        return { market: client ? new URL(client.baseUrl).origin : null, account: this.#metAccount };
      },
      now: () => this.clock.now(),
      ...(options.warn ? { warn: options.warn } : {}),
    });
    this.#feeds = this.buildFeeds(null);
    if (options.newAccount) {
      this.#forgetAccountState();
      assignOpenPurchases(db, 'an earlier demo market, gone since');
      assignOpenWithdrawals(db, 'an earlier demo market, gone since');
      assignUnclearMoves(db, 'an earlier demo market, gone since');
    }
  }

  /**
   * The balance last read, from whichever read is newer: the status bar's (every 30 s, and after each
   * purchase) or the account screens' cached GET /user. The wallet's check used the latter alone and
   * refused a withdrawal a sale had since covered, while the status bar showed the new balance.
   */
  latestBalance(): number | null {
    // the status bar's copy is not the account reads': it is the previous key's account's as well
    if (this.awaitingAccount) return null;
    const screens = this.reads.cached('user');
    const statusBar = this.market.db.open ? new Caches(this.market.db).get<User>(USER_CACHE_KEY) : null;
    if (!statusBar) return screens?.data.balance ?? null;
    if (!screens || statusBar.fetchedAt > screens.fetchedAt) return statusBar.value.balance;
    return screens.data.balance;
  }

  /** Runs the undercut guards on a timer while connected (each check reads the local book only). */
  startGuards(log: (message: string) => void): void {
    this.stopGuards();
    // Guards kept from an earlier run must know the seller's other stacks before their first check (a
    // stack not known as ours would count as a rival): one read of the active listings first.
    const running = this.undercut.list().some((g) => g.state !== 'stopped');
    const known = running
      ? this.reads
          .myListings({ status: 'ACTIVE', page: '1', limit: '100' })
          .then((read) => this.rememberListings(read.data.listings))
          .catch((err: unknown) => log(`undercut guards: own listings not read (${err instanceof Error ? err.message : String(err)}); checking anyway`))
      : Promise.resolve();
    const run = ++this.#guardRun;
    void known.then(() => {
      // stopped (or started again) while the read was out: that later call decides
      if (run !== this.#guardRun || this.stopping.signal.aborted) return;
      this.#startGuardTimer(log);
    });
  }

  #startGuardTimer(log: (message: string) => void): void {
    if (this.#guardTimer) clearInterval(this.#guardTimer);
    this.#guardTimer = setInterval(() => {
      this.undercut.check().catch((err: unknown) => log(`undercut guards: ${err instanceof Error ? err.message : String(err)}`));
    }, this.timings.guardCheckMs ?? 3_000);
    this.#guardTimer.unref();
  }

  stopGuards(): void {
    this.#guardRun++;
    if (this.#guardTimer) clearInterval(this.#guardTimer);
    this.#guardTimer = null;
  }

  get feeds(): TradeFeeds {
    return this.#feeds;
  }

  /** Builds trade feeds over this session's database (the tracker's state is in SQLite, so rebuilding loses nothing). */
  buildFeeds(webhook: TradeFeedsOptions['webhook']): TradeFeeds {
    const feeds = new TradeFeeds({
      db: this.market.db,
      clock: this.clock,
      source: { call: (name, input, opts) => this.api.call(name, input, opts) },
      ...(this.timings.poller ? { poller: this.timings.poller } : {}),
      webhook: webhook && { ...webhook, serverOffsetMs: () => this.market.client?.serverTimeOffsetMs() ?? null },
    });
    // a deposit accepted brings items into the backpack (or lists them), a withdrawal that failed brings
    // them back: either way the stored backpack pages and listed value are out of date
    feeds.tracker.on('change', () => this.itemsMoved());
    return feeds;
  }

  /** Swaps in new feeds (after a webhook setting changed); the caller stops the old ones. */
  replaceFeeds(feeds: TradeFeeds): TradeFeeds {
    const old = this.#feeds;
    this.#feeds = feeds;
    return old;
  }

  /** The REST client for a write; refuses (in plain words) while not connected. */
  client(): ApiClient {
    const client = this.market.client;
    if (!client) {
      throw new SkindeskError({
        code: 'UNAVAILABLE',
        message: 'Not connected to the marketplace yet; nothing was sent. Try again once the status bar says live.',
      });
    }
    return client;
  }

  /**
   * Items moved between the backpack, the listings and the Steam inventory by this app (a list, withdraw,
   * delist or amount edit sent, a purchase, a trade's status changed): no stored backpack page or listed
   * value is served as fresh again, so the portfolio never counts an item listed from the backpack at
   * its asking price and, from a backpack page read before, at market price too.
   */
  itemsMoved(): void {
    this.reads.invalidate('backpack', 'myListingsValue');
  }

  rememberBackpack(items: readonly BackpackItem[]): void {
    for (const item of items) this.backpackSeen.set(item.id, item);
  }

  rememberListings(listings: readonly MyListing[]): void {
    for (const listing of listings) this.listingsSeen.set(listing.id, listing);
  }

  /**
   * The account (accountKey) the key in use belongs to, once meetAccount has read it (null before, or
   * when it could not): the purchase journal names each purchase's account with it. The stored identity
   * is not enough: until meetAccount answers, it may be the previous key's account.
   */
  get account(): string | null {
    return this.#metAccount;
  }

  /**
   * Whether the key in use is not the one the stored account was met with, and its own account is not met
   * yet: the account tables may then hold another account's trades, guards and reads, which are neither
   * shown nor acted on as this key's until meetAccount says whose it is. The same key offline is not
   * waiting: its stored account keeps serving the offline views. Nor is a file whose account was met
   * before the key's identity was kept (nothing tells its key apart).
   */
  get awaitingAccount(): boolean {
    if (this.#metAccount !== null || this.market.keyId === null || !this.market.db.open) return false;
    const stored = this.#identity.read.get();
    return stored !== undefined && stored.key_id !== null && stored.key_id !== this.market.keyId;
  }

  /** Refuses, in plain words, what would act on the account's trades while its account is awaited. */
  requireKnownAccount(): void {
    if (!this.awaitingAccount) return;
    throw new SkindeskError({
      code: 'UNAVAILABLE',
      message:
        'Whose account this API key belongs to is not known yet: the marketplace has not answered. Its trades are followed once it does; Skindesk keeps asking.',
    });
  }

  /**
   * The trades followed of the key's account: none known while its account is awaited (those the tracker
   * holds are the previous key's account's).
   */
  tradesOfKey(): Trade[] {
    return this.awaitingAccount ? [] : this.#feeds.tracker.list();
  }

  /** Trades in flight of the key's account, as the 15-trade limit counts them (none known while awaited, as tradesOfKey). */
  tradesInFlight(): number {
    return this.awaitingAccount ? 0 : this.#feeds.tracker.inFlightCount();
  }

  /**
   * Crypto withdrawals of this key's account whose outcome is unknown (they hold new ones): the account
   * as met, and before that (or offline) every open entry of this market, since any may be this one's.
   */
  unsettledWithdrawals(): WithdrawalAttempt[] {
    return this.withdrawalGuard.open(this.account, this.market.client?.baseUrl ?? null);
  }

  async stop(): Promise<void> {
    this.stopping.abort(new DOMException('the account session ended', 'AbortError'));
    // a crypto withdrawal or an item move on its way writes its answer (or its loss) on this session's
    // database (see WithdrawalGuard.idle, UnclearMoves.idle); bounded, so that a send waiting long for its
    // rate budget cannot hold the app's quit (its entry, written before it went out, is then taken as of
    // unknown outcome by the next run)
    const answered = Promise.all([this.withdrawalGuard.idle(), this.unclearMoves.idle()]);
    await Promise.race([answered, new Promise<void>((resolve) => setTimeout(resolve, SEND_ANSWER_WAIT_MS).unref())]);
    await this.#feeds.stop();
  }

  /**
   * Reads who the key belongs to and compares it with the account the stored data is of. A key replaced
   * on the same market may be another account's: its trades, guards, withdrawals and cached reads
   * (inventory item tokens are tied to the account) would otherwise be shown and acted on as this one's.
   * 'other': that data was forgotten (also when the read failed but the data is another market's
   * account's). 'unknown': the market did not answer (offline, say): nothing is changed.
   */
  async meetAccount(): Promise<'same' | 'other' | 'first' | 'unknown'> {
    const client = this.market.client;
    const storedIdentity = this.#identity.read.get()?.account ?? null;
    const storedId = this.reads.cached('user')?.data.id ?? null;
    let freshId: number | null;
    try {
      const read = await this.reads.user({ priority: 'background', signal: this.stopping.signal });
      // the stored record, served because the market did not answer, is the previous key's
      freshId = read.fromCache ? null : read.data.id;
    } catch {
      freshId = null;
    }
    if (!client) return 'unknown';
    if (freshId === null) {
      // whatever account the key is, the stored data of another market's account is not this one's
      if (storedIdentity === null || isAccountOf(storedIdentity, client.baseUrl)) return 'unknown';
      this.#forgetAccountState();
      return 'other';
    }
    // one account on one market: two marketplaces may both have an account 42 (files from before the
    // identity was kept compare the user id alone)
    const identity = accountKey(client.baseUrl, freshId);
    this.#metAccount = identity;
    const first = storedIdentity === null && storedId === null;
    const same = storedIdentity === null ? storedId === freshId : storedIdentity === identity;
    if (first || same) {
      this.#identity.write.run(identity, this.market.keyId);
      return first ? 'first' : 'same';
    }
    this.#forgetAccountState();
    this.#identity.write.run(identity, this.market.keyId);
    // the read just made was forgotten with the rest: the new account's user row is read again
    await this.reads.user({ priority: 'background', signal: this.stopping.signal }).catch(() => undefined);
    return 'other';
  }

  #forgetAccountState(): void {
    // what was seen in memory of the previous account's items, and its moves of unknown outcome kept in
    // memory (those in the desk name their marketplace and account, and are kept for them: unclear-moves.ts)
    this.backpackSeen.clear();
    this.listingsSeen.clear();
    this.unclearMoves.clear();
    const db = this.market.db;
    db.transaction(() => {
      for (const table of ACCOUNT_TABLES) {
        // every schema: the account's tables live in the attached desk file (desk.ts)
        const exists = db.prepare("SELECT 1 FROM pragma_table_list WHERE type = 'table' AND name = ?").get(table);
        if (exists) db.prepare(`DELETE FROM ${table}`).run();
      }
      // the balance keeps its own copy of the user record, among the market's caches
      new Caches(db).delete(USER_CACHE_KEY);
    })();
  }
}
