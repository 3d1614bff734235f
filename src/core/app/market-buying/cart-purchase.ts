/**
 * A cart: several listings bought in ONE atomic POST /purchase (the marketplace buys every line or
 * none), journaled like single purchases so that an ambiguous answer is never retried blindly.
 *
 * The journal holds one intent per listing and lets one order id account for one intent only, so a
 * cart's order id is recorded on its first line; the other lines name that order in their note. An
 * ambiguous outcome (timeout, dropped connection, 5xx) is reconciled here as a whole cart: an order of
 * ours, newer than the intents and not claimed by any other intent, whose items cover every line (same
 * item when known, same amount, price at most the line's maximum). Exactly one such order → bought;
 * none in every read after the settle time → not bought; otherwise the lines stay unknown, to be
 * checked against the order history by a person ("unknown — check orders").
 */
import { randomUUID } from 'node:crypto';
import type { PurchaseResult } from '../../../shared/api/index.ts';
import { ApiError, failureReason } from '../../api/errors.ts';
import type { ApiClient } from '../../api/client.ts';
import type { PurchaseIntent, PurchaseJournal, PurchaseOutcomeRecord } from '../../api/purchase-journal.ts';
import { type PurchaseStatus, cartOrders, coversCart, readBoughtOrders } from '../../api/purchaser.ts';

export { coversCart };

export interface CartLine {
  listingId: number;
  amount: number;
  maxPrice: number;
  privateToken?: string;
  /** From the mirror, when the listing is in the book (private listings are not). */
  marketHashName: string | null;
  appId: number | null;
}

export interface CartOutcome {
  status: PurchaseStatus;
  orderId: number | null;
  result: PurchaseResult | null;
  error: ApiError | null;
  reconciled: boolean;
  note: string | null;
}

export interface CartOptions {
  /** Pauses before each read of the order history after an ambiguous answer (default 1 s, 2 s, 4 s). */
  reconcileDelaysMs?: readonly number[];
  /** A "nothing found" read counts only this long after the failure (default 3 s). */
  settleMs?: number;
  clockSkewToleranceMs?: number;
  maxOrderPages?: number;
}

const ROUTE = 'POST /public/v1/purchase';

function errorFields(error: ApiError | null): Pick<PurchaseOutcomeRecord, 'errorKind' | 'errorCode' | 'errorMessage'> {
  return { errorKind: error?.kind ?? null, errorCode: error?.code ?? null, errorMessage: error?.message ?? null };
}

export async function buyCart(
  client: ApiClient,
  journal: PurchaseJournal,
  lines: readonly CartLine[],
  options: CartOptions = {},
): Promise<CartOutcome> {
  const clock = client.clock;
  const createdAtMs = clock.now();
  // one cart id on every line: whoever settles them later (reconcileUnresolved) settles them together
  const cartId = randomUUID();
  const intents: PurchaseIntent[] = lines.map((line) => ({
    intentId: randomUUID(),
    createdAtMs,
    listingId: line.listingId,
    amount: line.amount,
    maxPrice: line.maxPrice,
    appId: line.appId,
    marketHashName: line.marketHashName,
    triggerSeq: null,
    watchlistId: null,
    source: 'app-cart',
    cartId,
  }));
  try {
    journal.database.transaction(() => {
      for (const intent of intents) journal.recordIntent(intent);
    })();
  } catch (err) {
    // nothing on disk, so nothing may be sent
    const error = new ApiError({
      kind: 'invalid_request',
      route: ROUTE,
      message: `${ROUTE}: not sent, the purchase journal could not be written (${(err as Error).message})`,
    });
    return { status: 'not_bought', orderId: null, result: null, error, reconciled: false, note: null };
  }

  const settle = (state: PurchaseOutcomeRecord['state'], orderId: number | null, resolution: 'response' | 'reconciled', error: ApiError | null, note: string | null) => {
    const now = clock.now();
    journal.database.transaction(() => {
      intents.forEach((intent, i) => {
        const first = i === 0;
        const lineNote =
          orderId !== null && !first ? `bought in order ${orderId} with the cart of intent ${intents[0]?.intentId}` : note;
        journal.recordOutcome(
          intent.intentId,
          { state, orderId: first ? orderId : null, resolution, note: lineNote, ...errorFields(error) },
          now,
        );
      });
    })();
  };

  const body = {
    items: lines.map((l) => ({
      listing_id: l.listingId,
      amount: l.amount,
      max_price: l.maxPrice,
      ...(l.privateToken === undefined ? {} : { private_token: l.privateToken }),
    })),
  };
  let result: PurchaseResult;
  try {
    result = await client.purchase(body, { priority: 'interactive' });
  } catch (err) {
    const error =
      err instanceof ApiError
        ? err
        : new ApiError({ kind: 'network', route: ROUTE, message: `${ROUTE}: interrupted`, maybeDelivered: true });
    if (!error.outcomeUnknown) {
      settle('not_bought', null, 'response', error, null);
      return { status: 'not_bought', orderId: null, result: null, error, reconciled: false, note: null };
    }
    settle('unknown', null, 'response', error, 'unknown — check orders: the purchase was interrupted');
    return reconcileCart(client, journal, intents, error, createdAtMs, options, settle);
  }
  try {
    settle('bought', result.order_id, 'response', null, null);
  } catch {
    // the order is claimed by another journal entry: the server's answer still decides this purchase
    settle('bought', null, 'response', null, `order ${result.order_id} is also claimed by another journal entry — check orders`);
  }
  return { status: 'bought', orderId: result.order_id, result, error: null, reconciled: false, note: null };
}

