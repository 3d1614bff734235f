/** Handlers of the market screens' calls (src/shared/ipc/calls-market.ts). */
import { dirname } from 'node:path';
import type { AppId } from '../../../shared/api/index.ts';
import type { MARKET_CALLS, PurchaseReport } from '../../../shared/ipc/calls-market.ts';
import type { DopplerPhase } from '../../../shared/phases.ts';
import { SkindeskError, type SyncState } from '../../../shared/ipc/index.ts';
import { writeFileInPlace } from '../../export/file-in-place.ts';
import { bookViewText, salesTapeText } from '../../export/view-export.ts';
import { InvalidCursorError } from '../../query/cursor.ts';
import { type TapeFilter, readSalesTape } from '../../query/sales-tape.ts';
import { readListing } from '../../store/index.ts';
import type { AppCore } from '../app-core.ts';
import { runFileExport } from '../exports/file-export.ts';
import { BookWindows } from '../market-book/book-windows.ts';
import { readBalance } from '../market-buying/balance.ts';
import { type CartLine, buyCart } from '../market-buying/cart-purchase.ts';
import { describePurchase } from '../market-buying/purchase-words.ts';
import { purchasing } from '../market-buying/session-purchaser.ts';
import { checkInspectLink } from '../market-links/inspect-link.ts';
import { readPriceContext } from '../market-prices/price-context.ts';
import { readSalesHistory } from '../market-prices/sales-history.ts';
import { ScreenStateStore } from '../market-screens/screen-state.ts';
import type { AreaHandlers } from './types.ts';

/** States in which orders may be sent: the book is current (live) or being re-read (resyncing). */
const TRADING_STATES: readonly SyncState[] = ['live', 'resyncing'];

function refuseTradingUnlessLive(core: AppCore): void {
  const status = core.status();
  if (TRADING_STATES.includes(status.state)) return;
  const why =
    status.state === 'offline'
      ? 'the app is offline and shows the cached book'
      : `the book is not live yet (${status.state})`;
  throw new SkindeskError({
    code: 'UNAVAILABLE',
    message: `Trading is off: ${why}. Prices on screen may be out of date; buying resumes when the book is live again.`,
  });
}

/** The tape's filter as the reader takes it: the fields the call was given, none set to undefined. */
function tapeFilterOf(input: { app_id?: AppId | undefined; name?: string | undefined; float?: { min?: number | undefined; max?: number | undefined } | undefined; phases?: DopplerPhase[] | undefined }): TapeFilter {
  const { app_id, name, float, phases } = input;
  return {
    ...(app_id === undefined ? {} : { app_id }),
    ...(name === undefined ? {} : { name }),
    ...(float === undefined ? {} : { float: { ...(float.min === undefined ? {} : { min: float.min }), ...(float.max === undefined ? {} : { max: float.max }) } }),
    ...(phases === undefined ? {} : { phases }),
  };
}

