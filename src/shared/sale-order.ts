/**
 * The sales tape's order, one rule for the app's reader and the screen's merge: newest sale first; at
 * the same time by listing id, then by the sale event's seq (int64 as a decimal string, compared
 * exactly), both descending.
 */
export function newestSaleFirst<T extends { listing_id: number; seq: string }>(
  soldMs: (sale: T) => number,
): (a: T, b: T) => number {
  return (a, b) => {
    const t = soldMs(b) - soldMs(a);
    if (t !== 0) return t;
    if (a.listing_id !== b.listing_id) return b.listing_id - a.listing_id;
    const [sa, sb] = [BigInt(a.seq), BigInt(b.seq)];
    return sa === sb ? 0 : sa < sb ? 1 : -1;
  };
}
