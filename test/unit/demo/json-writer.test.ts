import { describe, expect, it } from 'vitest';
import { JsonChunkWriter } from '../../../src/demo/server/json-writer.ts';
import { IsoFormatter } from '../../../src/demo/clock.ts';
import { Random } from '../../../src/demo/random.ts';

describe('JsonChunkWriter', () => {
  it('writes integers and ISO timestamps exactly as JSON.stringify and toISOString would', () => {
    const rng = new Random(9);
    const w = new JsonChunkWriter(1024);
    const expected: string[] = [];
    for (let i = 0; i < 2_000; i++) {
      const n = i < 20 ? i : rng.int(0, 2 ** 31);
      const ms = rng.int(0, 4_102_444_800) * 1000 + rng.int(0, 999);
      w.reserve(64);
      w.uint(n);
      w.byte(44);
      w.isoTimestamp(ms);
      w.byte(10);
      expected.push(`${n},${new Date(ms).toISOString()}\n`);
    }
    expect(Buffer.concat(w.finish()).toString()).toBe(expected.join(''));
  });

  it('keeps a row whole across chunk boundaries and hands out exact copies with take()', () => {
    const w = new JsonChunkWriter(16);
    for (let i = 0; i < 10; i++) {
      w.reserve(12);
      w.ascii('{"a":');
      w.uint(i * 1001);
      w.ascii('}');
    }
    const first = w.take();
    expect(first.toString()).toBe(Array.from({ length: 10 }, (_, i) => `{"a":${i * 1001}}`).join(''));
    w.reserve(4);
    w.bytes(Buffer.from('next'));
    expect(w.take().toString()).toBe('next');
    expect(first.toString().startsWith('{"a":0}')).toBe(true);
  });
});

describe('IsoFormatter', () => {
  it('matches toISOString, reusing the per-second prefix', () => {
    const f = new IsoFormatter();
    for (const ms of [0, 999, 1000, 1_700_000_000_123, 1_700_000_000_999, 1_700_000_001_000]) {
      expect(f.format(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
