// The ledger read for an unknown crypto withdrawal (withdrawal-check.ts evidenceOf): read newest first
// in offset pages while the ledger moves, its row must not slip past the reader between two pages.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/core/api/client.ts';
import type { AccountSession } from '../../../src/core/app/account-services/account-session.ts';
import { evidenceOf } from '../../../src/core/app/account-services/withdrawal-check.ts';
import type { BalanceTransaction } from '../../../src/shared/api/index.ts';
import { metadataFor, sendJson, serverAndClientForEachTest, type FakeServer } from '../api/fake-server.ts';

let server: FakeServer;
let client: ApiClient;
serverAndClientForEachTest((made) => ({ server, client } = made));

const T0 = Date.UTC(2026, 2, 3, 9, 0, 0);
const movement = (
  id: number,
  type = 'SALE',
  amount = 150,
  referenceId: number | null = null,
): BalanceTransaction => ({
  id,
  type,
  amount,
  balance: 10_000,
  description: type,
  reference_id: referenceId,
  created_at: new Date(T0 + id * 1_000).toISOString(),
});

/** Only what evidenceOf reads of the session: its client. */
const sessionOf = (c: ApiClient) => ({ client: () => c }) as unknown as AccountSession;

describe('the ledger read for an unknown withdrawal', () => {
  it('finds the withdrawal pulled up onto the page already read when a newer movement leaves between two pages', async () => {
    // oldest first: the withdrawal (id 1), then 100 movements since, so it is the first row of page 2
    const ledger = [
      movement(1, 'CRYPTO_WITHDRAWAL', -2_500, 31),
      ...Array.from({ length: 100 }, (_, i) => movement(i + 2)),
    ];
    let left = false;
    server.on('transactions', (req, res) => {
      const page = Number(req.url.searchParams.get('page'));
      const limit = Number(req.url.searchParams.get('limit'));
      if (page > 1 && !left) {
        left = true;
        ledger.splice(50, 1); // every row below it moves one place up: the withdrawal onto page 1
      }
      const newestFirst = [...ledger].reverse();
      sendJson(res, 200, {
        transactions: newestFirst.slice((page - 1) * limit, page * limit),
        metadata: metadataFor(page, Math.ceil(newestFirst.length / limit), newestFirst.length, limit),
      });
    });
    const read = await evidenceOf(sessionOf(client)).ledgerSince(T0);
    expect(read?.complete).toBe(true);
    expect(read?.rows.filter((r) => r.type === 'CRYPTO_WITHDRAWAL').map((r) => r.reference_id)).toEqual([31]);
    expect(new Set(read?.rows.map((r) => r.id)).size).toBe(read?.rows.length);
  });
});
