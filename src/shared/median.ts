/** The median of numbers sorted ascending (the two middle ones averaged and rounded); NaN for none. */
export function medianOfSorted(sorted: readonly number[]): number {
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}
