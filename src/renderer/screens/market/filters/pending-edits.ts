/**
 * Edits typed but still in their pause before they are applied (the filter panel's, the name search's),
 * so the book can send them before it saves its view as the window closes: a closing page runs no timer,
 * and its `pagehide` listeners run in the order they were added, which a panel shown and hidden (F) does
 * not keep.
 */
import { type RefObject, useEffect } from 'react';

export type PendingEdits = Set<() => void>;

/** Keeps `send` (read through its ref: always the latest edit) among `pending` while mounted. */
export function usePendingEdit(pending: PendingEdits | undefined, send: RefObject<() => void>): void {
  useEffect(() => {
    if (!pending) return;
    const flush = () => send.current();
    pending.add(flush);
    return () => {
      pending.delete(flush);
    };
  }, [pending, send]);
}
