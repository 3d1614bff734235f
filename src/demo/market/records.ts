/** The market's records per account. Times are epoch milliseconds; views turn them into API rows. */
import type { AppId, CryptoTicker, OrderItem, TradeStatus } from '../../shared/api/index.ts';

export interface BackpackRow {
  id: number;
  item: number;
  amount: number;
  assetId: number;
  tradeLockedUntil: number | null;
  createdAt: number;
}

export interface InventoryRow {
  assetId: number;
  item: number;
  amount: number;
  tradable: boolean;
  /** The trade currently carrying this stack; such rows are not shown and cannot be offered again. */
  heldBy: number | null;
}

export type TradeType = 'SELL' | 'WITHDRAW' | 'DEPOSIT';

export interface TradeItemRecord {
  appId: AppId;
  item: number;
  assetId: number;
  amount: number;
  value: number;
}

/** What a trade does when it ends; kept on the trade so settling needs nothing else. */
export type TradePayload =
  | { kind: 'SELL'; groups: { price: number; entries: { assetId: number; amount: number }[] }[] }
  | { kind: 'DEPOSIT'; entries: { assetId: number; amount: number }[] }
  | { kind: 'WITHDRAW'; rows: BackpackRow[] };

export interface TradeRecord {
  id: number;
  accountId: number;
  type: TradeType;
  status: TradeStatus;
  depositId: number | null;
  withdrawId: number | null;
  steamOfferId: string | null;
  value: number;
  error: string | null;
  createdAt: number;
  updatedAt: number;
  items: TradeItemRecord[];
  payload: TradePayload;
}

export interface OrderItemRecord {
  orderItemId: number;
  orderId: number;
  side: OrderItem['side'];
  appId: AppId;
  item: number;
  name: string;
  price: number;
  amount: number;
  createdAt: number;
  /** When the money is final: a purchase at once, a sale after the settlement delay. */
  settlesAt: number;
}

export interface TransactionRecord {
  id: number;
  type: string;
  amount: number;
  balance: number;
  description: string;
  referenceId: number | null;
  createdAt: number;
}

export type WithdrawalStatus = 'CREATED' | 'PENDING' | 'CONFIRMING' | 'SUCCESS' | 'FAILED';
export interface WithdrawalRecord {
  id: number;
  status: WithdrawalStatus;
  balanceAmount: number;
  tokenAmount: number;
  ticker: CryptoTicker;
  address: string;
  feeLevel: string;
  createdAt: number;
  txHash: string | null;
  networkFee: string | null;
}

export interface WebhookConfig {
  url: string | null;
  /** Deliveries that exhausted every attempt, in a row; 20 removes the URL. */
  consecutiveFailures: number;
}

/** What the website would show the user (e.g. "your webhook URL was removed"). */
export interface Notice {
  kind: 'webhook_removed';
  at: number;
  message: string;
}

export interface Account {
  id: number;
  name: string;
  steamId: string;
  apiKey: string;
  /** Derived from the key; null for a key issued before webhooks existed (nothing is delivered). */
  webhookSecret: string | null;
  /** A market participant driven by the simulation (its history is capped to bound memory). */
  simulated: boolean;
  /** When set, crypto withdrawals need this as two_factor_auth_token. */
  twoFactorCode: string | null;
  balance: number;
  backpack: Map<number, BackpackRow>;
  /** External-platform inventory by asset id. */
  inventory: Map<number, InventoryRow>;
  orderItems: OrderItemRecord[];
  transactions: TransactionRecord[];
  trades: TradeRecord[];
  withdrawals: Map<number, WithdrawalRecord>;
  webhook: WebhookConfig;
  notices: Notice[];
}
