/** Which screen is shown. One value for the whole window; the shell's navigation, palette and hotkeys set it. */
import { allScreens } from '../screens/index.ts';
import { LiveStore, useLive } from './app-state.ts';

export const currentScreenStore = new LiveStore<string | null>(null);

export function navigate(screenId: string): void {
  currentScreenStore.set(screenId);
}

/** The screen shown: the chosen one, else the first market screen (the book). */
export function useCurrentScreenId(): string | null {
  const chosen = useLive(currentScreenStore);
  const screens = allScreens();
  if (chosen && screens.some((s) => s.id === chosen)) return chosen;
  return (screens.find((s) => s.group === 'market') ?? screens[0])?.id ?? null;
}
