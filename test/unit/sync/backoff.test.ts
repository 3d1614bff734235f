import { describe, expect, it } from 'vitest';
import { RECONNECT_BACKOFF, backoffDelay, snapshotFailureBackoff } from '../../../src/core/sync/backoff.ts';

describe('backoffDelay', () => {
  it('draws a full-jitter delay under a doubling ceiling, capped', () => {
    expect(backoffDelay(RECONNECT_BACKOFF, 0, () => 0.5)).toBe(500);
    expect(backoffDelay(RECONNECT_BACKOFF, 3, () => 0.5)).toBe(4_000);
    expect(backoffDelay(RECONNECT_BACKOFF, 40, () => 0.999)).toBe(29_970);
  });
});

describe('snapshotFailureBackoff', () => {
  const cap = 11_000;
  const ceilings = Array.from({ length: 7 }, (_, attempt) => backoffDelay(snapshotFailureBackoff(cap), attempt, () => 1));
  const floors = Array.from({ length: 7 }, (_, attempt) => backoffDelay(snapshotFailureBackoff(cap), attempt, () => 0));

  it('tries a failed read again after about a second, doubling up to the stale-answer wait', () => {
    expect(ceilings).toEqual([1_000, 2_000, 4_000, 8_000, 11_000, 11_000, 11_000]);
  });

  it('never asks again sooner than half a second', () => {
    expect(floors.every((ms) => ms === 500)).toBe(true);
  });

  it('keeps a short cap short (tests and tuned engines)', () => {
    expect(backoffDelay(snapshotFailureBackoff(80), 0, () => 1)).toBe(80);
    expect(backoffDelay(snapshotFailureBackoff(80), 5, () => 0)).toBe(80);
  });
});
