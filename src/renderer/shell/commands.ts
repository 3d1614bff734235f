/**
 * Commands: one list behind the command palette, the hotkeys and the help overlay. A command is
 * registered by the component that can run it, for as long as it is mounted, so the palette offers
 * "Buy selected listing" only while the book is on screen — and the help overlay lists exactly the
 * hotkeys that work right now.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';

export interface Command {
  id: string;
  label: string;
  /** Palette group and help section, e.g. "Navigation", "Book", "Buying". */
  group: string;
  /** In @mantine/hooks notation: 'mod+k', 'shift+?', 'b', 'arrowdown'. */
  hotkey?: string;
  /** Extra words the palette matches. */
  keywords?: string[];
  /** Hidden from the palette (keys like arrow-down that only make sense as keys). */
  paletteHidden?: boolean;
  /** Also while a dialog is open (Escape-like keys). */
  inDialogs?: boolean;
  /** False: listed but not runnable now (e.g. "Buy" while offline); `disabledReason` says why. */
  enabled?: boolean;
  disabledReason?: string;
  run: () => void;
}

type Listener = () => void;

class CommandRegistry {
  #owners = new Map<symbol, readonly Command[]>();
  #snapshot: readonly Command[] = [];
  #listeners = new Set<Listener>();

  set(owner: symbol, commands: readonly Command[]): void {
    this.#owners.set(owner, commands);
    this.#publish();
  }

  remove(owner: symbol): void {
    if (this.#owners.delete(owner)) this.#publish();
  }

  all = (): readonly Command[] => this.#snapshot;

  subscribe = (listener: Listener): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #publish(): void {
    this.#snapshot = [...this.#owners.values()].flat();
    for (const listener of this.#listeners) listener();
  }
}

export const commandRegistry = new CommandRegistry();

/**
 * Registers `commands` while the calling component is mounted. Changed commands (a label, a selection
 * that enables Buy) keep their place in the palette and the help: a trader who learned "Ctrl+K, ↓, ↓,
 * Enter" finds the same command there after the kill switch was toggled.
 */
export function useRegisterCommands(commands: readonly Command[]): void {
  const [owner] = useState(() => Symbol('commands'));
  useEffect(() => {
    commandRegistry.set(owner, commands);
  }, [owner, commands]);
  useEffect(() => () => commandRegistry.remove(owner), [owner]);
}

export function useCommands(): readonly Command[] {
  return useSyncExternalStore(commandRegistry.subscribe, commandRegistry.all, commandRegistry.all);
}

/** The renderer runs on macOS: "mod" is ⌘ there, and Option and Ctrl type or edit in a text field. */
export function onMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
}

/** How a hotkey is shown: 'mod+k' → ['Ctrl', 'K'] (⌘ on macOS). */
export function hotkeyLabel(hotkey: string): string[] {
  const mac = onMac();
  const names: Record<string, string> = {
    mod: mac ? '⌘' : 'Ctrl',
    ctrl: 'Ctrl',
    alt: mac ? '⌥' : 'Alt',
    shift: 'Shift',
    meta: mac ? '⌘' : 'Meta',
    arrowup: '↑',
    arrowdown: '↓',
    arrowleft: '←',
    arrowright: '→',
    enter: 'Enter',
    escape: 'Esc',
    pageup: 'PgUp',
    pagedown: 'PgDn',
    home: 'Home',
    end: 'End',
    slash: '/',
    space: 'Space',
  };
  const parts = hotkey.toLowerCase().split('+');
  // "shift+?" reads as "?": the shift is how the key is typed, not a separate chord
  const shown = parts.length === 2 && parts[0] === 'shift' && parts[1] === '?' ? ['?'] : parts;
  return shown.map((p) => names[p] ?? (p.length === 1 ? p.toUpperCase() : p));
}
