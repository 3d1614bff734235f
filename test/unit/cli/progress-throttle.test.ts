import { describe, expect, it } from 'vitest';
import { ProgressThrottle } from '../../../src/cli/progress-throttle.ts';

describe('skindesk sync progress throttle', () => {
  it('writes a new state or problem at once, other changes at most every 5 s', () => {
    const t = new ProgressThrottle(5_000);
    expect(t.take('resyncing · 10 listings', 'resyncing|', 0)).toBe(true);
    // only counts moved: held back
    expect(t.take('resyncing · 11 listings', 'resyncing|', 1_000)).toBe(false);
    // a problem appears within the same state: written at once
    expect(t.take('resyncing · 11 listings · stale answer', 'resyncing|stale answer', 1_200)).toBe(true);
    expect(t.take('resyncing · 12 listings · stale answer', 'resyncing|stale answer', 2_000)).toBe(false);
    // the state changes: at once
    expect(t.take('live · 12 listings', 'live|', 3_000)).toBe(true);
    // the periodic line once 5 s have passed since the last write
    expect(t.take('live · 13 listings', 'live|', 7_999)).toBe(false);
    expect(t.take('live · 14 listings', 'live|', 8_000)).toBe(true);
  });

  it('never writes the same line twice within the period', () => {
    const t = new ProgressThrottle(5_000);
    expect(t.take('live · 1 listings', 'live|', 0)).toBe(true);
    // a change of headline with the same line: nothing new to read
    expect(t.take('live · 1 listings', 'live|stale answer', 100)).toBe(false);
    expect(t.take('live · 1 listings', 'live|', 5_100)).toBe(true);
  });
});
