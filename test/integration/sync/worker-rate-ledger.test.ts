/**
 * The sync worker counts its requests in the desk's release ledger (api/release-ledger.ts), as the app's
 * session and `skindesk buy` do: the book reads of a run killed a moment ago (or of a `skindesk sync`
 * beside the app) count in this run's window, so a restart does not send a seventh GET /book inside the
 * server's minute and get it refused — the refusal the soak suite reported "carried over the restart".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteReleaseLedger } from '../../../src/core/api/release-ledger.ts';
import { openDeskFile } from '../../../src/core/store/desk.ts';
import { MirrorWorker } from '../../../src/core/sync/mirror-worker.ts';
import { type DemoMarket, startDemoMarket } from '../../../src/demo/index.ts';
import { ENDPOINTS } from '../../../src/shared/api/index.ts';

const BOOK = 'GET /public/v1/book';

let demo: DemoMarket | null = null;
let mirror: MirrorWorker | null = null;
let dir: string | null = null;
afterEach(async () => {
  await mirror?.stop();
  await demo?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  mirror = demo = dir = null;
});

async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The releases of GET /book the desk holds for this market and key. */
function bookReleases(dbPath: string): number[] {
  const desk = openDeskFile(dbPath);
  try {
    return new SqliteReleaseLedger(desk, { baseUrl: demo!.baseUrl, apiKey: demo!.apiKey }).recent(BOOK, 0);
  } finally {
    desk.close();
  }
}

describe('the sync worker and the desk’s rate ledger', () => {
  it('waits for the window a killed run filled with book reads, then records its own', async () => {
    const limit = ENDPOINTS.book.rateLimit;
    expect(limit).toEqual({ limit: 6, windowMs: 60_000 });
    demo = await startDemoMarket({ port: 0, listings: 300, rate: 0, seed: 8 });
    dir = mkdtempSync(join(tmpdir(), 'skindesk-worker-ledger-'));
    const dbPath = join(dir, 'book.db');

    // the run before: six book reads, the first 57 s ago — its window frees 3 s from now
    const freedAt = Date.now() + 3_000;
    const desk = openDeskFile(dbPath);
    const ledger = new SqliteReleaseLedger(desk, { baseUrl: demo.baseUrl, apiKey: demo.apiKey });
    for (let i = 0; i < 6; i++) ledger.note(BOOK, freedAt - 60_000 + i * 100);
    desk.close();

    mirror = new MirrorWorker({
      dbPath,
      baseUrl: demo.baseUrl,
      wsUrl: demo.wsUrl,
      apiKey: demo.apiKey,
      backfill: false,
    });
    mirror.start();
    await waitFor(() => mirror!.status?.state === 'live', 30_000, 'the book going live');

    // the first read went once the window had room: the live book came after it, not at once
    expect(Date.now()).toBeGreaterThanOrEqual(freedAt - 250);
    const releases = bookReleases(dbPath);
    expect(releases.length).toBeGreaterThanOrEqual(7);
    expect(Math.max(...releases)).toBeGreaterThanOrEqual(freedAt - 250);
  });
});
