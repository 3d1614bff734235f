/** Which screen is shown. One value for the whole window; the shell's navigation, palette and hotkeys set it. */
import { exactNameFilter, type BookFilter } from '../../shared/query.ts';
import { type ScreenDef, allScreens } from '../screens/index.ts';
import { LiveStore, useLive } from './app-state.ts';
import type { Command } from './commands.ts';

export const currentScreenStore = new LiveStore<string | null>(null);

export function navigate(screenId: string): void {
  currentScreenStore.set(screenId);
}

/** "Go to Wallet" in the palette and the help: found by the screen's name, group and tasks ("withdraw"). */
export function navigationCommand(screen: ScreenDef): Command {
  return {
    id: `nav.${screen.id}`,
    label: `Go to ${screen.label}`,
    group: 'Navigation',
    ...(screen.hotkey ? { hotkey: screen.hotkey } : {}),
    keywords: [screen.group, screen.id, ...(screen.tasks ?? [])],
    run: () => navigate(screen.id),
  };
}

/** The screen shown: the chosen one, else the first market screen (the book). */
export function useCurrentScreenId(): string | null {
  const chosen = useLive(currentScreenStore);
  const screens = allScreens();
  if (chosen && screens.some((s) => s.id === chosen)) return chosen;
  return (screens.find((s) => s.group === 'market') ?? screens[0])?.id ?? null;
}

/** A filter another screen asked the book to show; the book takes it (and clears it) when it appears. */
export const bookFilterRequest = new LiveStore<BookFilter | null>(null);

/**
 * Opens the book filtered to one item: "where is this on the market?" from any account screen. The name
 * quoted (the whole name), so a Redline's StatTrak™ and Souvenir versions are not among its rows.
 */
export function showItemInBook(appId: BookFilter['app_id'], marketHashName: string): void {
  bookFilterRequest.set({ ...(appId === undefined ? {} : { app_id: appId }), name: exactNameFilter(marketHashName) });
  navigate('book');
}
