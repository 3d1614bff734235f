/**
 * Handlers of the watchlists screen's calls (src/shared/ipc/calls-watch.ts), and the app's watch service:
 * one per market session, over that session's database (demo watchlists never buy on the real market),
 * fed by its sync engine's applied batches and status, alerting through the platform's notifications
 * and the IPC pushes.
 */
import type { Watchlist, WatchlistDefinition, WatchlistInput } from '../../../shared/watchlist.ts';
import { formatCents } from '../../../shared/money.ts';
import { asSentence } from '../../../shared/sentence.ts';
import type { BookFilter } from '../../../shared/query.ts';
import { SkindeskError } from '../../../shared/ipc/index.ts';
import { type AutoBuyEntryView, type WATCH_CALLS, type WatchAlertView, watchAlertsPush } from '../../../shared/ipc/calls-watch.ts';
import { BLOCK_REASONS, type BlockReason } from '../../watch/guardrails.ts';
import {
  type AutoBuyLogEntry,
  type WatchAlert,
  WatchError,
  WebhookPostError,
  postWebhook,
  webhookPayload,
  WatchService,
  WatchlistNameTaken,
  WatchlistNotFound,
} from '../../watch/index.ts';
import type { AppCore } from '../app-core.ts';
import type { MarketSession } from '../session.ts';
import { purchasing } from '../market-buying/session-purchaser.ts';
import type { AreaHandlers } from './types.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export function entryView(e: AutoBuyLogEntry): AutoBuyEntryView {
  return {
    id: e.id,
    at: iso(e.atMs),
    watchlistId: e.watchlistId,
    alertId: e.alertId,
    listingId: e.listingId,
    marketHashName: e.marketHashName,
    maxPrice: e.maxPrice,
    amount: e.amount,
    triggerSeq: e.triggerSeq.toString(),
    mode: e.mode,
    decision: e.decision,
    status: e.status,
    reason: e.reason !== null ? (BLOCK_REASONS[e.reason as BlockReason] ?? e.reason) : e.error,
    orderId: e.orderId,
  };
}

