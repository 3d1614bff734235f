/**
 * React hooks over the bridge: a call's result with loading and error state, and pushes.
 */
import { useCallback, useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
import type {
  IpcCallName,
  IpcInput,
  IpcOutput,
  IpcPushName,
  IpcPushPayload,
} from '../../shared/ipc/index.ts';
import { SkindeskError, call, subscribe } from './skindesk.ts';

export interface CallState<T> {
  /** The last answer, kept while a new key's call is on its way (a table keeps its page meanwhile). */
  data: T | undefined;
  /**
   * The answer for the current key only: undefined while the call for a new key is on its way, so what
   * was read for one thing (the last listing's sales) is never shown as another's.
   */
  current: T | undefined;
  /**
   * Why the last call for the current key failed (null once one answers): a failure read for one page or
   * filter is not said of the next one while its call is on its way.
   */
  error: SkindeskError | null;
  /** A call is on its way: the first, and every one after it (a reload, a new key). */
  loading: boolean;
  /** Calls again (e.g. after a push said the data changed). */
  reload: () => void;
}

function asSkindeskError(err: unknown): SkindeskError {
  return err instanceof SkindeskError ? err : new SkindeskError({ code: 'INTERNAL', message: String(err) });
}

/**
 * The result of `name(input)`, called on mount and whenever `key` (default: the input as JSON) changes.
 * Overlapping reloads are collapsed: while one call runs, further reloads make one more call after it.
 */
export function useCall<N extends IpcCallName>(
  name: N,
  input: IpcInput<N>,
  key?: string,
): CallState<IpcOutput<N>> {
  const [answer, setAnswer] = useState<{ data: IpcOutput<N>; key: string } | undefined>(undefined);
  const [failure, setFailure] = useState<{ error: SkindeskError; key: string } | null>(null);
  const [loading, setLoading] = useState(true);
  const inputRef = useRef(input);
  const effectKey = key ?? JSON.stringify(input);
  const keyRef = useRef(effectKey);
  // runs before the effects below, so a (re)load always sends the input of the latest render
  useLayoutEffect(() => {
    inputRef.current = input;
    keyRef.current = effectKey;
  });
  const running = useRef(false);
  const again = useRef(false);
  const alive = useRef(true);

  const run = useCallback(async () => {
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    // on the way again (a Refresh, a new page, a push): not only the first read is shown as loading
    if (alive.current) setLoading(true);
    try {
      do {
        again.current = false;
        const asked = keyRef.current;
        try {
          const value = await call(name, inputRef.current);
          if (alive.current) {
            setAnswer({ data: value, key: asked });
            setFailure(null);
          }
        } catch (err) {
          if (alive.current) setFailure({ error: asSkindeskError(err), key: asked });
        }
      } while (again.current && alive.current);
    } finally {
      running.current = false;
      if (alive.current) setLoading(false);
    }
  }, [name]);

  useEffect(() => {
    alive.current = true;
    void run();
    return () => {
      alive.current = false;
    };
  }, [run, effectKey]);

  return {
    data: answer?.data,
    current: answer?.key === effectKey ? answer.data : undefined,
    error: failure?.key === effectKey ? failure.error : null,
    loading,
    reload: () => void run(),
  };
}

/** Calls `listener` for every push `name` while mounted. */
export function usePush<P extends IpcPushName>(
  name: P,
  listener: (payload: IpcPushPayload<P>) => void,
): void {
  const onPush = useEffectEvent(listener);
  useEffect(() => {
    try {
      return subscribe(name, (payload) => onPush(payload));
    } catch {
      return undefined; // no bridge: useCall reports it
    }
  }, [name]);
}

/**
 * State kept current by a push, starting from a call that returns the same shape (getStatus and
 * syncStatus, getSettings and settingsChanged, ...).
 */
export function useLiveValue<N extends IpcCallName, P extends IpcPushName>(
  initial: N,
  push: P,
): { value: IpcOutput<N> | IpcPushPayload<P> | undefined; error: SkindeskError | null } {
  const first = useCall(initial, {} as IpcInput<N>);
  const [pushed, setPushed] = useState<IpcPushPayload<P> | undefined>(undefined);
  usePush(push, setPushed);
  return { value: pushed ?? first.data, error: first.error };
}
