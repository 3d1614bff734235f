/**
 * State of one write action: idle → running → done (with its result) or failed (with the error). A
 * second run while one is running is ignored, so a double click never sends twice.
 */
import { useCallback, useRef, useState } from 'react';
import { SkindeskError } from '../../../bridge/index.ts';
import { useLatest } from './hooks.ts';

export interface ActionState<A extends unknown[], R> {
  running: boolean;
  result: R | null;
  error: SkindeskError | null;
  run: (...args: A) => Promise<R | null>;
  reset: () => void;
}

export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>): ActionState<A, R> {
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<R | null>(null);
  const [error, setError] = useState<SkindeskError | null>(null);
  const busy = useRef(false);
  const latest = useLatest(action);

  const run = useCallback(async (...args: A): Promise<R | null> => {
    if (busy.current) return null;
    busy.current = true;
    setRunning(true);
    setError(null);
    try {
      const value = await latest.current(...args);
      setResult(value);
      return value;
    } catch (err) {
      setError(err instanceof SkindeskError ? err : new SkindeskError({ code: 'INTERNAL', message: String(err) }));
      return null;
    } finally {
      busy.current = false;
      setRunning(false);
    }
  }, [latest]);

  const reset = useCallback(() => {
    setResult(null);
    setError(null);
  }, []);

  return { running, result, error, run, reset };
}
