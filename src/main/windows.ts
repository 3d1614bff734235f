/**
 * Every window comes from one factory with the same locked-down webPreferences; the main window also
 * remembers its size and position (window-state.ts).
 */
import { join } from 'node:path';
import { BrowserWindow, screen, type BrowserWindowConstructorOptions } from 'electron';
import { RendererRecovery } from './renderer-recovery.ts';
import { DEFAULT_WINDOW_STATE, fitToDisplays, readWindowState, writeWindowState } from './window-state.ts';

export interface WindowFactoryOptions {
  preloadPath: string;
  /** The renderer's address for a route (app:// when packaged, the dev server in `npm run dev`). */
  urlFor(route: string): string;
  /** The page did not load (a file missing from the package, the dev server down): told, not an empty window. */
  onLoadFailed(url: string, error: Error): void;
  /** The page's process ended (Electron's reason); `reloading`: the window loads it again (renderer-recovery.ts). */
  onRendererGone(reason: string, exitCode: number, reloading: boolean): void;
  /**
   * Whether the windows may open DevTools: development runs only. In a packaged build Electron's default
   * menu (View → Toggle Developer Tools, Ctrl+Shift+I) would otherwise open a console on the page, where a
   * "paste this to unlock a feature" scam could call every function of the bridge as the trader.
   */
  devTools: boolean;
}

export class WindowFactory {
  readonly #options: WindowFactoryOptions;
  /** webContents ids of our windows: the IPC sender check accepts only these. */
  readonly #ours = new Set<number>();

  constructor(options: WindowFactoryOptions) {
    this.#options = options;
  }

  isOurWindow = (webContentsId: number): boolean => this.#ours.has(webContentsId);

  windows(): BrowserWindow[] {
    return BrowserWindow.getAllWindows().filter((w) => !w.isDestroyed() && this.#ours.has(w.webContents.id));
  }

  /** A window on `route` (e.g. '' for the app, '#/item/123' for a detached item view). */
  create(
    route: string,
    bounds: Partial<Pick<BrowserWindowConstructorOptions, 'x' | 'y' | 'width' | 'height'>> = {},
  ): BrowserWindow {
    const win = new BrowserWindow({
      width: 1100,
      height: 760,
      ...bounds,
      minWidth: 960,
      minHeight: 600,
      title: 'Skindesk',
      backgroundColor: '#1a1b1e',
      show: false,
      // Written out here, in the one place that creates windows, so reviewers and Electronegativity see
      // every setting where the window is made.
      webPreferences: {
        preload: this.#options.preloadPath,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webviewTag: false,
        webSecurity: true,
        devTools: this.#options.devTools,
        allowRunningInsecureContent: false,
        experimentalFeatures: false,
        // middle-click would otherwise open links in a new window, around setWindowOpenHandler
        disableBlinkFeatures: 'Auxclick',
        navigateOnDragDrop: false,
        spellcheck: false,
        safeDialogs: true,
      },
    });
    const id = win.webContents.id;
    this.#ours.add(id);
    win.on('closed', () => this.#ours.delete(id));
    win.once('ready-to-show', () => win.show());
    const recovery = new RendererRecovery();
    win.webContents.on('render-process-gone', (_event, details) => {
      const reloading = !win.isDestroyed() && recovery.shouldReload(details.reason);
      this.#options.onRendererGone(details.reason, details.exitCode, reloading);
      if (reloading) win.webContents.reload();
    });
    const url = this.#options.urlFor(route);
    win.loadURL(url).catch((err: unknown) => this.#options.onLoadFailed(url, err instanceof Error ? err : new Error(String(err))));
    return win;
  }

  /** The main window, at its remembered place; its place is saved when it moves, resizes or closes. */
  createMain(stateFile: string): BrowserWindow {
    const areas = screen.getAllDisplays().map((d) => d.workArea);
    const state = fitToDisplays(readWindowState(stateFile), areas);
    const win = this.create('', { x: state.x, y: state.y, width: state.width, height: state.height });
    if (state.maximized) win.once('ready-to-show', () => win.maximize());
    let timer: NodeJS.Timeout | undefined;
    const save = () => {
      if (win.isDestroyed()) return;
      const b = win.getNormalBounds();
      writeWindowState(stateFile, { ...b, maximized: win.isMaximized() });
    };
    const saveSoon = () => {
      clearTimeout(timer);
      timer = setTimeout(save, 500);
    };
    for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const)
      win.on(event as 'resize', saveSoon);
    win.on('close', () => {
      clearTimeout(timer);
      save();
    });
    return win;
  }
}

export const WINDOW_STATE_FILE = 'window-state.json';
export function windowStateFile(userData: string): string {
  return join(userData, WINDOW_STATE_FILE);
}
export { DEFAULT_WINDOW_STATE };
