/**
 * A small line chart in SVG: a few hundred points at most (a decay curve, the portfolio's history), so
 * no canvas library is needed, it renders in tests, and it follows the theme. Hovering shows the
 * nearest point; `marker` pins one x (the decay preview's "price at hour").
 */
import { Box, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { type MouseEvent, useMemo, useRef, useState } from 'react';

export interface ChartPoint {
  x: number;
  y: number;
}

export interface LineChartProps {
  points: readonly ChartPoint[];
  height?: number;
  formatX: (x: number) => string;
  formatY: (y: number) => string;
  marker?: number | null;
  /** Draw the area under the line. */
  area?: boolean;
  color?: string;
  testId?: string;
  /** What the chart shows, for screen readers. */
  label: string;
}

/** Width drawn before the element has been measured (and in tests, where nothing has a size). */
const FALLBACK_WIDTH = 600;
const PAD = { left: 58, right: 10, top: 8, bottom: 18 };

/**
 * The scale's lines: bottom, middle and top, each with its label, but no label twice — across a range of
 * a cent or two the middle rounds to an end's figure, and a scale reading "$1.00 $1.00 $1.01" misleads.
 */
export function scaleLines(y0: number, y1: number, formatY: (y: number) => string): { y: number; label: string }[] {
  const lines: { y: number; label: string }[] = [];
  for (const y of [y0, y1, (y0 + y1) / 2]) {
    const label = formatY(y);
    if (!lines.some((line) => line.label === label)) lines.push({ y, label });
  }
  return lines;
}

export function LineChart({ points, height = 140, formatX, formatY, marker = null, area = false, color = 'var(--mantine-color-teal-5)', testId, label }: LineChartProps) {
  const [hover, setHover] = useState<ChartPoint | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  // Drawn at the element's real width: a stretched viewBox would stretch the axis labels too.
  const { ref: boxRef, width: measured } = useElementSize();
  const W = measured > 0 ? Math.round(measured) : FALLBACK_WIDTH;
  const geo = useMemo(() => {
    if (points.length === 0) return null;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const x0 = Math.min(...xs);
    const x1 = Math.max(...xs);
    let y0 = Math.min(...ys);
    let y1 = Math.max(...ys);
    if (y0 === y1) {
      y0 -= 1;
      y1 += 1;
    }
    const sx = (x: number) => PAD.left + (x1 === x0 ? 0.5 : (x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
    const sy = (y: number) => PAD.top + (1 - (y - y0) / (y1 - y0)) * (height - PAD.top - PAD.bottom);
    const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
    const fill = `${line} L${sx(x1).toFixed(1)},${sy(y0).toFixed(1)} L${sx(x0).toFixed(1)},${sy(y0).toFixed(1)} Z`;
    return { x0, x1, y0, y1, sx, sy, line, fill };
  }, [points, height, W]);

  if (!geo) {
    return (
      <Text size="xs" c="dimmed" data-testid={testId}>
        No points yet.
      </Text>
    );
  }
  const nearest = (x: number) => points.reduce((best, p) => (Math.abs(p.x - x) < Math.abs(best.x - x) ? p : best), points[0]!);
  const pinned = marker === null ? null : nearest(marker);
  const shown = hover ?? pinned;
  const onMove = (e: MouseEvent<SVGSVGElement>) => {
    const rect = svgRef.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return;
    const px = ((e.clientX - rect.left) / rect.width) * W;
    const frac = Math.min(1, Math.max(0, (px - PAD.left) / (W - PAD.left - PAD.right)));
    setHover(nearest(geo.x0 + frac * (geo.x1 - geo.x0)));
  };
  const grid = scaleLines(geo.y0, geo.y1, formatY);
  return (
    <Box pos="relative" data-testid={testId} ref={boxRef}>
      <svg
        ref={svgRef}
        role="img"
        aria-label={label}
        viewBox={`0 0 ${W} ${height}`}
        width="100%"
        height={height}
        preserveAspectRatio="xMinYMin meet"
        onMouseMove={onMove}
        onMouseLeave={() => setHover(null)}
        style={{ display: 'block' }}
      >
        {grid.map(({ y, label }) => (
          <g key={label}>
            <line x1={PAD.left} x2={W - PAD.right} y1={geo.sy(y)} y2={geo.sy(y)} stroke="var(--mantine-color-dark-4)" strokeWidth={0.6} vectorEffect="non-scaling-stroke" />
            <text x={PAD.left - 6} y={geo.sy(y) + 3} textAnchor="end" fontSize={10} fill="var(--mantine-color-dark-2)" className="sd-num">
              {label}
            </text>
          </g>
        ))}
        <text x={PAD.left} y={height - 4} fontSize={10} fill="var(--mantine-color-dark-2)">
          {formatX(geo.x0)}
        </text>
        <text x={W - PAD.right} y={height - 4} textAnchor="end" fontSize={10} fill="var(--mantine-color-dark-2)">
          {formatX(geo.x1)}
        </text>
        {area ? <path d={geo.fill} fill={color} opacity={0.12} /> : null}
        <path d={geo.line} fill="none" stroke={color} strokeWidth={1.6} vectorEffect="non-scaling-stroke" />
        {shown ? (
          <g>
            <line x1={geo.sx(shown.x)} x2={geo.sx(shown.x)} y1={PAD.top} y2={height - PAD.bottom} stroke="var(--mantine-color-dark-2)" strokeDasharray="3 3" vectorEffect="non-scaling-stroke" />
            <circle cx={geo.sx(shown.x)} cy={geo.sy(shown.y)} r={3} fill={color} />
          </g>
        ) : null}
      </svg>
      {shown ? (
        <Text size="xs" className="sd-num" pos="absolute" top={2} right={12} c="gray.3" data-testid={testId ? `${testId}-readout` : undefined}>
          {formatX(shown.x)} · {formatY(shown.y)}
        </Text>
      ) : null}
    </Box>
  );
}
