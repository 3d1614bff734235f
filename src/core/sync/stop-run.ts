/**
 * How a sync run stops (sync-worker.ts), in a module of its own so the order can be tested without a
 * worker thread: the detail backfill first, then the engine, which applies every event it received.
 */

export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * Stops `backfill` (when the run has one), then `engine`. A backfill that does not stop cleanly is handed
 * to `onBackfillError`: the engine must still apply what it received.
 */
export async function stopSyncRun(
  engine: Stoppable,
  backfill: Stoppable | null,
  onBackfillError: (err: unknown) => void,
): Promise<void> {
  try {
    await backfill?.stop();
  } catch (err) {
    onBackfillError(err);
  }
  await engine.stop();
}
