/**
 * The minimum-balance guardrail sees every purchase of the session's purchaser, not only the auto-buyer's:
 * the app shares one purchaser between the book, the cart, private links and the watchlists, and the
 * balance is read only every minute, so a purchase from the book that the estimate missed would let an
 * automatic one spend below the minimum until the next read. Each purchase counts once, not bought ones
 * not at all.
 */
import { afterEach, expect, it } from 'vitest';
import { ManualRig, autoWatchlist, itemNames } from './rig.ts';

let rig: ManualRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

/** A rig whose watchlist auto-buys `item` at up to 10,000 while `minimum` is left; the balance it started from. */
async function guarded(minimum: (balance: number) => number): Promise<{ r: ManualRig; balance: number; manual: string; watched: string }> {
  const r = await ManualRig.start();
  rig = r;
  const [manual, watched] = itemNames(r.demo, 2);
  const balance = (await r.service.refreshBalance()) as number;
  r.service.create(autoWatchlist('keep a minimum', watched!.name, 10_000, { min_balance: minimum(balance) }));
  await r.service.sweep();
  return { r, balance, manual: manual!.name, watched: watched!.name };
}

it.each(['single', 'cart'] as const)('a %s purchase from the book counts against the minimum balance before the next read', async (kind) => {
  // 1,500 may be spent: the manual 1,000 leaves 500, too little for the match at 1,000
  const { r, balance, manual, watched } = await guarded((b) => b - 1_500);
  const bought =
    kind === 'single'
      ? await buyOne(r, manual, 1_000)
      : await r.purchaser.buyCart(
          [600, 400].map((price) => {
            const { listing } = r.demo.createListing({ name: manual, price });
            return { listingId: listing.id, amount: 1, maxPrice: price, marketHashName: null, appId: null };
          }),
        );
  expect(bought.status).toBe('bought');
  expect(await matchAt(r, watched, 1_000)).toMatchObject({ decision: 'blocked', reason: 'min_balance' });
  expect((await r.client.user()).balance).toBe(balance - 1_000);
});

it('a purchase from the book that is not bought releases what it held', async () => {
  // exactly 1,000 may be spent
  const { r, balance, manual, watched } = await guarded((b) => b - 1_000);
  // its ceiling below the listed price: refused by the market
  const refused = await buyOne(r, manual, 1_000, 999);
  expect(refused.status).toBe('not_bought');
  expect(await matchAt(r, watched, 1_000)).toMatchObject({ decision: 'sent', status: 'bought' });
  expect((await r.client.user()).balance).toBe(balance - 1_000);
});

it("an automatic purchase counts once: the auto-buyer's own purchases are not held twice", async () => {
  // room for exactly two matches at 1,000
  const { r, balance, watched } = await guarded((b) => b - 2_000);
  for (const price of [1_000, 1_000]) expect(await matchAt(r, watched, price)).toMatchObject({ decision: 'sent', status: 'bought' });
  expect((await r.client.user()).balance).toBe(balance - 2_000);
});

/** Buys a new listing of `name` at `price` from the book, as the buy dialog does (through the session's purchaser). */
async function buyOne(r: ManualRig, name: string, price: number, maxPrice = price) {
  const { listing } = r.demo.createListing({ name, price });
  await r.deliver();
  return r.purchaser.buy({ listingId: listing.id, maxPrice, amount: 1, source: 'app' });
}

/** A new listing of the watched item at `price`, delivered by the feed: the auto-buy log's entry for it. */
async function matchAt(r: ManualRig, watched: string, price: number) {
  const { listing } = r.demo.createListing({ name: watched, price });
  await r.deliver();
  return r.service.log(5).find((e) => e.listingId === listing.id);
}
