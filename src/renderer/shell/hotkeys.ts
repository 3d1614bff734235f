/**
 * One keydown listener for every command with a hotkey. Keys typed into a field stay the field's; while
 * a dialog is open only commands marked `inDialogs` (and the dialog's own keys) run, so "B" in the buy
 * dialog's amount field never starts a second purchase.
 */
import { useEffect, useRef } from 'react';
import { getHotkeyHandler } from '@mantine/hooks';
import type { Command } from './commands.ts';

const FIELD_TAGS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return FIELD_TAGS.has(target.tagName) || target.isContentEditable;
}

/** A modal (dialog, drawer, the palette) is on screen: mounted-but-hidden ones do not count. */
export function dialogOpen(): boolean {
  for (const el of document.querySelectorAll('[role="dialog"]')) {
    if (el instanceof HTMLElement && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden') return true;
  }
  return false;
}

export function useCommandHotkeys(commands: readonly Command[]): void {
  const current = useRef(commands);
  useEffect(() => {
    current.current = commands;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTypingTarget(event.target)) return;
      // Enter and Space on a focused button or link are that control's own
      if ((event.key === 'Enter' || event.key === ' ') && event.target instanceof HTMLElement && event.target.closest('button, a, [role="button"], [role="option"]')) return;
      const inDialog = dialogOpen();
      const runnable = current.current.filter(
        (c): c is Command & { hotkey: string } =>
          c.hotkey !== undefined && c.enabled !== false && (!inDialog || c.inDialogs === true),
      );
      // prevents the default of a matched key and runs its command
      getHotkeyHandler(runnable.map((c) => [c.hotkey, () => c.run()]))(event);
    };
    document.documentElement.addEventListener('keydown', onKeyDown);
    return () => document.documentElement.removeEventListener('keydown', onKeyDown);
  }, []);
}
