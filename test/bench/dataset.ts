/**
 * Benchmark datasets: the text of a `/book` answer with N lean listings (what the client receives), and
 * the detail fields of the same listings (what the backfill stores), generated from one seed so both
 * describe the same book.
 */
import { stringifyJson } from '../../src/shared/api/index.ts';
import type { BookStore } from '../../src/core/store/index.ts';
import { BASE_TIME_MS, createRng, leanOf, makeFullListing } from './generate.ts';

export const DATASET_SEED = 20260101;

/** The JSON text of a book snapshot of `n` listings (ids 1..n) at `seq`. */
export function bookSnapshotText(n: number, seq: bigint, seed = DATASET_SEED): string {
  const rng = createRng(seed);
  const parts: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    parts[i] = JSON.stringify(leanOf(makeFullListing(rng, i + 1, BASE_TIME_MS + (i + 1) * 1000)));
  }
  return `{"seq":${stringifyJson(seq)},"listings":[${parts.join(',')}]}`;
}

/** Stores the detail fields of listings 1..n (same seed as the snapshot), in transactions of 5 000. */
export function fillAllDetails(store: BookStore, n: number, seed = DATASET_SEED): void {
  const rng = createRng(seed);
  const now = Date.now();
  for (let start = 1; start <= n; start += 50_000) {
    const end = Math.min(n, start + 49_999);
    store.write(() => {
      for (let id = start; id <= end; id++) store.fillDetails(id, makeFullListing(rng, id, BASE_TIME_MS + id * 1000), now);
    });
  }
}
