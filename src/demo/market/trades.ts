/**
 * Trade offers and their lifecycle (spec §2.9, §3.2). A new offer waits for the bot's confirmation
 * (CreatedNeedsConfirmation, no offer id yet), is sent (Active, offer id set), and then the user accepts
 * it — or declines it, or lets it expire; a few pass through InEscrow first. Each step runs on a timer
 * (scaled by --time-scale) and each status change is announced to trade listeners (webhooks).
 *
 * The spec names twelve statuses and no transitions. The simulation reaches every one of them, so that a
 * client meets each on the demo market before it meets it on a real one (docs/api-assumptions.md): a
 * confirmation canceled (CanceledBySecondFactor), an offer the platform cancels (Canceled), finds invalid
 * (Invalid) or whose items went (InvalidItems), a counter-offer (Countered, which the bot declines) and a
 * trade reversed while held in escrow (Reversed).
 *
 * What an accepted trade does: SELL lists the items, DEPOSIT puts them in the backpack, WITHDRAW sends
 * them to the external inventory. A trade that fails puts the items back where they came from.
 */
import {
  FINAL_TRADE_STATUSES,
  IN_FLIGHT_TRADE_STATUSES,
  type Trade,
  type TradeStatus,
} from '../../shared/api/index.ts';
import { iso, SECOND } from '../clock.ts';
import type { Market } from './market.ts';
import type { Account, TradeItemRecord, TradePayload, TradeRecord, TradeType } from './records.ts';

/** Market time of each step (divided by the time scale). */
export const TRADE_TIMING = { confirm: 3 * SECOND, respond: 20 * SECOND, escrow: 45 * SECOND };
/** How an offer ends once sent; the rest is accepted. */
const OUTCOME_ODDS: [TradeOutcome, number][] = [
  ['Declined', 0.07],
  ['Expired', 0.05],
  ['InEscrow', 0.04],
  ['Countered', 0.02],
  ['Canceled', 0.01],
  ['InvalidItems', 0.01],
  ['Invalid', 0.005],
];
/** The bot's confirmation is canceled before the offer is sent. */
const CONFIRMATION_CANCELED_ODDS = 0.02;
/** A trade held in escrow is reversed instead of completed. */
const ESCROW_REVERSED_ODDS = 0.1;
const ERRORS: Partial<Record<TradeStatus, string>> = {
  Declined: 'The trade offer was declined.',
  Expired: 'The trade offer expired before it was accepted.',
  Canceled: 'The trade offer was canceled.',
  InvalidItems: 'The items are no longer available.',
  CanceledBySecondFactor: 'The trade offer was canceled at the confirmation.',
  Invalid: 'The trade offer is invalid.',
  Reversed: 'The trade was reversed while held in escrow.',
};

/** The statuses an offer can take when answered (tests force one with `forcedOutcome`). */
export type TradeOutcome = 'Accepted' | 'Declined' | 'Expired' | 'InEscrow' | 'Canceled' | 'InvalidItems' | 'Countered' | 'Invalid';

export class TradeEngine {
  private readonly market: Market;
  private readonly timers = new Map<number, () => void>();
  /**
   * When set, every offer that reaches the user's answer ends this way, and no step is drawn at random:
   * confirmations go through, escrow completes and a counter-offer is declined (tests).
   */
  forcedOutcome: TradeOutcome | null = null;
  /** When false, trades move only through `move` (tests that need one status change at a time). */
  autoProgress = true;

  constructor(market: Market) {
    this.market = market;
  }

  inFlightCount(account: Account): number {
    return account.trades.filter((t) => IN_FLIGHT_TRADE_STATUSES.includes(t.status)).length;
  }

  /** Copies in SELL offers still in flight: they will be listed, so they count against the ceiling. */
  pendingSellCopies(account: Account): number {
    let total = 0;
    for (const t of account.trades) {
      if (t.type === 'SELL' && IN_FLIGHT_TRADE_STATUSES.includes(t.status)) for (const i of t.items) total += i.amount;
    }
    return total;
  }

  open(account: Account, type: TradeType, items: TradeItemRecord[], payload: TradePayload): TradeRecord {
    const now = this.market.now();
    const trade: TradeRecord = {
      id: this.market.nextId('trade'),
      accountId: account.id,
      type,
      status: 'CreatedNeedsConfirmation',
      depositId: type === 'WITHDRAW' ? null : this.market.nextId('deposit'),
      withdrawId: type === 'WITHDRAW' ? this.market.nextId('withdraw') : null,
      steamOfferId: null,
      value: items.reduce((sum, i) => sum + i.value, 0),
      error: null,
      createdAt: now,
      updatedAt: now,
      items,
      payload,
    };
    account.trades.push(trade);
    this.schedule(trade, TRADE_TIMING.confirm, () => this.send(trade));
    return trade;
  }

