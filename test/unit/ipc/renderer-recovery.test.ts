// When a window's page process dies it is reloaded (auto-buy and alerts run on in the main process, and
// a blank window would hide them), but not in a loop when the page dies again right after each reload.
// The window's wiring is tested with the window factory (window-preferences.test.ts).
import { describe, expect, it } from 'vitest';
import { RELOADS_PER_WINDOW, RELOAD_WINDOW_MS, RendererRecovery } from '../../../src/main/renderer-recovery.ts';

describe('the reload policy', () => {
  it('never reloads a page that exited cleanly', () => {
    expect(new RendererRecovery(() => 0).shouldReload('clean-exit')).toBe(false);
  });

  it('reloads again once the earlier reloads are older than the window', () => {
    let now = 0;
    const recovery = new RendererRecovery(() => now);
    for (let i = 0; i < RELOADS_PER_WINDOW; i++) expect(recovery.shouldReload('crashed')).toBe(true);
    expect(recovery.shouldReload('crashed')).toBe(false);
    now += RELOAD_WINDOW_MS + 1;
    expect(recovery.shouldReload('crashed')).toBe(true);
  });
});
