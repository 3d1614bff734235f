/**
 * lightweight-charts for jsdom, which has no canvas: a chart that draws nothing. The chart's data
 * handling is tested on its own. Use: vi.mock('lightweight-charts', () => import('./chart-stub.ts')).
 */
export const ColorType = { Solid: 'solid' };
export const LineStyle = { Dashed: 2 };
export const LineSeries = {};
export const createChart = () => ({
  addSeries: () => ({
    setData: () => undefined,
    applyOptions: () => undefined,
    priceToCoordinate: () => null,
    createPriceLine: () => ({ applyOptions: () => undefined }),
  }),
  timeScale: () => ({ fitContent: () => undefined }),
  remove: () => undefined,
});