export function createMarketHandlers(core: AppCore): AreaHandlers<typeof MARKET_CALLS> {
  const windows = new BookWindows();
  const online = () => core.status().state !== 'offline';
  let bookVersion = 0;
  core.subscribe((name, payload) => {
    if (name === 'bookChanged') bookVersion = (payload as { version: number }).version;
  });
  let screenState: ScreenStateStore | null = null;
  const screens = (): ScreenStateStore => {
    if (screenState) return screenState;
    screenState = new ScreenStateStore(dirname(core.settings.file));
    if (screenState.loadProblem) core.notify('warning', 'Market screens', screenState.loadProblem);
    return screenState;
  };

  return {
    queryBookWindow: async (input) => {
      const session = core.session;
      const version = bookVersion;
      const answer = await windows.window(session.db, version, input);
      const lastSeq = core.status().lastSeq;
      return { ...answer, rows: session.marketPrices.price(answer.rows), version, lastSeq };
    },

    getBalance: ({ refresh }) => readBalance(core.session, refresh, !core.account.awaitingAccountOf(core.session)),

    buyListings: async ({ lines }) => {
      refuseTradingUnlessLive(core);
      const session = core.session;
      const { purchaser, journal } = purchasing(core, session);
      const known = lines.map((line) => readListing(session.db, line.listingId));
      const cartLines: CartLine[] = lines.map((line, i) => ({
        listingId: line.listingId,
        amount: line.amount,
        maxPrice: line.maxPrice,
        ...(line.privateToken === undefined ? {} : { privateToken: line.privateToken }),
        marketHashName: known[i]?.market_hash_name ?? null,
        appId: known[i]?.app_id ?? null,
      }));

      let outcome;
      if (cartLines.length === 1) {
        const line = cartLines[0] as CartLine;
        outcome = await purchaser.buy({
          listingId: line.listingId,
          amount: line.amount,
          maxPrice: line.maxPrice,
          ...(line.privateToken === undefined ? {} : { privateToken: line.privateToken }),
          ...(line.marketHashName === null ? {} : { marketHashName: line.marketHashName }),
          ...(line.appId === null ? {} : { appId: line.appId }),
          source: 'app',
        });
      } else {
        // open outcomes of earlier purchases are settled first, as a single purchase would
        if (journal.unresolved().length > 0) await purchaser.reconcileUnresolved();
        outcome = await buyCart(purchaser, cartLines);
      }

      const bought = outcome.status === 'bought';
      const spent = bought
        ? outcome.result
          ? outcome.result.items.reduce((sum, item) => sum + item.price * item.amount, 0)
          : cartLines.reduce((sum, l, i) => sum + Math.min(known[i]?.price ?? l.maxPrice, l.maxPrice) * l.amount, 0)
        : 0;
      const words = describePurchase({
        status: outcome.status,
        orderId: outcome.orderId,
        error: outcome.error,
        note: outcome.note,
        spent,
        lines: cartLines.map((l, i) => ({
          listingId: l.listingId,
          // the book's name; the screen's for a listing the book no longer holds (the one gone, usually)
          name: l.marketHashName ?? lines[i]?.name ?? null,
          amount: l.amount,
          maxPrice: l.maxPrice,
          // what the screen showed when the trader decided: tells their own low maximum from a seller's raise
          shownPrice: lines[i]?.shownPrice ?? null,
        })),
      });
      // a purchase (or an unknown outcome) moves the balance: read it again at once
      const balance = await readBalance(session, outcome.status !== 'not_bought', !core.account.awaitingAccountOf(session));
      const report: PurchaseReport = {
        status: outcome.status,
        orderId: outcome.orderId,
        title: words.title,
        message: words.message,
        apiCode: outcome.error?.code ?? null,
        failedListingId: words.failedListingId,
        spent,
        boughtListingIds: bought ? cartLines.map((l) => l.listingId) : [],
        balance,
      };
      // the report is the answer the screen shows; no toast on top of it
      return report;
    },

    // offline, the cached copies answer at once instead of a request that cannot succeed
    getPriceContext: async ({ refresh, stickers, paint_index, ...item }) => {
      if (online()) return readPriceContext(core.session, item, refresh, stickers, paint_index);
      return { ...(await readPriceContext(core.session, item, false, stickers, paint_index)), problem: 'Offline: these are the prices last read.' };
    },

    getSalesHistory: async ({ refresh, ...item }) => {
      if (online()) return readSalesHistory(core.session, item, refresh);
      return { ...(await readSalesHistory(core.session, item, false)), problem: 'Offline: sales up to the last time the market was reachable.' };
    },

    getSalesTape: ({ before, since_ms, limit, ...filter }) => {
      try {
        const page = readSalesTape(core.session.db, { ...tapeFilterOf(filter), before, sinceMs: since_ms, limit });
        // the screen needs a sticker's slot, name and scrape (null: the market sent none, unscraped); the export
        // writes them whole
        const sales = page.sales.map((sale) => ({
          ...sale,
          stickers: sale.stickers?.map(({ slot, name: sticker, wear }) => ({ slot, name: sticker, wear: wear ?? null })) ?? null,
        }));
        return { sales, next: page.next, latest_ms: page.latestMs };
      } catch (err) {
        if (err instanceof InvalidCursorError)
          throw new SkindeskError({ code: 'REFUSED', message: 'That page of sales is no longer valid: start again from the newest sale.' });
        throw err;
      }
    },

    exportView: (input) => {
      const db = core.session.db;
      const counter = { rows: 0 };
      const chunks =
        input.view === 'book'
          ? bookViewText(db, { filter: input.filter, sort: input.sort }, input.format, counter)
          : salesTapeText(db, tapeFilterOf(input), input.format, counter);
      const stamp = new Date().toISOString().slice(0, 16).replace(/[T:]/g, '-');
      const dialog = {
        title: input.view === 'book' ? 'Export the book view' : 'Export the sales',
        defaultName: `skindesk-${input.view}-${stamp}.${input.format}`,
        filters: [input.format === 'csv' ? { name: 'CSV', extensions: ['csv'] } : { name: 'JSON lines', extensions: ['jsonl'] }],
      };
      return runFileExport(core, dialog, async (file, progress) => {
        const bytes = await writeFileInPlace(file, chunks, (written) => progress({ bytes: written, totalBytes: null, rows: counter.rows }));
        return { file, bytes, rows: counter.rows };
      });
    },

    openInspectLink: async ({ listingId }) => {
      const stored = readListing(core.session.db, listingId);
      if (!stored) throw new SkindeskError({ code: 'REFUSED', message: 'That listing is no longer in the book.' });
      const link = stored.detail?.cs_inspect_link ?? stored.detail?.tf2_inspect_link ?? null;
      const verdict = checkInspectLink(link);
      if (!verdict.ok) throw new SkindeskError({ code: 'REFUSED', message: `Not opened: ${verdict.reason}.` });
      await core.platform.openExternal(verdict.url);
      return { opened: true };
    },

    getMarketScreenState: () => screens().get(),
    setLastBookView: (view) => {
      screens().setLastView(view);
      return { saved: true };
    },
    saveFilterPreset: (preset) => {
      try {
        return screens().savePreset(preset);
      } catch (err) {
        if (err instanceof RangeError) throw new SkindeskError({ code: 'REFUSED', message: `Not saved: ${err.message}.` });
        throw err;
      }
    },
    deleteFilterPreset: ({ name }) => screens().deletePreset(name),
  };
}
