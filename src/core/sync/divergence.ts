/**
 * Tells real divergence from events still in flight. An anti-entropy snapshot at seq S changes a row
 * either because the feed lost an event (divergence) or because an event at or below S was on its way
 * to us when the snapshot was read. Events received after the fetch began are noted; once a grace
 * period has passed, a changed listing counts as repaired divergence only if no such event explains it.
 */
export const DIVERGENCE_NOTE_CAP = 200_000;

export class DivergenceTracker {
  /** Lowest seq seen per listing since recording began. */
  #seen: Map<number, bigint> | null = null;
  #overflowed = false;

  begin(): void {
    this.#seen = new Map();
    this.#overflowed = false;
  }

  get recording(): boolean {
    return this.#seen !== null;
  }

  note(id: number, seq: bigint): void {
    const seen = this.#seen;
    if (!seen) return;
    const held = seen.get(id);
    if (held !== undefined) {
      if (seq < held) seen.set(id, seq);
      return;
    }
    if (seen.size >= DIVERGENCE_NOTE_CAP) {
      this.#overflowed = true;
      return;
    }
    seen.set(id, seq);
  }

  /** Stops recording without a verdict. */
  cancel(): void {
    this.#seen = null;
  }

  /**
   * Ends recording and returns how many changes no in-flight event explains. `changedIds` null means too
   * many to list: then every change counts unless notes overflowed too (then nothing can be told apart
   * and all `changedCount` count).
   */
  settle(snapshotSeq: bigint, changedIds: readonly number[] | null, changedCount: number): number {
    const seen = this.#seen;
    this.#seen = null;
    if (!seen || changedIds === null || this.#overflowed) return changedCount;
    let unexplained = 0;
    for (const id of changedIds) {
      const seq = seen.get(id);
      if (seq === undefined || seq > snapshotSeq) unexplained++;
    }
    return unexplained;
  }
}
