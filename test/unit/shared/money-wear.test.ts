import { describe, expect, it } from 'vitest';
import { bpsOf, formatCents, parseCents, pastTenWholeDigits, typedCentsProblem } from '../../../src/shared/money.ts';
import { bandsWithin, scrapePercent, wearBandOf } from '../../../src/shared/wear.ts';

describe('money', () => {
  it('formats cents through Intl', () => {
    expect(formatCents(123456, 'USD', 'en-US')).toBe('$1,234.56');
    expect(formatCents(5, 'USD', 'en-US')).toBe('$0.05');
  });
  it('parses typed prices exactly', () => {
    expect(parseCents('0.29')).toBe(29);
    expect(parseCents('12')).toBe(1200);
    expect(parseCents('12.3')).toBe(1230);
    expect(parseCents('$1,234.50')).toBe(123450);
    for (const bad of ['', 'abc', '1.234', '-5', '1e3', '.', '$']) expect(parseCents(bad), bad).toBeNull();
  });
  it('reads a leading point as cents, and a comma only as a thousands separator where one belongs', () => {
    expect(parseCents('.05')).toBe(5);
    expect(parseCents('.5')).toBe(50);
    expect(parseCents('1,000')).toBe(100_000);
    expect(parseCents('1,000,000.5')).toBe(100_000_050);
    // a comma elsewhere is no price at all: read as 1.5 or as 15, either would be sent as a wrong one
    for (const bad of ['1,5', '12,50', '1,00,000', ',5', '1,000,0']) expect(parseCents(bad), bad).toBeNull();
    expect(typedCentsProblem('12,50')).toBe('Use a point for cents (12.50); a comma only separates thousands (1,250.00).');
    expect(typedCentsProblem('12.50')).toBeNull();
  });
  it('tells a figure refused only for its size (11+ whole digits) from one that is not a price', () => {
    for (const big of ['99999999999', '$12,345,678,901.5', '123456789012.']) {
      expect(parseCents(big), big).toBeNull();
      expect(pastTenWholeDigits(big), big).toBe(true);
    }
    for (const other of ['9999999999', '', 'abc', '99999999999x', '-99999999999']) expect(pastTenWholeDigits(other), other).toBe(false);
  });
  it('takes basis points in integers', () => {
    expect(bpsOf(1000, 200)).toBe(20);
    expect(bpsOf(25, 200)).toBe(1);
  });
});

describe('wear', () => {
  it('maps floats to bands with exclusive upper bounds', () => {
    expect(wearBandOf(0).code).toBe('FN');
    expect(wearBandOf(0.0699).code).toBe('FN');
    expect(wearBandOf(0.07).code).toBe('MW');
    expect(wearBandOf(0.15).code).toBe('FT');
    expect(wearBandOf(0.38).code).toBe('WW');
    expect(wearBandOf(0.45).code).toBe('BS');
    expect(wearBandOf(1).code).toBe('BS');
  });
  it('lists the bands a float range allows', () => {
    expect(bandsWithin(0, 0.08).map((b) => b.code)).toEqual(['FN', 'MW']);
    expect(bandsWithin(0.06, 0.8).map((b) => b.code)).toEqual(['FN', 'MW', 'FT', 'WW', 'BS']);
  });
  it('shows sticker wear as scrape percent', () => {
    expect(scrapePercent(null)).toBe('0%');
    expect(scrapePercent(0.456)).toBe('46%');
  });
});
