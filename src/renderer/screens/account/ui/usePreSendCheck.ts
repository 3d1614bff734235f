/**
 * Runs a write's dry run (the app's pre-send checks, nothing sent) as the draft changes, debounced, and
 * answers the problems found. A dry run that fails (disconnected, say) reports that as a problem too.
 */
import { useEffect, useState } from 'react';
import type { SendProblem } from '../../../../shared/ipc/calls-account.ts';
import { useDebounced } from './hooks.ts';

export function usePreSendCheck<D>(draft: D, check: (draft: D) => Promise<SendProblem[]>, enabled = true): { problems: SendProblem[] | undefined; checking: boolean } {
  const settled = useDebounced(draft, 200);
  const [result, setResult] = useState<{ for: D; problems: SendProblem[] } | null>(null);
  const key = JSON.stringify(settled);
  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    check(settled)
      .then((problems) => alive && setResult({ for: settled, problems }))
      .catch((err: unknown) =>
        alive && setResult({ for: settled, problems: [{ code: 'CHECK_FAILED', message: err instanceof Error ? err.message : String(err), group: null, entry: null }] }),
      );
    return () => {
      alive = false;
    };
    // the draft's content (key), not its identity, decides when to check again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, enabled]);
  const current = result !== null && JSON.stringify(result.for) === JSON.stringify(draft);
  return { problems: result?.problems, checking: enabled && !current };
}
