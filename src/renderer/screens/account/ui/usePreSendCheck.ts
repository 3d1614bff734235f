/**
 * Checks a draft as it changes (debounced): the app's dry runs and quotes. The answer is kept together
 * with the draft it was computed for, so a screen never takes an answer for an older draft as the
 * answer for the one on screen (typing fast, or a slow app, would otherwise unblock a send too early).
 */
import { useEffect, useState } from 'react';
import type { SendProblem } from '../../../../shared/ipc/calls-account.ts';
import { useDebounced } from './hooks.ts';

export interface CheckedDraft<R> {
  /** The latest answer (possibly for an older draft: fine to show while the next one comes). */
  value: R | undefined;
  /** Whether `value` answers the draft as it is now. */
  current: boolean;
  failure: Error | null;
}

/** Counts the changes of `value` (by identity): a new value, a new count. */
function useChangeCount(value: unknown): number {
  // kept in state and adjusted while rendering (React's pattern for "the value on the previous render")
  const [seen, setSeen] = useState({ value, count: 0 });
  if (seen.value === value) return seen.count;
  const next = { value, count: seen.count + 1 };
  setSeen(next);
  return next.count;
}

/**
 * `recheck`: each new value (a send's error, say) checks the same draft again — a send whose answer was
 * lost changes what the app says of the draft (its items are read before any repeat) without an edit.
 */
export function useCheckedDraft<D, R>(draft: D, check: (draft: D) => Promise<R>, enabled = true, recheck: unknown = null): CheckedDraft<R> {
  const settled = useDebounced(draft, 200);
  const [answer, setAnswer] = useState<{ key: string; value: R | undefined; failure: Error | null } | null>(null);
  const round = useChangeCount(recheck);
  const key = `${round}:${JSON.stringify(settled)}`;
  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    check(settled)
      .then((value) => alive && setAnswer({ key, value, failure: null }))
      .catch((err: unknown) => alive && setAnswer((a) => ({ key, value: a?.value, failure: err instanceof Error ? err : new Error(String(err)) })));
    return () => {
      alive = false;
    };
    // the draft's content (key), not its identity, decides when to check again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, enabled]);
  return { value: answer?.value, current: answer !== null && answer.key === `${round}:${JSON.stringify(draft)}`, failure: answer?.failure ?? null };
}

/** A write's dry run: the problems the app's pre-send checks find in the draft on screen. */
export function usePreSendCheck<D>(
  draft: D,
  check: (draft: D) => Promise<SendProblem[]>,
  enabled = true,
  recheck: unknown = null,
): { problems: SendProblem[] | undefined; checking: boolean } {
  const checked = useCheckedDraft(draft, check, enabled, recheck);
  const problems = checked.failure
    ? [{ code: 'CHECK_FAILED', message: checked.failure.message, group: null, entry: null, blocking: true }]
    : checked.value;
  return { problems: checked.current ? problems : undefined, checking: enabled && !checked.current };
}

/**
 * Why the send button is off, said beside it: the blocking problems are listed in words just above
 * (ProblemList), so this points at them rather than repeat one (notes such as "checked before sending"
 * do not block).
 */
export function blockingMessage(problems: readonly SendProblem[] | undefined): string | null {
  const blocking = problems?.filter((p) => p.blocking).length ?? 0;
  if (blocking === 0) return null;
  return blocking === 1 ? 'Fix the problem above to send.' : `Fix the ${blocking} problems above to send.`;
}
