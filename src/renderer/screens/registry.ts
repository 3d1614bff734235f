/**
 * The screens of the app, in navigation order. The shell (navigation, command palette, hotkeys, help
 * overlay) is built from this list, so a screen is added by one entry here and nothing else.
 */
import type { ComponentType } from 'react';

export interface ScreenDef {
  /** Stable id, used in the route and in saved state. */
  id: string;
  label: string;
  /** Navigation group: the market screens, the account screens, or the app's own (Settings). */
  group: 'market' | 'account' | 'app';
  /** Hotkey in @mantine/hooks useHotkeys notation, e.g. 'mod+1'. */
  hotkey?: string;
  icon?: ComponentType<{ size?: number | string }>;
  /**
   * What a trader comes to this screen to do, in their words ("sell", "withdraw"): the palette finds
   * the screen by them, since no screen is called Sell.
   */
  tasks?: readonly string[];
  component: ComponentType;
}

const screens: ScreenDef[] = [];

/** Called once per screen module at import time (see screens/index.ts). */
export function registerScreen(screen: ScreenDef): void {
  if (screens.some((s) => s.id === screen.id)) throw new Error(`screen ${screen.id} registered twice`);
  screens.push(screen);
}

export function allScreens(): readonly ScreenDef[] {
  return screens;
}
