/**
 * How a sync run stops (sync-worker.ts), in a module of its own so the order can be tested without a
 * worker thread: the detail backfill's pages first, then the engine, which applies every event it
 * received, and only then the backfill's last count. Counted before the engine's last write, the
 * `stopped` line of `skindesk sync` disagreed with `skindesk status` read right after it.
 */
import type { DetailBackfill } from './backfill.ts';

export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * Stops `backfill` (when the run has one) and `engine`, then reports the backfill's count from the file.
 * A backfill that does not stop or count cleanly (a damaged file) is handed to `onBackfillError`: the
 * engine must still apply what it received.
 */
export async function stopSyncRun(
  engine: Stoppable,
  backfill: Pick<DetailBackfill, 'stop' | 'reportFinal'> | null,
  onBackfillError: (err: unknown) => void,
): Promise<void> {
  try {
    await backfill?.stop();
  } catch (err) {
    onBackfillError(err);
  }
  await engine.stop();
  try {
    backfill?.reportFinal();
  } catch (err) {
    onBackfillError(err);
  }
}