type Settle = (
  state: PurchaseOutcomeRecord['state'],
  orderId: number | null,
  resolution: 'response' | 'reconciled',
  error: ApiError | null,
  note: string | null,
) => void;

async function reconcileCart(
  client: ApiClient,
  journal: PurchaseJournal,
  intents: readonly PurchaseIntent[],
  error: ApiError,
  failedAt: number,
  options: CartOptions,
  settle: Settle,
): Promise<CartOutcome> {
  const delays = options.reconcileDelaysMs ?? [1000, 2000, 4000];
  const settleMs = options.settleMs ?? 3000;
  const skewMs = options.clockSkewToleranceMs ?? 30_000;
  const maxPages = options.maxOrderPages ?? 10;
  let settledNone = false;
  let why = 'the order history did not settle the outcome';
  for (const delay of delays) {
    if (delay > 0) await client.clock.sleep(delay);
    // settled meanwhile, as a whole cart, by reconcileUnresolved (the next cart, a reconnect): its
    // order is claimed by this very cart now, so a read would find nothing and say "not bought"
    const now = intents.map((intent) => journal.get(intent.intentId));
    const head = now[0];
    if (head && head.state !== 'intent' && head.state !== 'unknown') {
      const orderId = now.find((e) => e?.orderId != null)?.orderId ?? null;
      return { status: head.state, orderId, result: null, error, reconciled: true, note: head.note };
    }
    let candidates: number[];
    let complete: boolean;
    try {
      ({ candidates, complete } = await findCartOrders(client, journal, intents, skewMs, maxPages));
    } catch (err) {
      settledNone = false;
      why = `the order history could not be read (${failureReason(err)})`;
      continue;
    }
    if (candidates.length === 1) {
      const orderId = candidates[0] as number;
      settle('bought', orderId, 'reconciled', error, `found order ${orderId} in the order history`);
      return { status: 'bought', orderId, result: null, error, reconciled: true, note: null };
    }
    if (candidates.length > 1) {
      const note = `unknown — check orders: orders ${candidates.join(', ')} all match this cart`;
      settle('unknown', null, 'reconciled', error, note);
      return { status: 'unknown', orderId: null, result: null, error, reconciled: true, note };
    }
    settledNone = complete && client.clock.now() - failedAt >= settleMs;
  }
  if (settledNone) {
    settle('not_bought', null, 'reconciled', error, 'no matching order in the order history');
    return { status: 'not_bought', orderId: null, result: null, error, reconciled: true, note: null };
  }
  const note = `unknown — check orders: ${why}`;
  settle('unknown', null, 'reconciled', error, note);
  return { status: 'unknown', orderId: null, result: null, error, reconciled: true, note };
}

/** Orders (newest first, back to just before the cart) whose items cover every line of the cart. */
async function findCartOrders(
  client: ApiClient,
  journal: PurchaseJournal,
  intents: readonly PurchaseIntent[],
  skewMs: number,
  maxPages: number,
): Promise<{ candidates: number[]; complete: boolean }> {
  const claimed = journal.claimedOrderIds();
  const since = (intents[0]?.createdAtMs ?? 0) + (client.serverTimeOffsetMs() ?? 0) - skewMs;
  const { byOrder, complete } = await readBoughtOrders(client, since, maxPages);
  return { candidates: cartOrders(byOrder, claimed, intents), complete };
}
