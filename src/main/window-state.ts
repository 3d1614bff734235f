/**
 * The main window's size and position, remembered between runs in `window-state.json` (userData). A
 * remembered position that no longer lies on any display (a monitor was unplugged) is dropped, keeping
 * only the size, so the window never opens off-screen.
 */
import { readFileSync, writeFileSync, mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

export const windowState = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(400).max(20_000),
  height: z.number().int().min(300).max(20_000),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof windowState>;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1440, height: 900, maximized: false };
/** How much of the window's title bar must be on a display for the position to be kept. */
const MIN_VISIBLE = 64;

export function readWindowState(file: string): WindowState {
  try {
    const parsed = windowState.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : DEFAULT_WINDOW_STATE;
  } catch {
    return DEFAULT_WINDOW_STATE; // first run, or a file we cannot read: the defaults are fine
  }
}

export function writeWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, file);
}

/** Keeps the position only when the top strip of the window overlaps a display's work area. */
export function fitToDisplays(state: WindowState, workAreas: readonly Rect[]): WindowState {
  if (state.x === undefined || state.y === undefined) return state;
  const { x, y } = state;
  const titleBar: Rect = { x, y, width: state.width, height: Math.min(MIN_VISIBLE, state.height) };
  const visible = workAreas.some((area) => {
    const w = Math.min(titleBar.x + titleBar.width, area.x + area.width) - Math.max(titleBar.x, area.x);
    const h = Math.min(titleBar.y + titleBar.height, area.y + area.height) - Math.max(titleBar.y, area.y);
    return w >= MIN_VISIBLE && h > 0;
  });
  if (visible) return state;
  const { x: _x, y: _y, ...sizeOnly } = state;
  return sizeOnly;
}
