/** Small hooks of the account screens. */
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** The current time, re-rendered every `intervalMs` (countdowns, "12s ago"). */
export function useNow(intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** A value that settles `delayMs` after its last change (checks as the user types). */
export function useDebounced<T>(value: T, delayMs = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/**
 * The latest `value` of a render, for a callback made once (a registered command, an action in flight)
 * to call what the screen holds now rather than what it held when the callback was made.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const latest = useRef(value);
  useLayoutEffect(() => {
    latest.current = value;
  });
  return latest;
}
