// Floats are shown cut, never rounded: a float just under a wear band's edge must not read as the edge.
import { describe, expect, it } from 'vitest';
import { formatFloat } from '../../../src/renderer/format/numbers.ts';

describe('formatFloat', () => {
  it('cuts to 6 decimals instead of rounding up to a wear boundary', () => {
    expect(formatFloat(0.06999996)).toBe('0.069999');
    expect(formatFloat(0.1499999999)).toBe('0.149999');
    expect(formatFloat(0.06999996, 10)).toBe('0.0699999600');
  });

  it('cuts the float as sent, not its binary value (0.3 stays 0.300000)', () => {
    expect(formatFloat(0.3)).toBe('0.300000');
    expect(formatFloat(0.07)).toBe('0.070000');
    expect(formatFloat(0.1105136587, 10)).toBe('0.1105136587');
  });

  it('pads short and tiny floats, and shows a dash when unknown', () => {
    expect(formatFloat(0)).toBe('0.000000');
    expect(formatFloat(1)).toBe('1.000000');
    expect(formatFloat(0.0000005)).toBe('0.000000');
    expect(formatFloat(0.0000005, 10)).toBe('0.0000005000');
    expect(formatFloat(null)).toBe('–');
    expect(formatFloat(undefined)).toBe('–');
  });
});
