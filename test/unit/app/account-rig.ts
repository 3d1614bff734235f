/**
 * An account runtime attached to a real-market session over a test store, without the rest of the app:
 * for the account handlers' unit tests. `client` null: not connected (handlers that read the store only).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiClient } from '../../../src/core/api/client.ts';
import { type Clock, systemClock } from '../../../src/core/api/clock.ts';
import { AccountRuntime } from '../../../src/core/app/account-services/account-runtime.ts';
import { RecordingPlatform } from '../../../src/core/app/platform.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

export interface AccountRig {
  runtime: AccountRuntime;
  /** The market session the runtime is attached to (detach and attach it again: a session replaced). */
  market: Parameters<AccountRuntime['attach']>[0];
  store: TestStore;
  /** What the runtime pushed to the renderer, in order. */
  pushes: { name: string; payload: unknown }[];
  /** What the runtime logged, in order. */
  log: string[];
  close(): Promise<void>;
}

export function startAccountRig(options: { client: ApiClient | null; clock?: Clock }): AccountRig {
  const dataDir = mkdtempSync(join(tmpdir(), 'skindesk-account-'));
  const store = openTestStore();
  const pushes: AccountRig['pushes'] = [];
  const lines: string[] = [];
  const runtime = new AccountRuntime({
    dataDir,
    platform: new RecordingPlatform(),
    publish: (name, payload) => pushes.push({ name, payload }),
    notify: () => {},
    log: { info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) },
    webhookSecret: () => null,
    clock: options.clock ?? systemClock,
  });
  const market: AccountRig['market'] = { db: store.db, client: options.client, keyId: null, choice: { mode: 'real' }, demo: null, status: () => ({ state: 'live' }) };
  runtime.attach(market, false);
  return {
    runtime,
    market,
    store,
    pushes,
    log: lines,
    async close() {
      await runtime.close();
      store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
