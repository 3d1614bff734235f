/**
 * The account side of the app over its lifetime: one AccountSession per market session, the trade
 * feeds started once the session is connected (the poller always; the webhook receiver when enabled,
 * on its local port, with the signing secret from the SecretStore), the tradesUpdated and
 * withdrawalUpdated pushes, and an OS notification on each status change (configurable).
 *
 * AppCore calls attach → connected → detach around each market session, so the feeds never outlive
 * the database they write to.
 */
import { FINAL_TRADE_STATUSES } from '../../../shared/api/index.ts';
import type { TradeFeedSettings, TradeFeedView } from '../../../shared/ipc/calls-account.ts';
import {
  type IpcPushName,
  type IpcPushPayload,
  type Notification,
  SkindeskError,
} from '../../../shared/ipc/index.ts';
import { formatCents } from '../../../shared/money.ts';
import { isWithdrawalFinal } from '../../account/crypto-withdrawal.ts';
import { attemptWords } from '../../account/withdrawal-guard.ts';
import type { Clock } from '../../api/clock.ts';
import { describeStatusChange } from '../../trades/status-words.ts';
import type { TradePoller } from '../../trades/poller.ts';
import type { TradeChange } from '../../trades/tracker.ts';
import type { AppLog } from '../log.ts';
import type { DemoMarketHandle } from '../market.ts';
import type { AppPlatform } from '../platform.ts';
import { killSwitchEngaged } from '../../watch/index.ts';
import { AccountSession, type AccountTimings, type MarketSide } from './account-session.ts';
import { TradeFeedSettingsStore } from './trade-feed-settings.ts';
import { accountNoticeTitle } from './notice-title.ts';
import { attemptView, guardView, withdrawalViewOf } from './views.ts';
import { checkUnsettledWithdrawals } from './withdrawal-check.ts';

/** What the runtime needs of a market session (MarketSession satisfies it). */
export interface AttachableMarket extends MarketSide {
  readonly choice: { mode: 'demo' | 'real' };
  readonly demo: DemoMarketHandle | null;
  /** The book's sync state: the undercut guards act only while it is live. */
  status(): { state: string };
}

export interface AccountRuntimeOptions {
  dataDir: string;
  platform: AppPlatform;
  publish: <P extends IpcPushName>(name: P, payload: IpcPushPayload<P>) => void;
  notify: (level: Notification['level'], title: string, message: string, topic?: string) => void;
  log: AppLog;
  /** The stored webhook signing secret (read when the receiver starts). */
  webhookSecret: () => string | null;
  timings?: AccountTimings;
  clock?: Clock;
}

interface Current {
  market: AttachableMarket;
  account: AccountSession;
  /** The feeds, the guards and the withdrawals' follow-up run (once connected, and the key's account may be acted on). */
  connected: boolean;
  /** Cancels the next attempt to meet the key's account (see #meet). */
  cancelMeeting: () => void;
  /** Trades created before this moment are history: seeing them the first time is not news. */
  since: number;
  /** The check of unknown crypto withdrawals run at connecting (see #checkUnsettledWithdrawals). */
  checkingWithdrawals: Promise<void>;
}

type ReceiverState = TradeFeedView['receiver']['state'];

/** Waits between attempts to meet the key's account while the market does not answer GET /user; the last repeats. */
export const MEET_RETRY_MS: readonly number[] = [2_000, 5_000, 15_000, 30_000, 60_000];

