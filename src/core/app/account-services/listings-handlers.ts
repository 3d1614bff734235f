/**
 * My listings: pages by status, single edits (price, amount or decay; a partial reprice reports the
 * listing that now holds the surplus at the old price), bulk reprice and bulk delist with one result
 * row per listing.
 */
import type { LeanListing, MyListing } from '../../../shared/api/index.ts';
import type { ACCOUNT_CALLS } from '../../../shared/ipc/calls-account.ts';
import { SkindeskError } from '../../../shared/ipc/index.ts';
import { formatCents } from '../../../shared/money.ts';
import { checkBulkSize } from '../../account/presend-checks.ts';
import { bookStandings } from '../../query/book-standing.ts';
import type { AreaHandlers } from '../handlers/types.ts';
import type { AccountRuntime } from './account-runtime.ts';
import type { AccountSession } from './account-session.ts';
import { bulkRows, freshnessOf, guardView, pageQuery, refusal } from './views.ts';

/** Newest own listings read to find the split-off one (it is created last, so it is near the top). */
const SPLIT_SEARCH_LIMIT = 25;

/**
 * After a partial reprice the surplus stays listed at the old price as a new listing (spec §4.4 PATCH
 * rule 4), which the PATCH answer does not name. It is the newest own listing of the same item holding
 * exactly the surplus, with an id above every listing seen before the edit (ids only grow).
 */
async function findSplit(account: AccountSession, before: MyListing, keep: number, highestSeenId: number): Promise<MyListing | null> {
  const surplus = before.amount - keep;
  const read = await account.reads.myListings({ ...pageQuery(1, SPLIT_SEARCH_LIMIT), status: before.status ?? 'ACTIVE' });
  account.rememberListings(read.data.listings);
  return (
    read.data.listings.find(
      (l) => l.id > highestSeenId && l.id !== before.id && l.market_hash_name === before.market_hash_name && l.amount === surplus,
    ) ?? null
  );
}

export function listingsHandlers(
  runtime: AccountRuntime,
): AreaHandlers<Pick<typeof ACCOUNT_CALLS, 'getMyListings' | 'editListing' | 'bulkEditListings' | 'delistListings' | 'setUndercutGuard'>> {
  return {
    getMyListings: async ({ status, page, limit, appId }) => {
      const account = runtime.account();
      const read = await account.reads.myListings({
        ...pageQuery(page, limit),
        status,
        ...(appId !== null ? { app_id: String(appId) } : {}),
      });
      account.rememberListings(read.data.listings);
      // Only listings that compete now (or would again once enabled) have a standing worth showing.
      const competing = status === 'ACTIVE' || status === 'DISABLED';
      return {
        listings: read.data.listings,
        metadata: read.data.metadata,
        freshness: freshnessOf(read),
        standings: competing ? bookStandings(account.market.db, read.data.listings, account.listingsSeen.keys()) : [],
        // a new key's account not met yet: the guards held are the previous key's account's
        guards: account.awaitingAccount ? [] : account.undercut.list().map(guardView),
      };
    },

    setUndercutGuard: async ({ listingId, floor, step, ceiling }) => {
      const account = runtime.account();
      if (floor === null) {
        account.undercut.remove(listingId);
        return { guard: null };
      }
      const listing = account.listingsSeen.get(listingId);
      if (!listing || (listing.status !== undefined && listing.status !== 'ACTIVE')) {
        throw new SkindeskError({ code: 'REFUSED', message: 'Only an active listing shown in My listings can be guarded; refresh the list and try again.' });
      }
      if (listing.price_decay) {
        throw new SkindeskError({ code: 'REFUSED', message: 'This listing follows a price decay; a guard would fight it. Set a fixed price first.' });
      }
      if (floor > listing.price) {
        throw new SkindeskError({ code: 'REFUSED', message: `The floor (${formatCents(floor)}) is above the listing's price (${formatCents(listing.price)}): the guard lowers a price from where it is, and raises it only up to a ceiling.` });
      }
      if (ceiling !== null && ceiling <= floor) {
        throw new SkindeskError({ code: 'REFUSED', message: `The ceiling (${formatCents(ceiling)}) must be above the floor (${formatCents(floor)}).` });
      }
      const guard = account.undercut.set({ listingId, appId: listing.app_id, marketHashName: listing.market_hash_name, floor, step, ceiling });
      // judged at once rather than at the next tick
      void account.undercut.check().catch(() => undefined);
      return { guard: guardView(guard) };
    },

    editListing: async ({ listingId, price, amount, decay }) => {
      const account = runtime.account();
      const client = account.client();
      const before = account.listingsSeen.get(listingId) ?? null;
      const highestSeenId = Math.max(0, ...account.listingsSeen.keys());
      let answer;
      try {
        answer = await client.editListing(
          {
            listing_id: listingId,
            ...(price !== null ? { price } : {}),
            ...(amount !== null ? { amount } : {}),
            ...(decay !== null ? { price_decay: decay } : {}),
          },
          { priority: 'interactive' },
        );
      } finally {
        // also when the answer was lost (the edit may have gone through): a new amount moves copies
        // between the listing and the backpack, a new price changes the listed value
        if (amount !== null) account.itemsMoved();
        else account.reads.invalidate('myListingsValue');
      }
      const listing = answer as LeanListing;
      const partialReprice = amount !== null && (price !== null || decay !== null) && before !== null && amount < before.amount;
      // The edit went through; failing to find the split must not turn it into an error.
      const split = partialReprice ? await findSplit(account, before, amount, highestSeenId).catch(() => null) : null;
      return { listing, split };
    },

    bulkEditListings: async ({ edits }) => {
      const account = runtime.account();
      const size = checkBulkSize(edits.length);
      if (!size.ok) throw refusal(size.problems);
      const client = account.client();
      let results;
      try {
        results = await client.editListings(
          edits.map((e) => ({ listing_id: e.listingId, ...(e.decay ? { price_decay: e.decay } : { price: e.price as number }) })),
          { priority: 'interactive' },
        );
      } finally {
        // prices only: the listed value moves, the backpack does not
        account.reads.invalidate('myListingsValue');
      }
      return { results: bulkRows(edits.map((e) => e.listingId), results) };
    },

    delistListings: async ({ listingIds }) => {
      const account = runtime.account();
      const size = checkBulkSize(listingIds.length);
      if (!size.ok) throw refusal(size.problems);
      const client = account.client();
      let results;
      try {
        results = await client.delistMany(listingIds, { priority: 'interactive' });
      } finally {
        // delisted copies go back to the backpack (some rows may have, even when the call failed)
        account.itemsMoved();
      }
      return { results: bulkRows(listingIds, results) };
    },
  };
}
