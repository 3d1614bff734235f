/**
 * Sell groups from a selection of Steam inventory rows (spec §4.4 sell): items of the same type may
 * share a group, different types need separate groups, and a non-commodity item is one copy per group.
 * So: one group per non-commodity item, and one group per commodity name holding all its stacks.
 */
import type { InventoryRow } from '../../../../shared/ipc/calls-account.ts';
import { copiesInRange } from '../../market/buying/copies.ts';

export interface SellGroupDraft {
  key: string;
  name: string;
  commodity: boolean;
  /** Price per copy in cents; null while the field is empty. */
  price: number | null;
  /** Copies from each stack: null while its field is empty (none from that stack), never put into range. */
  items: { assetId: string; amount: number | null; max: number }[];
}

export function defaultSellGroups(rows: readonly InventoryRow[]): SellGroupDraft[] {
  const groups: SellGroupDraft[] = [];
  const byName = new Map<string, SellGroupDraft>();
  for (const row of rows) {
    const entry: SellGroupDraft['items'][number] = { assetId: row.assetId, amount: row.amount, max: row.amount };
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
  return group.items.reduce((s, it) => s + (it.amount ?? 0), 0);
}

/** Why a stack's copies cannot be sold (null: they can; none from a stack is a choice, not a problem). */
export function stackCopiesProblem(item: SellGroupDraft['items'][number], index: number, stacks: number): string | null {
  if (item.amount === null || item.amount === 0 || copiesInRange(item.amount, item.max)) return null;
  const which = stacks > 1 ? `Stack ${index + 1}` : 'The stack';
  return `${which} holds ${copiesOf(item.max)}: enter 0 to ${item.max}.`;
}

/** "1 copy", "40 copies": what a stack holds. */
function copiesOf(n: number): string {
  return n === 1 ? '1 copy' : `${n} copies`;
}

/**
 * The copies a send would take from the group: a figure typed over its stack counts none. It stays as
 * typed (refused, never put into range), so the group total must not price copies the stack lacks.
 */
export function sendableGroupCopies(group: SellGroupDraft): number {
  return group.items.reduce((s, it, i) => s + (stackCopiesProblem(it, i, group.items.length) === null ? (it.amount ?? 0) : 0), 0);
}

/** Why the group total leaves out copies that were typed (a figure over its stack); null when it counts them all. */
export function uncountedCopiesWords(group: SellGroupDraft): string | null {
  const stacks = group.items.length;
  const words = group.items.flatMap((it, i) => {
    if (stackCopiesProblem(it, i, stacks) === null) return [];
    const holds = copiesOf(it.max);
    return [stacks > 1 ? `The ${it.amount} typed for stack ${i + 1} are not counted: it holds ${holds}.` : `The ${it.amount} typed are not counted: the stack holds ${holds}.`];
  });
  return words.length > 0 ? words.join(' ') : null;
}
