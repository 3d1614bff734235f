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

export function useCheckedDraft<D, R>(draft: D, check: (draft: D) => Promise<R>, enabled = true): CheckedDraft<R> {
  const settled = useDebounced(draft, 200);
  const [answer, setAnswer] = useState<{ key: string; value: R | undefined; failure: Error | null } | null>(null);
  const key = JSON.stringify(settled);
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
  return { value: answer?.value, current: answer !== null && answer.key === JSON.stringify(draft), failure: answer?.failure ?? null };
}

/** A write's dry run: the problems the app's pre-send checks find in the draft on screen. */
export function usePreSendCheck<D>(draft: D, check: (draft: D) => Promise<SendProblem[]>, enabled = true): { problems: SendProblem[] | undefined; checking: boolean } {
  const checked = useCheckedDraft(draft, check, enabled);
  const problems = checked.failure
    ? [{ code: 'CHECK_FAILED', message: checked.failure.message, group: null, entry: null, blocking: true }]
    : checked.value;
  return { problems: checked.current ? problems : undefined, checking: enabled && !checked.current };
}

/** What stops the send: the first blocking problem's words (notes such as "checked before sending" do not). */
export function blockingMessage(problems: readonly SendProblem[] | undefined): string | null {
  return problems?.find((p) => p.blocking)?.message ?? null;
}