/** The notices about whose account the key is: each replaces the one before ("not known yet", then the answer). */
const ACCOUNT_TOPIC = 'account';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export class AccountRuntime {
  readonly settings: TradeFeedSettingsStore;
  readonly #options: AccountRuntimeOptions;
  #current: Current | null = null;
  #receiver: { state: ReceiverState; localUrl: string | null; problem: string | null } = {
    state: 'off',
    localUrl: null,
    problem: null,
  };
  /** Feed reconfigurations run one at a time (a port must be free before the next receiver binds it). */
  #reconfiguring: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(options: AccountRuntimeOptions) {
    this.#options = options;
    this.settings = new TradeFeedSettingsStore(options.dataDir);
    if (this.settings.loadProblem) options.notify('warning', 'Trade feeds', this.settings.loadProblem);
  }

  // ---- session lifecycle ------------------------------------------------------------------------

  /**
   * A market session was opened (its database is readable, the network is not up yet). `newAccount`: the
   * session will meet an account the tables never saw (a demo market about to start).
   */
  attach(market: AttachableMarket, newAccount: boolean): void {
    if (this.#closed) return;
    const account = new AccountSession(market, {
      newAccount,
      warn: (message) => this.#options.log.warn(message),
      bookLive: () => market.status().state === 'live',
      halted: () => killSwitchEngaged(market.db),
      onGuardChange: (guard) => {
        if (this.#current?.account === account) this.#options.publish('undercutGuardChanged', guardView(guard));
      },
      ...(this.#options.clock ? { clock: this.#options.clock } : {}),
      ...(this.#options.timings ? { timings: this.#options.timings } : {}),
    });
    account.withdrawals.on('update', ({ withdrawal, previousStatus }) => {
      if (this.#current?.account !== account) return;
      this.#options.publish('withdrawalUpdated', withdrawalViewOf(account.withdrawals, withdrawal));
      if (previousStatus !== withdrawal.status && isWithdrawalFinal(withdrawal)) this.#notifyWithdrawal(market, withdrawal);
    });
    account.withdrawals.on('poll_error', (error, id) =>
      this.#options.log.warn(`crypto withdrawal ${id}: ${error.message}`),
    );
    // the card says when its status was last seen and why not since, and stops saying it once seen again
    account.withdrawals.on('check_trouble', (id) => {
      const withdrawal = account.withdrawals.get(id);
      if (this.#current?.account !== account || !withdrawal) return;
      this.#options.publish('withdrawalUpdated', withdrawalViewOf(account.withdrawals, withdrawal));
    });
    this.#current = {
      market,
      account,
      connected: false,
      cancelMeeting: () => {},
      since: Date.now(),
      checkingWithdrawals: Promise.resolve(),
    };
  }

  /**
   * The session's REST client is up: meet the key's account, then start the trade feeds, resume following
   * unsettled withdrawals, and check once the crypto withdrawals whose outcome is unknown (after a restart,
   * a session replaced). A new key whose account the market does not say yet starts none of it: the
   * stored data may be another account's (AccountSession.awaitingAccount); it starts once met (#meet).
   */
  async connected(market: AttachableMarket): Promise<void> {
    const current = this.#current;
    if (!current || current.market !== market || this.#closed || !market.client) return;
    if (market.choice.mode === 'real') await this.#meet(current, 0);
    if (this.#current !== current || this.#closed) return;
    if (current.account.awaitingAccount) {
      this.#options.notify(
        'warning',
        'Account not known yet',
        "Whose account this API key belongs to could not be read: the marketplace did not answer. Until it does, the previous key's trades, undercut guards and cached account reads are neither shown nor acted on; Skindesk keeps asking.",
        ACCOUNT_TOPIC,
      );
      return;
    }
    await this.#begin(current);
  }

  /** Starts what acts on the key's account: the guards, the withdrawals' follow-up and check, the trade feeds. */
  async #begin(current: Current): Promise<void> {
    current.connected = true;
    current.account.startGuards((message) => this.#options.log.warn(message));
    for (const pending of current.account.withdrawals.resumePending({ signal: current.account.stopping.signal })) {
      pending.catch((err: unknown) => this.#quietAbort(err, 'following a crypto withdrawal'));
    }
    current.checkingWithdrawals = this.#checkUnsettledWithdrawals(current);
    await this.reconfigure();
  }

  /**
   * Meets the key's account (AccountSession.meetAccount); while the market does not say whose the key is,
   * asks again after a wait (meetRetryMs, the last repeated). Met once at connecting and never again, one
   * failed GET /user (a 503, a timeout, a 429) left a new key's account unknown, and the previous
   * account's data in use as this key's, for the whole session.
   */
  async #meet(current: Current, attempt: number): Promise<'same' | 'other' | 'first' | 'unknown'> {
    const { account } = current;
    const met = await account.meetAccount();
    if (this.#current !== current || this.#closed) return met;
    if (met === 'other') {
      this.#options.notify(
        'warning',
        'Another account',
        'This API key belongs to another account than the stored data: the trades, withdrawals, undercut guards and cached account reads of the previous one were cleared.',
        ACCOUNT_TOPIC,
      );
    }
    if (account.account === null) {
      const waits = account.timings.meetRetryMs?.length ? account.timings.meetRetryMs : MEET_RETRY_MS;
      const wait = waits[Math.min(attempt, waits.length - 1)] as number;
      current.cancelMeeting = account.clock.setTimer(wait, () => void this.#meetAgain(current, attempt + 1));
    }
    return met;
  }

  /** A later attempt to meet the key's account (#meet): what waited for it starts, what ran on forgotten data restarts. */
  async #meetAgain(current: Current, attempt: number): Promise<void> {
    try {
      const wasRunning = current.connected;
      const met = await this.#meet(current, attempt);
      if (this.#current !== current || this.#closed || current.account.account === null) return;
      // the same key, offline until now: what runs already runs on its own account's data
      if (wasRunning && met !== 'other') return;
      if (wasRunning) {
        // the tracker's trades were forgotten under the running feeds: new ones sweep the new account's
        await this.reconfigure();
      } else {
        if (met !== 'other') {
          this.#options.notify('info', 'Account', "This API key's account was read: its stored trades, guards and account reads are in use again.", ACCOUNT_TOPIC);
        }
        await this.#begin(current);
      }
      // the screens showed none of the account's trades meanwhile (or the forgotten ones): read them again
      this.#options.publish('tradesUpdated', { trades: [] });
    } catch (err) {
      this.#quietAbort(err, 'reading whose account the API key is');
    }
  }

  /** The session is about to close: stop everything that writes to its database. */
  async detach(market: AttachableMarket): Promise<void> {
    const current = this.#current;
    if (!current || current.market !== market) return;
    this.#current = null;
    current.cancelMeeting();
    current.account.stopGuards();
    await this.#reconfiguring;
    await this.#stopFeeds(current);
    // its reads end with the session (stopFeeds stopped it): what it writes is written before the database closes
    await current.checkingWithdrawals;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const current = this.#current;
    if (current) await this.detach(current.market);
  }

  /** The account session of the market in use; refused while none is open. */
  account(): AccountSession {
    const current = this.#current;
    if (!current) throw new SkindeskError({ code: 'UNAVAILABLE', message: 'The market is switching; try again in a moment.' });
    return current.account;
  }

  /** Whether `market`'s key is new and its account not met yet: what is stored may be another account's. */
  awaitingAccountOf(market: AttachableMarket): boolean {
    const current = this.#current;
    return current?.market === market && current.account.awaitingAccount;
  }

  /** The account (accountKey) the key of `market`'s session belongs to, once met (see meetAccount; asked again while unknown). */
  accountOf(market: AttachableMarket): string | null {
    const current = this.#current;
    return current?.market === market ? current.account.account : null;
  }

  /** A purchase on `market` may have brought items into its backpack (see AccountSession.itemsMoved). */
  itemsBought(market: AttachableMarket): void {
    if (this.#current?.market === market) this.#current.account.itemsMoved();
  }

  get demo(): boolean {
    return this.#current?.market.choice.mode === 'demo';
  }

  // ---- settings ------------------------------------------------------------------------------------

  view(): TradeFeedView {
    const feeds = this.#current?.account.feeds ?? null;
    const receiverStats = feeds?.receiver?.stats() ?? null;
    return {
      settings: this.settings.get(),
      secretSet: Boolean(this.#secretFor(this.#current)),
      receiver: {
        ...this.#receiver,
        accepted: receiverStats?.accepted ?? 0,
        rejected: receiverStats ? Object.values(receiverStats.rejected).reduce((a, b) => a + b, 0) : 0,
      },
      poller: this.#pollerView(),
      demo: this.demo,
    };
  }

  #pollerView(): TradeFeedView['poller'] {
    const feeds = this.#current?.account.feeds ?? null;
    const poller = feeds?.poller.stats() ?? null;
    return {
      running: feeds?.poller.running ?? false,
      lastPollAt: iso(poller?.lastPollAt ?? null),
      nextPollAt: iso(poller?.nextPollAt ?? null),
      lastError: poller?.lastError ?? null,
      failingSince: iso(poller?.failingSince ?? null),
    };
  }

  async updateSettings(next: TradeFeedSettings): Promise<TradeFeedView> {
    this.settings.set(next);
    await this.reconfigure();
    return this.view();
  }

  /** The stored signing secret changed (Settings): the receiver picks it up. */
  secretChanged(): void {
    void this.reconfigure();
  }

  // ---- feeds ---------------------------------------------------------------------------------------

  /** Rebuilds the trade feeds from the settings: the poller always, the receiver when enabled. */
  reconfigure(): Promise<void> {
    const run = async () => {
      const current = this.#current;
      if (!current?.connected || this.#closed) return;
      await this.#restartFeeds(current);
    };
    this.#reconfiguring = this.#reconfiguring.then(run, run);
    return this.#reconfiguring;
  }

  async #restartFeeds(current: Current): Promise<void> {
    const { webhook } = this.settings.get();
    const secret = webhook.enabled ? this.#secretFor(current) : null;
    const feeds = current.account.buildFeeds(
      secret ? { secret, port: webhook.port, headerPrefix: webhook.headerPrefix, log: (line) => this.#options.log.warn(line) } : null,
    );
    feeds.tracker.on('change', (change) => this.#onTradeChange(current, change));
    feeds.poller.on('poll_error', (error) => {
      this.#options.log.warn(`trade poll: ${error.message}`);
      this.#publishPoll(current, feeds.poller);
    });
    // every poll, good or not: the Trades screen's "polled … ago" and its line while polls fail follow it
    feeds.poller.on('poll', () => this.#publishPoll(current, feeds.poller));
    const old = current.account.replaceFeeds(feeds);
    // the old receiver must let go of the port before the new one binds it
    await old.stop().catch((err: unknown) => this.#options.log.warn(`stopping the trade feeds: ${String(err)}`));
    if (!webhook.enabled) this.#receiver = { state: 'off', localUrl: null, problem: null };
    else if (!secret) {
      this.#receiver = {
        state: 'no_secret',
        localUrl: null,
        problem: 'No webhook signing secret is stored: paste it in Settings (it is shown with your API key on the website).',
      };
    } else this.#receiver = { state: 'starting', localUrl: null, problem: null };
    try {
      const { webhookUrl } = await feeds.start();
      if (webhookUrl) this.#receiver = { state: 'listening', localUrl: webhookUrl, problem: null };
    } catch (err) {
      // The receiver could not bind; polling carries on alone.
      feeds.poller.start();
      const code = (err as NodeJS.ErrnoException).code;
      this.#receiver = {
        state: 'failed',
        localUrl: null,
        problem:
          code === 'EADDRINUSE'
            ? `Port ${webhook.port} is in use by another program; choose another port. Trades are polled meanwhile.`
            : `The webhook receiver could not start (${err instanceof Error ? err.message : String(err)}). Trades are polled meanwhile.`,
      };
    }
    await this.#registerWithDemo(current);
  }

  /** On the demo market the app plays the website's part: the receiver's URL is saved with the demo. */
  async #registerWithDemo(current: Current): Promise<void> {
    const hooks = current.market.demo?.webhooks;
    if (!hooks) return;
    try {
      await hooks.setUrl(this.#receiver.state === 'listening' ? this.#receiver.localUrl : null);
    } catch (err) {
      this.#options.log.warn(`demo webhook URL: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Only the feeds in use speak: a poller being replaced (or of a session gone) stays quiet. */
  #publishPoll(current: Current, poller: TradePoller): void {
    if (this.#current !== current || current.account.feeds.poller !== poller) return;
    this.#options.publish('tradePollChanged', this.#pollerView());
  }

  async #stopFeeds(current: Current): Promise<void> {
    await current.account.stop().catch((err: unknown) => this.#options.log.warn(`stopping the account session: ${String(err)}`));
    this.#receiver = { state: 'off', localUrl: null, problem: null };
  }

  #secretFor(current: Current | null): string | null {
    if (current?.market.demo?.webhooks) return current.market.demo.webhooks.secret;
    return this.#options.webhookSecret();
  }

  #onTradeChange(current: Current, change: TradeChange): void {
    if (this.#current !== current) return;
    this.#options.publish('tradesUpdated', { trades: [change.trade] });
    if (!this.settings.get().notifyOnStatusChange) return;
    // The first sweep brings the whole history: only trades that move while the app watches are news.
    if (change.previous === null && Date.parse(change.trade.created_at) < current.since) return;
    const text = describeStatusChange(change);
    if (!text) return;
    const level: Notification['level'] = !text.final
      ? 'info'
      : change.trade.status === 'Accepted'
        ? 'success'
        : FINAL_TRADE_STATUSES.includes(change.trade.status)
          ? 'warning'
          : 'info';
    const title = accountNoticeTitle(text.title, current.market.choice.mode);
    this.#options.platform.notify(title, text.body);
    // one toast per trade: its next status replaces it rather than stacking under it
    this.#options.notify(level, title, text.body, `trade:${change.trade.id}`);
  }

  #notifyWithdrawal(
    market: AttachableMarket,
    w: { withdrawal_id: number; status: string; balance_amount: number; token_amount: number; ticker: string },
  ): void {
    if (!this.settings.get().notifyOnStatusChange) return;
    const sent = w.status === 'SUCCESS';
    const title = accountNoticeTitle(`Crypto withdrawal #${w.withdrawal_id}: ${sent ? 'sent' : 'failed'}`, market.choice.mode);
    const body = sent ? `${w.token_amount} ${w.ticker} was sent.` : `It failed; ${formatCents(w.balance_amount)} went back to your balance.`;
    this.#options.platform.notify(title, body);
    this.#options.notify(sent ? 'success' : 'warning', title, body, `withdrawal:${w.withdrawal_id}`);
  }

  /**
   * Checks the crypto withdrawals of the key's account whose outcome is unknown, as "Check again" does,
   * without waiting for the trader: settles what the ledger or the balance shows, follows a withdrawal
   * found, and pushes withdrawalUpdated so the wallet shows it. Only once the key's account is known
   * (met on a real market; read fresh by the check itself): another account's entry is never settled
   * from this key's evidence. A check that fails leaves every entry unknown, and says so in the log.
   */
  async #checkUnsettledWithdrawals(current: Current): Promise<void> {
    const { account, market } = current;
    const log = this.#options.log;
    let open = 0;
    const which = () => (open === 1 ? 'A crypto withdrawal whose outcome is unknown' : `${open} crypto withdrawals whose outcome is unknown`);
    const stays = () => (open === 1 ? 'it stays unknown' : 'they stay unknown');
    try {
      open = account.unsettledWithdrawals().length;
      if (open === 0) return;
      if (market.choice.mode !== 'demo' && account.account === null) {
        log.warn(`${which()} could not be checked at connecting: the API key's account could not be read, so ${stays()} until checked again in the wallet.`);
        return;
      }
      const result = await checkUnsettledWithdrawals(account, log, { requireAccount: true, signal: account.stopping.signal });
      if (this.#current !== current) return;
      for (const attempt of result.settled) log.info(`Checked at connecting: ${attemptWords(attempt)}`);
      for (const attempt of [...result.settled, ...result.open]) {
        this.#options.publish('withdrawalUpdated', { attempt: attemptView(attempt) });
      }
    } catch (err) {
      if (account.stopping.signal.aborted) return;
      log.warn(
        `${which()} could not be checked at connecting (${err instanceof Error ? err.message : String(err)}), so ${stays()} until checked again in the wallet.`,
      );
    }
  }

  #quietAbort(err: unknown, what: string): void {
    if (err instanceof DOMException && err.name === 'AbortError') return;
    if (err instanceof Error && err.name === 'AbortError') return;
    this.#options.log.warn(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