/** A name for a watchlist made from a filter in one click: what the filter says, briefly. */
export function nameFromFilter(filter: BookFilter): string {
  const parts: string[] = [];
  if (filter.name) parts.push(filter.name);
  if (filter.float) parts.push(`float ${filter.float.min ?? 0}–${filter.float.max ?? 1}`);
  if (filter.paint_seeds?.length) parts.push(`seed ${filter.paint_seeds.slice(0, 3).join(', ')}${filter.paint_seeds.length > 3 ? '…' : ''}`);
  if (filter.phases) parts.push(filter.phases.join(' / '));
  if (filter.stickers?.all?.length) parts.push(`stickers ${filter.stickers.all.map((s) => s.name ?? 'any').join(' + ')}`);
  if (filter.stattrak) parts.push('StatTrak');
  if (filter.price?.max !== undefined) parts.push(`≤ ${formatCents(filter.price.max)}`);
  const text = parts.join(', ') || 'Whole book';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The app's watch service, following the current market session. */
export class AppWatch {
  readonly #core: AppCore;
  #session: MarketSession | null = null;
  #service: WatchService | null = null;
  #unhook: (() => void) | null = null;
  #byId = new Map<number, Watchlist>();

  constructor(core: AppCore) {
    this.#core = core;
    // a market switch replaces the session: the first push after it moves the service over
    core.subscribe(() => {
      if (this.#session !== null && this.#session !== core.session) this.service();
    });
    // at once, so no event of the session's engine passes unjudged
    this.service();
  }

  /** The service of the current session (created on first use, replaced after a market switch). */
  service(): WatchService {
    const session = this.#core.session;
    if (this.#service && this.#session === session) return this.#service;
    this.#unhook?.();
    const old = this.#service;
    if (old) void old.close().catch((err: unknown) => this.#core.log.warn(`closing the previous watchlists failed: ${String(err)}`));
    const core = this.#core;
    const service = new WatchService({
      db: session.db,
      notify: (title, body) => core.platform.notify(title, body),
      onWarning: (message) => core.log.warn(`watchlists: ${message}`),
      onJudgeFailure: (error) => core.backgroundFailure('watchlists: a feed event could not be judged', error),
      onAlertWebhookFailure: (message) => {
        core.log.warn(`watchlists: ${message}`);
        core.notify('warning', 'Watchlist alerts', asSentence(message));
      },
    });
    this.#session = session;
    this.#service = service;
    this.#byId = new Map(service.list().map((w) => [w.id, w]));
    service.on('watchlists', (watchlists) => {
      this.#byId = new Map(watchlists.map((w) => [w.id, w]));
      core.publish('watchlistsChanged', { watchlists });
    });
    service.on('alerts', (alerts) => core.publish('watchAlerts', watchAlertsPush(alerts.map((a) => this.alertView(a)), [])));
    service.on('alertState', (alert) => core.publish('watchAlerts', watchAlertsPush([], [this.alertView(alert)])));
    service.on('purchase', (entry) => this.#publishAutoBuy([entry]));
    service.on('killSwitch', () => this.#publishAutoBuy([]));
    this.#unhook = session.onMirror((mirror) => {
      const client = session.client;
      service.attachMarket(client, client ? purchasing(core, session).purchaser : null);
      mirror.on('received', (event) => service.onArrived(event));
      mirror.on('applied', (events) => service.onApplied(events));
      // details the backfill stored: listings a detail condition could not match before
      mirror.on('backfill', (progress) => service.onBackfillProgress(progress));
      mirror.on('status', (status) => {
        const was = service.bookLive;
        service.onStatus(status.state);
        if (was !== service.bookLive) this.#publishAutoBuy([]);
        // the session is closing (or the key was refused): nothing more will arrive
        if (status.state === 'stopped') void service.close();
      });
    });
    core.publish('watchlistsChanged', { watchlists: service.list() });
    return service;
  }

  alertView(a: WatchAlert): WatchAlertView {
    const w = this.#byId.get(a.watchlistId);
    return {
      id: a.id,
      at: iso(a.atMs),
      watchlistId: a.watchlistId,
      watchlistName: a.watchlistName,
      listingId: a.listingId,
      appId: a.appId as WatchAlertView['appId'],
      marketHashName: a.marketHashName,
      price: a.price,
      amount: a.amount,
      seq: a.seq.toString(),
      referencePrice: a.referencePrice,
      ceiling: a.ceiling,
      origin: a.origin,
      state: a.state,
      mode: w?.auto_buy.mode ?? 'off',
      sound: w?.alerts.sound ?? false,
    };
  }

  autoBuyState(limit = 100) {
    const s = this.service();
    return { killSwitch: s.killSwitch, live: s.bookLive, log: s.log(limit).map(entryView) };
  }

  #publishAutoBuy(entries: AutoBuyLogEntry[]): void {
    const s = this.#service;
    if (!s) return;
    this.#core.publish('autoBuyChanged', { killSwitch: s.killSwitch, live: s.bookLive, entries: entries.map(entryView) });
  }
}

/** Core watch errors in the IPC's words. */
function translate<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    throw toSkindeskError(err);
  }
}

function toSkindeskError(err: unknown): unknown {
  if (err instanceof WatchlistNameTaken) return new SkindeskError({ code: 'REFUSED', message: `Not saved: ${err.message}.` });
  if (err instanceof WatchlistNotFound) return new SkindeskError({ code: 'REFUSED', message: 'That watchlist no longer exists.' });
  if (err instanceof WatchError) return new SkindeskError({ code: 'REFUSED', message: err.message });
  return err;
}

/** A name not yet taken: "AK-47", then "AK-47 (2)"... */
function freeName(service: WatchService, base: string): string {
  const taken = new Set(service.list().map((w) => w.name));
  if (!taken.has(base)) return base;
  for (let n = 2; n < 1_000; n++) {
    const candidate = `${base.slice(0, 90)} (${n})`;
    if (!taken.has(candidate)) return candidate;
  }
  return `${base.slice(0, 80)} ${Date.now()}`;
}

export function createWatchHandlers(core: AppCore): AreaHandlers<typeof WATCH_CALLS> {
  const watch = new AppWatch(core);
  return {
    listWatchlists: () => ({ watchlists: watch.service().list() }),

    createWatchlist: ({ filter, name, price, watchlist }) => {
      const service = watch.service();
      const condition: WatchlistDefinition['price'] =
        price ??
        watchlist?.price ??
        (filter.price?.max !== undefined
          ? { kind: 'ceiling', max_price: Math.max(1, filter.price.max) }
          : { kind: 'below', reference: 'average_30d', percent: 10 });
      const input: WatchlistInput = {
        ...watchlist,
        // a name given is kept (a clash is refused); one made from the filter gets a number if taken
        name: name ?? watchlist?.name ?? freeName(service, nameFromFilter(filter)),
        filter,
        price: condition,
      };
      return translate(() => service.create(input));
    },

    updateWatchlist: ({ id, watchlist }) => translate(() => watch.service().update(id, watchlist)),
    setWatchlistPaused: ({ id, paused }) => translate(() => watch.service().setPaused(id, paused)),
    deleteWatchlist: ({ id }) => ({ deleted: watch.service().delete(id) }),

    listWatchAlerts: ({ limit, afterId }) => ({ alerts: watch.service().alerts(limit, afterId).map((a) => watch.alertView(a)) }),
    dismissWatchAlert: ({ id }) => watch.alertView(translate(() => watch.service().dismiss(id))),
    confirmWatchAlert: async ({ id }) => {
      try {
        return entryView(await watch.service().confirm(id));
      } catch (err) {
        throw toSkindeskError(err);
      }
    },

    getAutoBuyState: ({ limit }) => watch.autoBuyState(limit),
    setAutoBuyKillSwitch: ({ engaged }) => {
      watch.service().setKillSwitch(engaged);
      core.notify(engaged ? 'warning' : 'info', 'Auto-buy', engaged ? 'Kill switch engaged: no watchlist will buy and no undercut guard will reprice until it is released.' : 'Kill switch released: watchlists buy again within their guardrails, and undercut guards act again.');
      return watch.autoBuyState();
    },

    testAlertWebhook: async ({ url }) => {
      const payload = webhookPayload('Skindesk test alert', 'This webhook will receive your watchlist alerts.', []);
      try {
        await postWebhook(url, payload);
        return { ok: true, problem: null };
      } catch (err) {
        if (err instanceof WebhookPostError) return { ok: false, problem: `${err.message}.` };
        throw err;
      }
    },
  };
}
