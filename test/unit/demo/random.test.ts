import { describe, expect, it } from 'vitest';
import { Random, hashString, mix32 } from '../../../src/demo/random.ts';

describe('Random', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    const draw = (seed: number) => {
      const r = new Random(seed);
      return Array.from({ length: 20 }, () => r.u32());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(43)).not.toEqual(draw(42));
  });

  it('derives independent streams per label', () => {
    const a = Random.derive(7, 'activity');
    const b = Random.derive(7, 'tokens');
    expect(a.u32()).not.toBe(b.u32());
    expect(Random.derive(7, 'activity').u32()).toBe(Random.derive(7, 'activity').u32());
  });

  it('keeps int, float, pick and hex inside their ranges', () => {
    const r = new Random(1);
    const ints = new Set<number>();
    for (let i = 0; i < 10_000; i++) {
      const n = r.int(3, 7);
      expect(n >= 3 && n <= 7 && Number.isInteger(n)).toBe(true);
      ints.add(n);
      const f = r.float(-1, 1);
      expect(f >= -1 && f < 1).toBe(true);
      const u = r.next();
      expect(u >= 0 && u < 1).toBe(true);
    }
    expect([...ints].sort()).toEqual([3, 4, 5, 6, 7]);
    expect(r.pick(['a'])).toBe('a');
    expect(() => r.pick([])).toThrow(RangeError);
    expect(r.hex(16)).toMatch(/^[0-9a-f]{32}$/);
    expect(r.hex(3)).toMatch(/^[0-9a-f]{6}$/);
  });

  it('hashes are stable 32-bit unsigned integers', () => {
    expect(hashString('skindesk')).toBe(hashString('skindesk'));
    expect(hashString('a')).not.toBe(hashString('b'));
    for (const x of [0, 1, 2 ** 31, 2 ** 32 - 1]) {
      const h = mix32(x);
      expect(Number.isInteger(h) && h >= 0 && h < 2 ** 32).toBe(true);
    }
  });
});