  /** Moves a trade to `status` now (tests, and the timers). Final statuses apply their effects. */
  move(trade: TradeRecord, status: TradeStatus): void {
    if (FINAL_TRADE_STATUSES.includes(trade.status) || trade.status === status) return;
    this.timers.get(trade.id)?.();
    this.timers.delete(trade.id);
    const account = this.market.account(trade.accountId)!;
    trade.status = status;
    trade.updatedAt = Math.max(this.market.now(), trade.updatedAt + 1);
    if (status === 'Active' && trade.steamOfferId === null) trade.steamOfferId = String(this.market.nextId('offer'));
    trade.error = ERRORS[status] ?? null;
    if (status === 'Accepted') this.complete(account, trade);
    else if (FINAL_TRADE_STATUSES.includes(status)) this.revert(account, trade);
    else if (status === 'InEscrow') this.schedule(trade, TRADE_TIMING.escrow, () => this.move(trade, this.drawn(ESCROW_REVERSED_ODDS) ? 'Reversed' : 'Accepted'));
    else if (status === 'Countered') this.schedule(trade, TRADE_TIMING.respond, () => this.move(trade, 'Declined'));
    else if (status === 'Active') this.schedule(trade, TRADE_TIMING.respond, () => this.respond(trade));
    this.market.notifyTrade(account, trade);
  }

  view(trade: TradeRecord): Trade {
    const items = this.market.catalog.items;
    return {
      id: trade.id,
      type: trade.type,
      status: trade.status,
      deposit_id: trade.depositId,
      withdraw_id: trade.withdrawId,
      steam_offer_id: trade.steamOfferId,
      value: trade.value,
      error: trade.error,
      created_at: iso(trade.createdAt),
      updated_at: iso(trade.updatedAt),
      items: trade.items.map((i) => ({
        app_id: i.appId,
        market_hash_name: items[i.item]!.name,
        steam_asset_id: String(i.assetId),
        amount: i.amount,
        value: i.value,
      })),
    };
  }

  close(): void {
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
  }

  private send(trade: TradeRecord): void {
    this.move(trade, this.drawn(CONFIRMATION_CANCELED_ODDS) ? 'CanceledBySecondFactor' : 'Active');
  }

  /** A random step with these odds; never while an outcome is forced. */
  private drawn(odds: number): boolean {
    return this.forcedOutcome === null && this.market.random.outcomes.chance(odds);
  }

  private respond(trade: TradeRecord): void {
    this.move(trade, this.forcedOutcome ?? this.drawOutcome());
  }

  private drawOutcome(): TradeOutcome {
    let r = this.market.random.outcomes.next();
    for (const [status, odds] of OUTCOME_ODDS) {
      if (r < odds) return status;
      r -= odds;
    }
    return 'Accepted';
  }

  private schedule(trade: TradeRecord, marketMs: number, fn: () => void): void {
    this.timers.get(trade.id)?.();
    this.timers.delete(trade.id);
    if (!this.autoProgress) return;
    const cancel = this.market.clock.after(marketMs, () => {
      this.timers.delete(trade.id);
      fn();
    });
    this.timers.set(trade.id, cancel);
  }

  private complete(account: Account, trade: TradeRecord): void {
    const market = this.market;
    const payload = trade.payload;
    switch (payload.kind) {
      case 'SELL':
        for (const group of payload.groups) {
          const first = account.inventory.get(group.entries[0]!.assetId);
          const item = first ? market.catalog.items[first.item]! : null;
          let amount = 0;
          for (const entry of group.entries) {
            account.inventory.delete(entry.assetId);
            amount += entry.amount;
          }
          if (item) {
            market.createListing({
              seller: account.id,
              item,
              price: group.price,
              amount,
              assetId: item.commodity ? undefined : group.entries[0]!.assetId,
              extra: { tradeLockedUntil: null },
            });
          }
        }
        break;
      case 'DEPOSIT':
        for (const entry of payload.entries) {
          const row = account.inventory.get(entry.assetId);
          if (!row) continue;
          account.inventory.delete(entry.assetId);
          const item = market.catalog.items[row.item]!;
          market.addToBackpack(account, item, entry.amount, { assetId: item.commodity ? undefined : row.assetId });
        }
        break;
      case 'WITHDRAW':
        for (const row of payload.rows) {
          const assetId = market.catalog.items[row.item]!.commodity ? market.nextId('asset') : row.assetId;
          account.inventory.set(assetId, { assetId, item: row.item, amount: row.amount, tradable: true, heldBy: null });
        }
        break;
    }
  }

  private revert(account: Account, trade: TradeRecord): void {
    const market = this.market;
    const payload = trade.payload;
    if (payload.kind === 'WITHDRAW') {
      for (const row of payload.rows) {
        const item = market.catalog.items[row.item]!;
        market.addToBackpack(account, item, row.amount, { assetId: row.assetId, tradeLockedUntil: row.tradeLockedUntil, rowId: row.id });
      }
      return;
    }
    const entries = payload.kind === 'SELL' ? payload.groups.flatMap((g) => g.entries) : payload.entries;
    for (const entry of entries) {
      const row = account.inventory.get(entry.assetId);
      if (row && row.heldBy === trade.id) row.heldBy = null;
    }
  }
}
