/**
 * Listing from the backpack: a commodity row is one pool that several groups may draw from (spec §4.4
 * list rule 2); asking for more than the row holds in total fails with INSUFFICIENT_ITEMS. The list
 * dialog shows what is left of each pool as groups are edited.
 */
export interface PoolRow {
  id: number;
  amount: number;
}

export interface DraftGroup {
  key: string;
  rowId: number;
  /** As typed: null while empty. */
  copies: number | null;
}

/**
 * Copies left per backpack row after every group's draw (negative: overdrawn). A group whose copies are
 * not a count (none, 0, −3) draws nothing: −3 typed must not show a pool holding 13 of 10.
 */
export function poolsLeft(rows: readonly PoolRow[], groups: readonly DraftGroup[]): Map<number, number> {
  const left = new Map(rows.map((r) => [r.id, r.amount]));
  for (const g of groups) left.set(g.rowId, (left.get(g.rowId) ?? 0) - Math.max(0, g.copies ?? 0));
  return left;
}

export function overdrawn(rows: readonly PoolRow[], groups: readonly DraftGroup[]): number[] {
  return [...poolsLeft(rows, groups)].filter(([, n]) => n < 0).map(([id]) => id);
}
