// The small SVG chart's scale (decay preview, portfolio history): three lines, never one label twice.
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LineChart, scaleLines } from '../../../src/renderer/screens/account/ui/LineChart.tsx';
import { formatCents } from '../../../src/renderer/screens/account/ui/format.ts';
import { theme } from '../../../src/renderer/theme.ts';

const cents = (y: number) => formatCents(Math.round(y));

describe('the line chart scale', () => {
  it('labels bottom, top and middle when they read differently', () => {
    expect(scaleLines(100, 300, cents).map((l) => l.label)).toEqual(['$1.00', '$3.00', '$2.00']);
  });

  it('drops the middle label when a one-cent range rounds it onto an end', () => {
    expect(scaleLines(100, 101, cents)).toEqual([
      { y: 100, label: '$1.00' },
      { y: 101, label: '$1.01' },
    ]);
  });

  it('draws each figure once on a chart whose prices differ by a cent', () => {
    render(
      <MantineProvider theme={theme} forceColorScheme="dark">
        <LineChart
          label="decay"
          testId="chart"
          formatX={(x) => `${x} h`}
          formatY={cents}
          points={[
            { x: 0, y: 101 },
            { x: 1, y: 100 },
          ]}
        />
      </MantineProvider>,
    );
    const labels = [...screen.getByTestId('chart').querySelectorAll('text')].map((t) => t.textContent);
    expect(labels.filter((l) => l === '$1.00')).toHaveLength(1);
    expect(labels.filter((l) => l === '$1.01')).toHaveLength(1);
  });
});
