/**
 * One keydown listener for every command with a hotkey. Keys typed into a field stay the field's (chords
 * that type nothing excepted, see chordTypesNothing); while a dialog is open only commands marked
 * `inDialogs` (and the dialog's own keys) run, so "B" in the buy dialog's amount field never starts a
 * second purchase.
 */
import { useEffect, useRef } from 'react';
import { getHotkeyHandler } from '@mantine/hooks';
import { type Command, onMac } from './commands.ts';

const FIELD_TAGS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);
/** Inputs that take no typed text (a game switch, a checkbox): only the keys they use themselves are theirs. */
const KEYLESS_INPUTS = new Set(['radio', 'checkbox', 'button', 'submit', 'reset', 'color', 'file', 'image']);
/**
 * The keys such an input keeps: ← and → move a switch (they all lie in a row), Space and Enter pick.
 * ↑/↓, PgUp/PgDn, Home and End are a screen's row keys: after a click on the game switch, ↓ moved the
 * game instead of the book's selection. A screen without row keys leaves them to the input still.
 */
const CONTROL_KEYS = new Set(['ArrowLeft', 'ArrowRight', ' ', 'Enter']);

type KeyFacts = Pick<KeyboardEvent, 'target' | 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey'>;

/**
 * The key is for the focused element: text typed into a field, an arrow moving a radio group's choice.
 * A chord that types no text is a command's even in a field — the kill switch (Ctrl+Shift+K) must work
 * with the focus in the search or a dialog's field, Alt+9 leaves the book from its filter fields.
 */
export function keyBelongsToTarget(event: KeyFacts): boolean {
  const target = event.target;
  if (!(target instanceof HTMLElement)) return false;
  if (chordTypesNothing(event)) return false;
  if (target instanceof HTMLInputElement && KEYLESS_INPUTS.has(target.type)) return CONTROL_KEYS.has(event.key);
  return FIELD_TAGS.has(target.tagName) || target.isContentEditable;
}

/**
 * Windows and Linux: Ctrl, ⊞/Super and Alt chords type nothing — but AltGr (Ctrl+Alt on Windows) types
 * "@" or "{", and Alt with numpad digits types a character by its code (Alt+0169 is "©"). macOS: only ⌘
 * chords ("mod" is ⌘ there); Option types characters (Option+S is "ß") and Ctrl is the field's own
 * editing (Ctrl+K deletes to the end of the line, Ctrl+A and Ctrl+E go to its start and end).
 */
function chordTypesNothing({ ctrlKey, metaKey, altKey, code }: KeyFacts): boolean {
  if (onMac()) return metaKey && !altKey;
  if (ctrlKey || metaKey) return !altKey;
  return altKey && !code.startsWith('Numpad');
}

/**
 * macOS types a character with Option held (Option+S is "ß", Option+1 is "¡"), so with Alt down a letter
 * or digit is matched by its physical key: Alt+0…9 and Alt+S open their screens on every system.
 */
export function withLayoutFreeKey(event: KeyboardEvent): KeyboardEvent {
  const { altKey, ctrlKey, metaKey, shiftKey, code } = event;
  const preventDefault = () => event.preventDefault();
  // "/" is Shift+7 in German and Shift+: in French, "?" is shifted nearly everywhere: the character
  // typed is the key, whatever it took to type it
  if (!altKey && !ctrlKey && !metaKey && isSymbol(event.key)) {
    return { altKey, ctrlKey, metaKey, shiftKey: false, code, key: event.key, preventDefault } as KeyboardEvent;
  }
  const physical = altKey ? /^(?:Key([A-Z])|Digit([0-9]))$/.exec(code) : null;
  if (!physical) return event;
  const key = (physical[1] ?? physical[2])!.toLowerCase();
  return { altKey, ctrlKey, metaKey, shiftKey, code, key, preventDefault } as KeyboardEvent;
}

/** A typed symbol: one character, neither a letter (whose Shift counts) nor a digit or a space. */
function isSymbol(key: string): boolean {
  return key.length === 1 && key.toLowerCase() === key.toUpperCase() && !/[0-9\s]/.test(key);
}

/** A hotkey as matched: "shift+?" is "?" (see withLayoutFreeKey). */
function matchedHotkey(hotkey: string): string {
  const parts = hotkey.toLowerCase().split('+');
  return parts.length === 2 && parts[0] === 'shift' && isSymbol(parts[1]!) ? parts[1]! : hotkey;
}

/**
 * A modal (dialog, drawer, the palette) or a menu is on screen: mounted-but-hidden ones do not count. An
 * open menu keeps the keys too: Escape closes the menu and not also the detail under it, and B does not
 * open a purchase behind it.
 */
export function dialogOpen(): boolean {
  for (const el of document.querySelectorAll('[role="dialog"], [role="menu"]')) {
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
      if (event.defaultPrevented || keyBelongsToTarget(event)) return;
      // Enter and Space on a focused button or link are that control's own
      if ((event.key === 'Enter' || event.key === ' ') && event.target instanceof HTMLElement && event.target.closest('button, a, [role="button"], [role="option"]')) return;
      const inDialog = dialogOpen();
      const runnable = current.current.filter(
        (c): c is Command & { hotkey: string } =>
          c.hotkey !== undefined && c.enabled !== false && (!inDialog || c.inDialogs === true),
      );
      // prevents the default of a matched key and runs its command
      getHotkeyHandler(runnable.map((c) => [matchedHotkey(c.hotkey), () => c.run()]))(withLayoutFreeKey(event));
    };
    document.documentElement.addEventListener('keydown', onKeyDown);
    return () => document.documentElement.removeEventListener('keydown', onKeyDown);
  }, []);
}
