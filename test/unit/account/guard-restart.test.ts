/**
 * Undercut guards kept from an earlier run start only after the seller's active listings were read: a
 * second stack of the same item, not yet known as the seller's, must not count as a rival to undercut.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountSession } from '../../../src/core/app/account-services/account-session.ts';
import type { ApiClient } from '../../../src/core/api/client.ts';
import { mergeSnapshot } from '../../../src/core/store/index.ts';
import type { MyListing } from '../../../src/shared/api/index.ts';
import { lean, openTestStore, type TestStore } from '../store/helpers.ts';

const NAME = 'Revolution Case';
const mine = (id: number, price: number): MyListing => ({
  ...lean(id, { market_hash_name: NAME, price }),
  available_amount: 0,
  price_decay: null,
  status: 'ACTIVE',
});

let t: TestStore;
let session: AccountSession | null = null;
beforeEach(async () => {
  t = openTestStore();
  // our two stacks of one item (1 at $10.00, 2 at $9.00), and nobody else's
  await mergeSnapshot(
    t.store,
    {
      seq: 100n,
      listings: [
        lean(1, { market_hash_name: NAME, price: 1_000 }),
        lean(2, { market_hash_name: NAME, price: 900 }),
      ],
    },
    { scope: null, resync: false },
  );
});
afterEach(() => {
  session?.stopGuards();
  t.close();
});

describe('undercut guards after a restart', () => {
  it('read the own active listings before the first check, so the other own stack is no rival', async () => {
    const edits: unknown[] = [];
    const reads: string[] = [];
    const client = {
      call: async (name: string) => {
        reads.push(name);
        // the read answers after the first timer tick would have run
        await new Promise((r) => setTimeout(r, 60));
        return {
          listings: [mine(1, 1_000), mine(2, 900)],
          metadata: { page: 1, limit: 100, total: 2, total_pages: 1 },
        };
      },
      editListing: async (body: unknown) => {
        edits.push(body);
        return { ...lean(1), price: 899 };
      },
    } as unknown as ApiClient;
    // a guard stored by an earlier run
    const earlier = new AccountSession({ db: t.db, client: null, keyId: null }, { newAccount: false });
    earlier.undercut.set({ listingId: 1, appId: 730, marketHashName: NAME, floor: 100, step: 1, ceiling: null });

    session = new AccountSession({ db: t.db, client, keyId: null }, { newAccount: false, timings: { guardCheckMs: 10 } });
    expect(session.listingsSeen.size).toBe(0);
    session.startGuards(() => {});
    await new Promise((r) => setTimeout(r, 200));
    expect(reads).toEqual(['myListings']);
    expect(session.listingsSeen.has(2)).toBe(true);
    expect(edits).toEqual([]);
    expect(session.undercut.get(1)).toMatchObject({ state: 'lowest' });
  });
});
