/**
 * What a window does when its page's process dies (out of memory on a huge grid, a GPU crash, killed by
 * the OS): it reloads, so the trader gets the terminal back — auto-buy and alerts keep running in the
 * main process, and a blank window would hide them and the kill switch. A page that dies again and again
 * right after loading is not reloaded in a loop: after RELOADS_PER_WINDOW reloads within
 * RELOAD_WINDOW_MS the window stays as it is and the failure is told.
 */
export const RELOADS_PER_WINDOW = 3;
export const RELOAD_WINDOW_MS = 60_000;

export class RendererRecovery {
  readonly #reloads: number[] = [];
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Whether to reload after the page's process ended for `reason` (Electron's RenderProcessGoneDetails). */
  shouldReload(reason: string): boolean {
    // the page closed itself, or the window is being torn down: nothing to bring back
    if (reason === 'clean-exit') return false;
    const now = this.#now();
    while (this.#reloads.length > 0 && now - (this.#reloads[0] as number) > RELOAD_WINDOW_MS) this.#reloads.shift();
    if (this.#reloads.length >= RELOADS_PER_WINDOW) return false;
    this.#reloads.push(now);
    return true;
  }
}
