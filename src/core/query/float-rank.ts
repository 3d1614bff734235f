/**
 * Where a float stands among the live listings of the same item in the mirrored book: 1 is the lowest.
 * A walk of the attrs_name index (name, float) over live rows only, so it answers in a millisecond even
 * for items listed thousands of times.
 */
import type { Db } from '../store/database.ts';

export interface FloatRank {
  /** 1 + the listings of the item with a lower float (equal floats share a rank). */
  rank: number;
  /** Live listings of the item whose float is known (details backfilled or from the creation event). */
  of: number;
}

export function floatRank(db: Db, marketHashName: string, wear: number): FloatRank | null {
  const row = db
    .prepare<[number, string], { below: number | null; of: number }>(
      `SELECT sum(cs_paint_wear < ?) AS below, count(*) AS of FROM listing_attrs
       WHERE alive = 1 AND name_id = (SELECT name_id FROM item_names WHERE name = ?) AND cs_paint_wear IS NOT NULL`,
    )
    .get(wear, marketHashName)!;
  return row.of === 0 ? null : { rank: (row.below ?? 0) + 1, of: row.of };
}
