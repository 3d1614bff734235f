/**
 * The sync worker counts its requests in the desk's release ledger (api/release-ledger.ts), as the app's
 * session and `skindesk buy` do: the book reads of a run killed a moment ago (or of a `skindesk sync`
 * beside the app) count in this run's window, so a restart does not send a seventh GET /book inside the
 * server's minute and get it refused — the refusal the soak suite reported "carried over the restart".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteReleaseLedger } from '../../../src/core/api/release-ledger.ts';
import { openDeskFile } from '../../../src/core/store/desk.ts';
import { MirrorWorker } from '../../../src/core/sync/mirror-worker.ts';
import { startDemoMarket } from '../../../src/demo/index.ts';
import { ENDPOINTS } from '../../../src/shared/api/index.ts';
import { waitFor } from '../../shared/wait-for.ts';

const BOOK = 'GET /public/v1/book';

/** The desk's record of GET /book releases for a market and key, read on a connection of its own. */
function bookLedger(dbPath: string, market: { baseUrl: string; apiKey: string }) {
  const desk = openDeskFile(dbPath);
  const ledger = new SqliteReleaseLedger(desk, { baseUrl: market.baseUrl, apiKey: market.apiKey });
  return {
    note: (atMs: number) => ledger.note(BOOK, atMs),
    releases: () => ledger.recent(BOOK, 0),
    close: () => desk.close(),
  };
}

describe('the sync worker and the desk’s rate ledger', () => {
  it('waits for the window a killed run filled with book reads, then records its own', async () => {
    expect(ENDPOINTS.book.rateLimit).toEqual({ limit: 6, windowMs: 60_000 });
    const demo = await startDemoMarket({ port: 0, listings: 300, rate: 0, seed: 8 });
    const dir = mkdtempSync(join(tmpdir(), 'skindesk-worker-ledger-'));
    const dbPath = join(dir, 'book.db');
    let mirror: MirrorWorker | null = null;
    try {
      // the run before: six book reads, the first 57 s ago — its window frees 3 s from now
      const freedAt = Date.now() + 3_000;
      const before = bookLedger(dbPath, demo);
      for (let i = 0; i < 6; i++) before.note(freedAt - 60_000 + i * 100);
      before.close();

      mirror = new MirrorWorker({
        dbPath,
        baseUrl: demo.baseUrl,
        wsUrl: demo.wsUrl,
        apiKey: demo.apiKey,
        backfill: false,
      });
      mirror.start();
      await waitFor(() => mirror?.status?.state === 'live', 30_000, 'the book going live');

      // the first read went once the window had room: the live book came after it, not at once
      expect(Date.now()).toBeGreaterThanOrEqual(freedAt - 250);
      const after = bookLedger(dbPath, demo);
      const releases = after.releases();
      after.close();
      expect(releases.length).toBeGreaterThanOrEqual(7);
      expect(Math.max(...releases)).toBeGreaterThanOrEqual(freedAt - 250);
    } finally {
      await mirror?.stop();
      await demo.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
