/**
 * Price history of an item's sales, drawn with TradingView Lightweight Charts (canvas; handles
 * thousands of points). Sales in the same second are merged into one volume-weighted point (the chart
 * needs strictly increasing times); the listing's own price is a dashed line to compare against.
 *
 * Attribution, as the library's licence asks:
 *   TradingView Lightweight Charts™
 *   Copyright (c) 2025 TradingView, Inc. https://www.tradingview.com/
 * The chart shows the TradingView logo link (layout.attributionLogo) and the caption below names it.
 */
import { Text } from '@mantine/core';
import { ColorType, LineSeries, LineStyle, createChart, type IChartApi, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import type { SalePoint } from '../../../../shared/ipc/calls-market.ts';
import { formatCents, plural } from '../../../format/numbers.ts';

export interface ChartPoint {
  time: UTCTimestamp;
  /** Dollars (the chart's price scale), volume-weighted per second. */
  value: number;
}

/**
 * The chart's time of a moment: Lightweight Charts draws every time as UTC, so each point is moved by the
 * local offset at its own moment (daylight saving included) and its axis reads the trader's clock, as
 * every other time in the app does — not UTC, hours off the sales tape beside it.
 */
function localSecond(ms: number): number {
  return Math.floor(ms / 1000) - new Date(ms).getTimezoneOffset() * 60;
}

/**
 * One point per second of local time, oldest first, price weighted by copies sold (the hour repeated when
 * the clocks go back merges into one, as the chart needs strictly increasing times).
 */
export function chartPoints(sales: readonly SalePoint[]): ChartPoint[] {
  const bySecond = new Map<number, { cents: number; copies: number }>();
  for (const s of sales) {
    const second = localSecond(Date.parse(s.at));
    const acc = bySecond.get(second) ?? { cents: 0, copies: 0 };
    acc.cents += s.price * s.amount;
    acc.copies += s.amount;
    bySecond.set(second, acc);
  }
  return [...bySecond]
    .sort((a, b) => a[0] - b[0])
    .map(([second, acc]) => ({ time: second as UTCTimestamp, value: Math.round(acc.cents / acc.copies) / 100 }));
}

/** The height of a price label on the axis at the chart's 10 px font, with a pixel to spare. */
export const PRICE_LABEL_PX = 17;

/**
 * The labels of the listing's price line and of the last sale, given where the two prices sit on the
 * chart (y in pixels, null off the scale). Two labels closer than a label's height would be stacked by
 * the chart, the listing's pushed off its line and over the scale's figures: then the listing's label
 * alone names both prices (`last $0.91 · this` beside its own price on the axis), and the last sale's
 * own label is hidden.
 */
export function priceLabels(listingCents: number, lastCents: number, listingY: number | null, lastY: number | null): { title: string; lastValueVisible: boolean } {
  const collide = listingY !== null && lastY !== null && Math.abs(listingY - lastY) < PRICE_LABEL_PX;
  if (!collide) return { title: 'this', lastValueVisible: true };
  return { title: listingCents === lastCents ? 'this = last' : `last ${formatCents(lastCents)} · this`, lastValueVisible: false };
}

export function PriceChart({ sales, listingPrice, height = 150 }: { sales: readonly SalePoint[]; listingPrice: number | null; height?: number }) {
  const container = useRef<HTMLDivElement>(null);
  const points = chartPoints(sales);
  const key = `${points.length}:${points.at(-1)?.time ?? 0}:${listingPrice ?? ''}`;

  const chartRef = useRef<IChartApi | null>(null);
  useEffect(() => {
    const el = container.current;
    if (!el || points.length === 0) return;
    const chart = createChart(el, {
      height,
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: '#8a93a1',
        fontSize: 10,
        fontFamily: 'ui-monospace, Menlo, Consolas, monospace',
        attributionLogo: true,
      },
      grid: { vertLines: { color: 'rgba(255,255,255,0.04)' }, horzLines: { color: 'rgba(255,255,255,0.04)' } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false, timeVisible: true, secondsVisible: false },
      crosshair: { vertLine: { color: '#5f6877' }, horzLine: { color: '#5f6877' } },
      handleScroll: false,
      handleScale: false,
    });
    chartRef.current = chart;
    const series = chart.addSeries(LineSeries, {
      color: '#12b886',
      lineWidth: 2,
      pointMarkersVisible: points.length < 60,
      priceFormat: { type: 'custom', formatter: (p: number) => formatCents(Math.round(p * 100)), minMove: 0.01 },
    });
    series.setData(points);
    chart.timeScale().fitContent();
    let frame: number | null = null;
    if (listingPrice !== null) {
      const line = series.createPriceLine({ price: listingPrice / 100, color: '#fab005', lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: 'this' });
      const last = points.at(-1)?.value ?? 0;
      // where the two labels sit is known once the chart has laid out its scale (its first frame)
      frame = requestAnimationFrame(() => {
        frame = null;
        const labels = priceLabels(listingPrice, Math.round(last * 100), series.priceToCoordinate(listingPrice / 100), series.priceToCoordinate(last));
        line.applyOptions({ title: labels.title });
        series.applyOptions({ lastValueVisible: labels.lastValueVisible });
        el.dataset['priceLabels'] = labels.lastValueVisible ? 'both' : 'one';
      });
    }
    return () => {
      if (frame !== null) cancelAnimationFrame(frame);
      chart.remove();
      chartRef.current = null;
    };
    // the key stands for the points and the price: redraw only when they change
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, height]);

  if (points.length === 0) {
    return (
      <Text size="xs" c="dimmed" h={height} style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', border: '1px dashed var(--sd-border)', borderRadius: 4 }}>
        No sales of this item seen yet.
      </Text>
    );
  }
  return (
    <div>
      <div ref={container} style={{ height, width: '100%' }} data-testid="price-chart" data-points={points.length} />
      <Text size="10px" c="dimmed" ta="right">
        {/* the sales, not the points: sales in the same second are one point */}
        {plural(sales.length, 'sale')} · chart: TradingView Lightweight Charts™
      </Text>
    </div>
  );
}
