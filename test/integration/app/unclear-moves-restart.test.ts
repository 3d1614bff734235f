// Unclear backpack moves outlive the app: a list whose answer was lost, then the app closed and started
// again on the same files and the same marketplace. The repeat is checked against the backpack exactly
// as it would be without the restart (refused: the first went through), and a move the check has lifted
// stays lifted (the next send goes out). The same for a list the marketplace applied while the app died
// before reading its answer: written down before it went out, it is an unclear move for the next run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AccountSession } from '../../../src/core/app/account-services/account-session.ts';
import { sendMove, unclearMoveNotes } from '../../../src/core/app/account-services/move-check.ts';
import { AppCore, RecordingPlatform } from '../../../src/core/app/index.ts';
import { ApiClient } from '../../../src/core/api/client.ts';
import { attachDesk } from '../../../src/core/store/desk.ts';
import { type Db, openDatabase } from '../../../src/core/store/index.ts';
import { MemorySecretStore } from '../../../src/core/secrets/index.ts';
import { type DemoMarket, startDemoMarket } from '../../../src/demo/index.ts';
import type { BackpackItem } from '../../../src/shared/api/index.ts';
import { failure } from './demo-core.ts';
import { until } from './until.ts';

let market: DemoMarket;
const dirs: string[] = [];
const cores: AppCore[] = [];

/** What the marketplace itself holds of a backpack row (0: gone). */
const held = (id: number) => market.state.account(1)!.backpack.get(id)?.amount ?? 0;

/** Answers of list and withdraw lost after the market applied them (at once). */
const loseMoves = () => market.chaos.set({ rest: { itemMoveLostRate: 1, hangMs: 0 } });

/** The app on `dataDir`, connected to the marketplace as its first account (the key kept in `secrets`). */
async function startApp(dataDir: string, secrets: MemorySecretStore): Promise<AppCore> {
  const core = await AppCore.start({
    dataDir,
    secrets,
    platform: new RecordingPlatform(),
    startDemoMarket: () => Promise.reject(new Error('this test runs on a marketplace of its own')),
    version: '0.0.0-test',
    // an unchanged row means "not sent" at once here (30 s in the app)
    accountTimings: { poller: { activeIntervalMs: 300, idleIntervalMs: 1_000 }, moveNotSentAfterMs: 0 },
  });
  cores.push(core);
  if (core.status().market.mode !== 'real') {
    await core.call('setMarket', { useDemo: false, baseUrl: market.baseUrl, apiKey: market.apiKey });
  }
  // the sends need the REST client only (the book may still be resyncing: its snapshot is cached for a while)
  await until(
    "the key's account met",
    () => {
      try {
        return core.status().market.mode === 'real' && core.account.account().account !== null;
      } catch {
        return false; // switching markets
      }
    },
    20_000,
  );
  return core;
}

/** Closes the app, as a restart (or a crash after the answer was lost) would. */
async function stopApp(core: AppCore): Promise<void> {
  cores.splice(cores.indexOf(core), 1);
  await core.close();
}

/** The app on fresh files, and what it needs to start again on them. */
async function freshApp() {
  const dataDir = mkdtempSync(join(tmpdir(), 'skindesk-moves-'));
  dirs.push(dataDir);
  const secrets = new MemorySecretStore();
  return { dataDir, secrets, core: await startApp(dataDir, secrets) };
}

/** An unlocked commodity row of the backpack holding at least `min` copies, as the app reads it. */
async function pool(core: AppCore, min: number): Promise<BackpackItem> {
  const { items } = await core.call('getBackpack', { limit: 100 });
  const row = items
    .filter((r) => r.commodity && r.trade_locked_until === null && r.amount >= min && held(r.id) === r.amount)
    .sort((a, b) => b.amount - a.amount)[0];
  if (!row) throw new Error(`no backpack row of ${min} copies or more`);
  return row;
}

const listOf = (id: number, amount: number) => ({ groups: [{ items: [{ id, amount }], price: 700 }] });

beforeAll(async () => {
  market = await startDemoMarket({
    port: 0,
    listings: 200,
    rate: 0,
    seed: 31,
    timeScale: 50,
    rateLimits: false,
  });
});

afterEach(async () => {
  market.chaos.calm();
  while (cores.length) await cores.pop()?.close();
});

