/** Largest number of releases inside any window of `windowMs`: what the server would count at its worst alignment. */
export function maxInAnyWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while ((sorted[hi] as number) - (sorted[lo] as number) >= windowMs) lo++;
    max = Math.max(max, hi - lo + 1);
  }
  return max;
}
