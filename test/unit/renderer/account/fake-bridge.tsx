// A window.skindesk for component tests, generated from the real contract (createSkindeskApi): every
// answer of a fake handler is checked against the call's output schema, exactly as the renderer checks
// the real app's answers, so a fake cannot drift from the contract.
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import {
  IPC_CALLS,
  type IpcCallName,
  type IpcOutput,
  type IpcParsedInput,
  type IpcPushName,
  type IpcPushPayload,
  SkindeskError,
  createSkindeskApi,
} from '../../../../src/shared/ipc/index.ts';
import { theme } from '../../../../src/renderer/theme.ts';
import type { BackpackItem, MyListing } from '../../../../src/shared/api/index.ts';
import type { InventoryRow } from '../../../../src/shared/ipc/calls-account.ts';

type FakeHandlers = { [N in IpcCallName]?: (input: IpcParsedInput<N>) => IpcOutput<N> | Promise<IpcOutput<N>> };

export interface FakeBridge {
  calls: { name: IpcCallName; input: unknown }[];
  push<P extends IpcPushName>(name: P, payload: IpcPushPayload<P>): void;
}

export function installFakeBridge(handlers: FakeHandlers): FakeBridge {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const calls: FakeBridge['calls'] = [];
  const api = createSkindeskApi({
    invoke: async (name, raw) => {
      calls.push({ name, input: raw });
      const handler = handlers[name] as ((input: unknown) => unknown) | undefined;
      if (!handler) return { ok: false, error: { code: 'UNKNOWN_CALL', message: `no fake for ${name}`, apiCode: null, issues: [], outcomeUnknown: false } };
      try {
        return { ok: true, value: await handler((IPC_CALLS[name].input as { parse(v: unknown): unknown }).parse(raw)) };
      } catch (err) {
        if (err instanceof SkindeskError) return { ok: false, error: err.toPayload() };
        throw err;
      }
    },
    listen: (name, listener) => {
      const set = listeners.get(name) ?? new Set();
      set.add(listener);
      listeners.set(name, set);
      return () => set.delete(listener);
    },
  });
  Object.defineProperty(window, 'skindesk', { value: api, configurable: true, writable: false });
  return {
    calls,
    push: (name, payload) => {
      for (const l of listeners.get(name) ?? []) l(payload);
    },
  };
}

export function renderWithTheme(ui: ReactElement) {
  return render(<MantineProvider theme={theme} defaultColorScheme="dark">{ui}</MantineProvider>);
}

/** A ConfirmDialog's primary button, and the words beside it saying what holds it back. */
export const confirmButton = () => screen.getByTestId('confirm-button') as HTMLButtonElement;
export const blockedReason = () => screen.getByTestId('blocked-reason').textContent;
/** The words a field is described by (its error element, under it or in its tooltip), or null while it is not refused. */
export const fieldError = (input: HTMLElement) => {
  const id = input.getAttribute('aria-describedby');
  return id && input.getAttribute('aria-invalid') === 'true' ? (document.getElementById(id)?.textContent ?? null) : null;
};

export const NOW_ISO = '2026-01-02T10:00:00.000Z';
export const freshness = { fetchedAt: NOW_ISO, fromCache: false, problem: null };

/** One of the trader's own listings: a stack of 5 at $10.00 unless `over` says otherwise. */
export const myListing = (id: number, over: Partial<MyListing> = {}): MyListing => ({
  id,
  app_id: 730,
  market_hash_name: `Item ${id}`,
  price: 1000,
  amount: 5,
  commodity: true,
  created_at: NOW_ISO,
  available_amount: 0,
  price_decay: null,
  ...over,
});

/** A backpack row: a commodity stack of 10 'Sticker | X' at $1.20, free to list. */
export const backpackStack = (id: number): BackpackItem => ({
  id,
  app_id: 730,
  market_hash_name: 'Sticker | X',
  amount: 10,
  commodity: true,
  market_price: 120,
  trade_locked_until: null,
});

/** A Steam inventory row: one tradable 'Skin 1' at $5.00 (recommended $4.85), in no offer. */
export const skinRow = (assetId = '1'): InventoryRow => ({
  assetId,
  appId: 730,
  name: 'Skin 1',
  amount: 1,
  commodity: false,
  tradable: true,
  marketPrice: 500,
  recommendedPrice: 485,
  iconUrl: '',
  inOffer: null,
});

/** A page's metadata when there is nothing to show. */
export const NO_PAGES = { total_pages: 0, total_items: 0, current_page: 1, current_limit: 50 };

/** A getMyListings answer: one page holding `listings`, read just now, no standing or guard. */
export const myListingsPage = (listings: MyListing[]): IpcOutput<'getMyListings'> => ({
  listings,
  metadata: { total_pages: listings.length > 0 ? 1 : 0, total_items: listings.length, current_page: 1, current_limit: 50 },
  freshness,
  standings: [],
  guards: [],
});

type TrackedTrade = IpcOutput<'getTrades'>['trades'][number];

/** A trade the app follows, as getTrades answers it: a one-item SELL unless `trade` says otherwise. */
export function trackedTrade(id: number, status: 'Active' | 'Accepted', trade: Partial<TrackedTrade['trade']> = {}): TrackedTrade {
  return {
    trade: {
      id,
      type: 'SELL',
      status,
      deposit_id: id,
      withdraw_id: null,
      steam_offer_id: '1',
      value: 100,
      error: null,
      created_at: NOW_ISO,
      updated_at: NOW_ISO,
      items: [{ app_id: 730, market_hash_name: 'Revolution Case', steam_asset_id: String(id), amount: 1, value: 100 }],
      ...trade,
    },
    timeline: [{ status, at: NOW_ISO, source: 'poll' }],
    words: status === 'Active' ? 'the trade offer is waiting for you to accept it on the platform.' : 'the trade was accepted.',
    inFlight: status === 'Active',
  };
}
