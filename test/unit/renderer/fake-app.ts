// A stand-in for the app behind window.skindesk in component tests: handlers per call (through the
// real dispatcher and the real generated API, so inputs and outputs are checked against the contract
// exactly as in the app) and pushes the test sends when it wants.
import { vi } from 'vitest';
import {
  IPC_CALL_NAMES,
  type IpcCallName,
  type IpcHandlers,
  type IpcOutput,
  type IpcParsedInput,
  type IpcPushName,
  type IpcPushPayload,
  type IpcTransport,
  type SyncStatus,
  SkindeskError,
  createDispatcher,
  createSkindeskApi,
} from '../../../src/shared/ipc/index.ts';
import type { BookRow } from '../../../src/shared/ipc/index.ts';
import { backfillStore, balanceStore, rateLimitStore, syncStatusStore } from '../../../src/renderer/shell/app-state.ts';
import { cartStore } from '../../../src/renderer/screens/market/buying/cart-store.ts';
import { currentScreenStore } from '../../../src/renderer/shell/navigation.ts';
import { alertFeedStore } from '../../../src/renderer/screens/watchlists/watch-stores.ts';

type Handler<N extends IpcCallName> = (input: IpcParsedInput<N>) => IpcOutput<N> | Promise<IpcOutput<N>>;
export type FakeHandlers = { [N in IpcCallName]?: Handler<N> };

export const NOW = '2026-01-01T12:00:00.000Z';

export function status(overrides: Partial<SyncStatus> = {}): SyncStatus {
  return {
    market: { mode: 'demo', baseUrl: 'http://127.0.0.1:1', demoReason: 'no_api_key' },
    state: 'live',
    since: NOW,
    lastSeq: '9007199254740993',
    bookAsOf: NOW,
    rows: 3,
    eventsPerSecond: 2.5,
    problem: null,
    bookRead: null,
    ...overrides,
  };
}

export function bookRow(id: number, overrides: Partial<BookRow> = {}): BookRow {
  return {
    id,
    app_id: 730,
    market_hash_name: `AK-47 | Redline (Field-Tested) #${id}`,
    price: 1000 + id,
    amount: 1,
    commodity: false,
    created_at: NOW,
    paint_wear: 0.2,
    paint_seed: 100 + id,
    paint_index: 282,
    fade: null,
    blue: null,
    stattrak: false,
    souvenir: false,
    stickers: [],
    keychains: [],
    market_price: null,
    ...overrides,
  };
}

export interface FakeApp {
  calls: { name: IpcCallName; input: unknown }[];
  push<P extends IpcPushName>(name: P, payload: IpcPushPayload<P>): void;
}

/** Calls every screen's frame makes, with the answer of an app that has nothing to say. */
const ANSWERED_BY_DEFAULT: FakeHandlers = {
  takeStartupNotifications: () => ({ notifications: [] }),
};

/** Installs window.skindesk; `handlers` answer calls, then the defaults above, anything else UNAVAILABLE. */
export function installFakeApp(handlers: FakeHandlers): FakeApp {
  const calls: FakeApp['calls'] = [];
  const all = Object.fromEntries(
    IPC_CALL_NAMES.map((name) => [
      name,
      (input: unknown) => {
        calls.push({ name, input });
        const handler = (handlers[name] ?? ANSWERED_BY_DEFAULT[name]) as ((input: unknown) => unknown) | undefined;
        if (!handler) throw new SkindeskError({ code: 'UNAVAILABLE', message: `${name} is not part of this test` });
        return handler(input);
      },
    ]),
  ) as unknown as IpcHandlers;
  const dispatch = createDispatcher(all, { describeError: (err) => (err instanceof SkindeskError ? err : new SkindeskError({ code: 'INTERNAL', message: String(err) })).toPayload() });
  const listeners = new Map<IpcPushName, Set<(payload: unknown) => void>>();
  const transport: IpcTransport = {
    invoke: (name, input) => dispatch(name, input),
    listen: (name, listener) => {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  Object.defineProperty(window, 'skindesk', { value: createSkindeskApi(transport), configurable: true, writable: true });
  return {
    calls,
    push: (name, payload) => {
      for (const listener of listeners.get(name) ?? []) listener(payload);
    },
  };
}

/** The app-wide stores are module singletons: each test starts from nothing. */
export function resetRendererState(): void {
  Reflect.deleteProperty(window, 'skindesk');
  syncStatusStore.set(null);
  backfillStore.set(null);
  rateLimitStore.set(null);
  balanceStore.set(null);
  cartStore.set([]);
  currentScreenStore.set(null);
  alertFeedStore.set({ alerts: [], unseen: 0, omitted: 0 });
  vi.useRealTimers();
}
