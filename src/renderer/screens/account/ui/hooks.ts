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

/** What Tab stops at: where the focus can be put back when the opener of a dialog cannot take it. */
const TABBABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/**
 * For a dialog shown by mounting it open and closed by removing it (`{open ? <Dialog opened /> : null}`):
 * gives the focus back, as it goes, to what had it as it came (the button that opened it), so a keyboard
 * user keeps their place. Mantine does this only when a dialog's `opened` turns false, never for one
 * removed while open: the focus fell to the page's body. When the opener cannot take the focus any more
 * (it acted on a selection that was sent and cleared, and is disabled now), the next control after it
 * takes it (the rows below a toolbar), never the body. A dialog mounted closed is left to Mantine.
 */
export function useFocusReturnOnRemoval(opened: boolean): void {
  // read as the dialog mounts, before its focus trap moves the focus in
  const [opener] = useState(() => (opened ? document.activeElement : null));
  useEffect(
    () => () => {
      if (!(opener instanceof HTMLElement) || opener === document.body || !opener.isConnected) return;
      // put somewhere on purpose meanwhile (another dialog, a field): left there
      const now = document.activeElement;
      if (now !== null && now !== document.body) return;
      opener.focus({ preventScroll: true });
      if (document.activeElement === opener) return;
      const after = [...document.querySelectorAll<HTMLElement>(TABBABLE)].find((el) => opener.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
      after?.focus({ preventScroll: true });
    },
    [opener],
  );
}
