/**
 * The money a Purchaser commits, told to whoever keeps a balance estimate: each purchase at its ceiling
 * (max price × copies, every line of a cart) the moment it is handed to the purchaser, then its outcome.
 * The estimate follows the purchaser rather than one of its callers so that a purchase from the book, the
 * cart or a private link counts against the auto-buyer's minimum balance exactly like an automatic one —
 * and, told by the purchaser alone, each purchase counts once.
 */
import type { PurchaseResult } from '../../shared/api/index.ts';
import type { PurchaseStatus } from './purchaser.ts';

export interface SpendOutcome {
  status: PurchaseStatus;
  /** What it cost, when the server's answer said so (bought); null when only the ceiling is known. */
  cost: number | null;
}

/** Told of one purchase handed over at `ceiling` cents; returns what its outcome is told to. */
export type SpendWatcher = (ceiling: number) => (outcome: SpendOutcome) => void;

/** Who can be watched: a Purchaser. */
export interface SpendSource {
  /** Adds a watcher for every purchase handed over from now on; returns what removes it. */
  watchSpending(watcher: SpendWatcher): () => void;
}

export class SpendWatchers implements SpendSource {
  readonly #watchers = new Set<SpendWatcher>();

  watchSpending(watcher: SpendWatcher): () => void {
    this.#watchers.add(watcher);
    return () => void this.#watchers.delete(watcher);
  }

  /**
   * Starts `purchase` with every watcher told of it first, in the same turn as the caller: a guardrail
   * judged right after a purchase is handed over must already see it, however long that purchase then
   * waits (for another of the same item, for the rate budget) before it is sent.
   */
  track<T extends { status: PurchaseStatus; result: PurchaseResult | null }>(ceiling: number, purchase: () => Promise<T>): Promise<T> {
    const outcomes = [...this.#watchers].map((watcher) => watcher(ceiling));
    const tell = (outcome: SpendOutcome) => {
      for (const told of outcomes) told(outcome);
    };
    return purchase().then(
      (outcome) => {
        tell({ status: outcome.status, cost: outcome.result ? costOf(outcome.result) : null });
        return outcome;
      },
      (err: unknown) => {
        // a local failure in the middle of a purchase (the journal's disk, say): it may have been sent
        tell({ status: 'unknown', cost: null });
        throw err;
      },
    );
  }
}

function costOf(result: PurchaseResult): number {
  return result.items.reduce((sum, item) => sum + item.price * item.amount, 0);
}
