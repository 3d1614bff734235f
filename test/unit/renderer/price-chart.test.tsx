// The detail's price chart: the listing's price label and the last sale's, which the chart would stack
// one over the other (the listing's pushed off its line, over the scale's figures) when the two prices
// sit closer than a label's height — then one label names both.
import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  PRICE_LABEL_PX,
  PriceChart,
  chartPoints,
  priceLabels,
} from '../../../src/renderer/screens/market/detail/PriceChart.tsx';
import type { SalePoint } from '../../../src/shared/ipc/calls-market.ts';
import { theme } from '../../../src/renderer/theme.ts';

/** What the component asked of the chart: the price line's options and the series' options, in order. */
const applied: { line: object[]; series: object[] } = { line: [], series: [] };

// a chart that draws nothing and places each price at 100 px per dollar from the top
vi.mock('lightweight-charts', async () => ({
  ...(await import('./chart-stub.ts')),
  createChart: () => ({
    addSeries: () => ({
      setData: () => undefined,
      applyOptions: (o: object) => applied.series.push(o),
      priceToCoordinate: (price: number) => 400 - price * 100,
      createPriceLine: () => ({ applyOptions: (o: object) => applied.line.push(o) }),
    }),
    timeScale: () => ({ fitContent: () => undefined }),
    remove: () => undefined,
  }),
}));

const sale = (minute: number, price: number): SalePoint => ({
  at: new Date(Date.UTC(2026, 10, 20, 12, minute)).toISOString(),
  price,
  amount: 1,
  source: 'feed',
  paint_wear: null,
});

describe('priceLabels', () => {
  it('keeps both labels when they are a label apart or more', () => {
    expect(priceLabels(194, 91, 10, 10 + PRICE_LABEL_PX)).toEqual({ title: 'this', lastValueVisible: true });
    expect(priceLabels(94, 91, null, 50)).toEqual({ title: 'this', lastValueVisible: true });
  });

  it('names both prices on the listing label when they would collide, and hides the last sale label', () => {
    expect(priceLabels(94, 91, 60, 64)).toEqual({ title: 'last $0.91 · this', lastValueVisible: false });
    expect(priceLabels(3, 3, 80, 80)).toEqual({ title: 'this = last', lastValueVisible: false });
  });
});

describe('chartPoints', () => {
  const zone = process.env['TZ'];
  afterEach(() => {
    if (zone === undefined) delete process.env['TZ'];
    else process.env['TZ'] = zone;
  });

  it('puts each sale at the local time the chart will show (it draws every time as UTC)', () => {
    process.env['TZ'] = 'America/New_York';
    // 12:00 UTC on 20 November is 07:00 in New York (UTC−5); in July (daylight saving) 08:00
    const november = Date.UTC(2026, 10, 20, 12, 0) / 1000;
    const july = Date.UTC(2026, 6, 20, 12, 0) / 1000;
    const points = chartPoints([
      sale(0, 120),
      { ...sale(0, 100), at: new Date(july * 1000).toISOString() },
    ]);
    expect(points.map((p) => p.time)).toEqual([july - 4 * 3600, november - 5 * 3600]);
  });

  it('merges sales in the same second into one point weighted by copies', () => {
    process.env['TZ'] = 'UTC';
    expect(chartPoints([sale(0, 100), { ...sale(0, 200), amount: 3 }])).toEqual([{ time: Date.UTC(2026, 10, 20, 12, 0) / 1000, value: 1.75 }]);
  });
});

describe('PriceChart', () => {
  it('counts the sales under the chart, not the points they were merged into', () => {
    render(
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <PriceChart sales={[sale(0, 120), sale(0, 100), sale(9, 91)]} listingPrice={100} />
      </MantineProvider>,
    );
    expect(screen.getByTestId('price-chart').dataset['points']).toBe('2');
    expect(screen.getByText(/sales · chart/).textContent).toBe('3 sales · chart: TradingView Lightweight Charts™');
  });

  const draw = (listingPrice: number) =>
    render(
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <PriceChart sales={[sale(0, 120), sale(5, 100), sale(9, 91)]} listingPrice={listingPrice} />
      </MantineProvider>,
    );

  it('shows one label for a listing priced next to the last sale', async () => {
    applied.line = [];
    applied.series = [];
    draw(94); // 3 px from the last sale's $0.91
    await waitFor(() => expect(screen.getByTestId('price-chart').dataset['priceLabels']).toBe('one'));
    expect(applied.line).toEqual([{ title: 'last $0.91 · this' }]);
    expect(applied.series).toEqual([{ lastValueVisible: false }]);
  });

  it('keeps both labels for a listing priced well apart', async () => {
    applied.line = [];
    applied.series = [];
    draw(150); // 59 px from the last sale
    await waitFor(() => expect(screen.getByTestId('price-chart').dataset['priceLabels']).toBe('both'));
    expect(applied.line).toEqual([{ title: 'this' }]);
    expect(applied.series).toEqual([{ lastValueVisible: true }]);
  });
});
