/**
 * The app's purchaser of a market session: one per REST client (a market switch, or a new key, brings a
 * new client), shared by the buy screens and the watchlists so that a reconciliation never runs beside
 * another purchase. Its journal names each purchase's account (see purchase-journal.ts), and purchases
 * a previous run left open are settled as soon as the market answers, each outcome told to the user.
 */
import { SkindeskError } from '../../../shared/ipc/index.ts';
import { utcMinute } from '../../../shared/utc-words.ts';
import type { ApiClient } from '../../api/client.ts';
import { type JournalEntry, PurchaseJournal } from '../../api/purchase-journal.ts';
import { type PurchaseOutcome, Purchaser } from '../../api/purchaser.ts';
import type { AppCore } from '../app-core.ts';
import { accountNoticeTitle } from '../account-services/notice-title.ts';
import type { MarketSession } from '../session.ts';
import { describePurchase } from './purchase-words.ts';

export interface SessionPurchasing {
  client: ApiClient;
  purchaser: Purchaser;
  journal: PurchaseJournal;
}

const purchasers = new WeakMap<ApiClient, Omit<SessionPurchasing, 'client'>>();

export function purchasing(core: AppCore, session: MarketSession = core.session): SessionPurchasing {
  const client = session.client;
  if (!client) throw new SkindeskError({ code: 'UNAVAILABLE', message: 'Not connected to the marketplace yet.' });
  let held = purchasers.get(client);
  if (!held) {
    const journal = new PurchaseJournal(session.db, { account: () => core.account.accountOf(session) });
    const purchaser = new Purchaser({
      client,
      journal,
      onEarlierPurchase: (before, outcome) => tellEarlierPurchase(core, session, before, outcome),
      warn: (message) => core.log.warn(message),
    });
    // bought (or maybe bought): the items are in the backpack, which the portfolio's stored read lacks
    purchaser.watchSpending(() => (outcome) => {
      if (outcome.status !== 'not_bought') core.account.itemsBought(session);
    });
    held = { journal, purchaser };
    purchasers.set(client, held);
  }
  return { client, ...held };
}

/**
 * Settles the purchases an earlier run left open (it crashed between sending one and its answer, or the
 * order history could not be read then): right after connecting, not at the next purchase, which may
 * never come — a bought item would go unannounced and a purchase in doubt unnoticed.
 */
export async function settleEarlierPurchases(core: AppCore, session: MarketSession): Promise<void> {
  if (!session.client) return;
  const { purchaser, journal } = purchasing(core, session);
  if (journal.unresolved().length > 0) await purchaser.reconcileUnresolved();
}

function tellEarlierPurchase(core: AppCore, session: MarketSession, before: JournalEntry, outcome: PurchaseOutcome): void {
  // still unknown for the same reason as when the user was last told: once is enough
  if (outcome.status === 'unknown' && before.state === 'unknown' && before.note === outcome.note) return;
  const what = before.marketHashName ? `“${before.marketHashName}”` : `Listing ${before.listingId}`;
  const title = accountNoticeTitle(`Purchase of ${utcMinute(before.createdAtMs)}`, session.choice.mode);
  switch (outcome.status) {
    case 'bought':
      core.notify('success', `${title}: bought`, `${what} — order ${outcome.orderId ?? '?'}, found in your order history. The items go to your backpack.`);
      return;
    case 'not_bought':
      core.notify('info', `${title}: not bought`, `${what} is not in your order history: it was not bought, and nothing was charged.`);
      return;
    case 'unknown': {
      const line = { listingId: before.listingId, name: before.marketHashName, amount: before.amount, maxPrice: before.maxPrice };
      const words = describePurchase({ status: 'unknown', orderId: null, error: outcome.error, lines: [line], spent: 0, note: outcome.note });
      core.notify('warning', `${title}: ${words.title.toLowerCase()}`, `${what}: ${words.message}`);
    }
  }
}