afterAll(async () => {
  await market?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('unclear backpack moves across a restart', () => {
  it('a repeat after a restart is checked against the backpack and refused, the first having gone through', async () => {
    const first = await freshApp();
    const row = await pool(first.core, 5);
    const before = held(row.id);
    loseMoves();
    const lost = await failure(first.core.call('listItems', listOf(row.id, 2)));
    market.chaos.calm();
    expect(lost).toMatchObject({ code: 'MARKET', outcomeUnknown: true });
    expect(held(row.id)).toBe(before - 2);
    await stopApp(first.core);

    const core = await startApp(first.dataDir, first.secrets);
    await core.call('getBackpack', { limit: 100 });
    // the form's check says the send will be checked first
    const dry = await core.call('listItems', { ...listOf(row.id, 2), dryRun: true });
    expect(dry.check.problems).toEqual([
      expect.objectContaining({ code: 'CHECKED_BEFORE_SENDING', blocking: false, group: 0, entry: 0 }),
    ]);
    // the trader presses list again: nothing more is listed
    const again = await failure(core.call('listItems', listOf(row.id, 2)));
    expect(again).toMatchObject({ code: 'REFUSED', apiCode: 'EARLIER_MOVE_SENT' });
    expect(again!.message).toBe(
      `Your earlier listing of 2 × ${row.market_hash_name} went through (the backpack now holds ${before - 2}); nothing was sent again. Send again to list more.`,
    );
    expect(held(row.id)).toBe(before - 2);
  });

  it('a move the check lifted stays lifted after a restart: the next send goes out', async () => {
    const first = await freshApp();
    const row = await pool(first.core, 5);
    const before = held(row.id);
    loseMoves();
    await failure(first.core.call('withdrawItems', { items: [{ id: row.id, amount: 1 }] }));
    market.chaos.calm();
    expect(held(row.id)).toBe(before - 1);
    const again = await failure(first.core.call('withdrawItems', { items: [{ id: row.id, amount: 1 }] }));
    expect(again).toMatchObject({ code: 'REFUSED', apiCode: 'EARLIER_MOVE_SENT' });
    await stopApp(first.core);

    const core = await startApp(first.dataDir, first.secrets);
    await core.call('getBackpack', { limit: 100 });
    const dry = await core.call('listItems', { ...listOf(row.id, 1), dryRun: true });
    expect(dry.check.problems).toEqual([]);
    const sent = await core.call('withdrawItems', { items: [{ id: row.id, amount: 1 }] });
    expect(sent.withdrawIds).toHaveLength(1);
    expect(held(row.id)).toBe(before - 2);
  });
});

describe('a list cut off by the app dying while it was on its way', () => {
  /** The book file and its desk, as the app opens them (a second open of the same file is the next run). */
  const openFiles = (file: string): Db => {
    const db = openDatabase(file);
    attachDesk(db, file);
    return db;
  };

  it('the next run checks a repeat against the backpack and refuses it, the first having gone through', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'skindesk-moves-'));
    dirs.push(dataDir);
    const file = join(dataDir, 'skindesk.db');

    // the first run: its list reaches the marketplace, which applies it; the app dies before the answer is read
    let reached!: () => void;
    const listArrived = new Promise<void>((resolve) => (reached = resolve));
    let die!: () => void;
    const never = new Promise<never>((_, reject) => (die = () => reject(new Error('the app died'))));
    const dying = (async (input: string | URL, init?: RequestInit) => {
      const answer = await fetch(input, init);
      if (init?.method === 'POST' && new URL(String(input)).pathname === '/public/v1/list') {
        reached();
        return never;
      }
      return answer;
    }) as typeof fetch;
    const db = openFiles(file);
    const first = new AccountSession(
      { db, client: new ApiClient({ baseUrl: market.baseUrl, apiKey: market.apiKey, fetch: dying }), keyId: null },
      { newAccount: false },
    );
    const read = await first.reads.backpack({ page: '1', limit: '100' });
    first.rememberBackpack(read.data.items);
    const row = read.data.items
      .filter((r) => r.commodity && r.trade_locked_until === null && r.amount >= 5 && held(r.id) === r.amount)
      .sort((a, b) => b.amount - a.amount)[0]!;
    const before = held(row.id);
    const entries = [{ id: row.id, amount: 2, entry: 0 }];
    const body = { listings: [{ items: [{ id: row.id, amount: 2 }], price: 700 }] };
    const cutOff = failure(
      sendMove(first, 'list', entries, () => first.client().list(body, { priority: 'interactive' })),
    );
    await listArrived;
    expect(held(row.id)).toBe(before - 2);
    db.close();
    die();
    await cutOff;
    await first.stop();

    // the next run, on the same files and the same marketplace
    const nextDb = openFiles(file);
    const next = new AccountSession(
      { db: nextDb, client: new ApiClient({ baseUrl: market.baseUrl, apiKey: market.apiKey }), keyId: null },
      { newAccount: false },
    );
    try {
      expect(unclearMoveNotes(next, entries)).toEqual([
        expect.objectContaining({ code: 'CHECKED_BEFORE_SENDING', blocking: false, entry: 0 }),
      ]);
      // the trader lists again: nothing more is listed
      const again = await failure(
        sendMove(next, 'list', entries, () => next.client().list(body, { priority: 'interactive' })),
      );
      expect(again).toMatchObject({ code: 'REFUSED', apiCode: 'EARLIER_MOVE_SENT' });
      expect(again!.message).toBe(
        `Your earlier listing of 2 × ${row.market_hash_name} went through (the backpack now holds ${before - 2}); nothing was sent again. Send again to list more.`,
      );
      expect(held(row.id)).toBe(before - 2);
    } finally {
      await next.stop();
      nextDb.close();
    }
  });
});
