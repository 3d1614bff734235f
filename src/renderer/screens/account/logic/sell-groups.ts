/**
 * Sell groups from a selection of Steam inventory rows (spec §4.4 sell): items of the same type may
 * share a group, different types need separate groups, and a non-commodity item is one copy per group.
 * So: one group per non-commodity item, and one group per commodity name holding all its stacks.
 */
import type { InventoryRow } from '../../../../shared/ipc/calls-account.ts';

export interface SellGroupDraft {
  key: string;
  name: string;
  commodity: boolean;
  /** Price per copy in cents; null while the field is empty. */
  price: number | null;
  items: { assetId: string; amount: number; max: number }[];
}

export function defaultSellGroups(rows: readonly InventoryRow[]): SellGroupDraft[] {
  const groups: SellGroupDraft[] = [];
  const byName = new Map<string, SellGroupDraft>();
  for (const row of rows) {
    const entry = { assetId: row.assetId, amount: row.amount, max: row.amount };
    if (row.commodity) {
      const existing = byName.get(row.name);
      if (existing) {
        existing.items.push(entry);
        continue;
      }
      const group: SellGroupDraft = { key: `c:${row.name}`, name: row.name, commodity: true, price: row.recommendedPrice || row.marketPrice, items: [entry] };
      byName.set(row.name, group);
      groups.push(group);
    } else {
      groups.push({ key: `a:${row.assetId}`, name: row.name, commodity: false, price: row.recommendedPrice || row.marketPrice, items: [entry] });
    }
  }
  return groups;
}

export function groupCopies(group: SellGroupDraft): number {
  return group.items.reduce((s, it) => s + it.amount, 0);
}
