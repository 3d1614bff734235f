/**
 * A price decay: start and end price, 24–168 hours, with the curve drawn and the price at any hour.
 */
import { Group, NumberInput, Slider, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { type DecayCurve, LIMITS } from '../../../../shared/api/index.ts';
import { curvePoints, curveProblems, priceAt } from '../logic/decay.ts';
import { CentsInput } from './CentsInput.tsx';
import { formatCents, formatHours } from './format.ts';
import { LineChart } from './LineChart.tsx';

export interface DecayDraft {
  start_price: number | null;
  end_price: number | null;
  /** null while the field is empty: put back to a number at once, it would run into what is typed next */
  total_hours: number | null;
}

export function completeCurve(d: DecayDraft): DecayCurve | null {
  if (d.start_price === null || d.end_price === null || d.total_hours === null) return null;
  const curve = { start_price: d.start_price, end_price: d.end_price, total_hours: d.total_hours };
  return curveProblems(curve).length === 0 ? curve : null;
}

export function DecayEditor({ value, onChange, compact = false }: { value: DecayDraft; onChange: (d: DecayDraft) => void; compact?: boolean }) {
  const [hour, setHour] = useState(Math.round((value.total_hours ?? LIMITS.decayMinHours) / 2));
  const curve = completeCurve(value);
  const problems = curveProblems({
    ...(value.start_price !== null ? { start_price: value.start_price } : {}),
    ...(value.end_price !== null ? { end_price: value.end_price } : {}),
    ...(value.total_hours !== null ? { total_hours: value.total_hours } : {}),
  });
  const at = Math.min(hour, value.total_hours ?? 0);
  return (
    <Stack gap={6} data-testid="decay-editor">
      <Group gap="xs" grow wrap="nowrap">
        <CentsInput label="Start price" cents={value.start_price} onCents={(c) => onChange({ ...value, start_price: c })} data-testid="decay-start" />
        <CentsInput label="End price" cents={value.end_price} onCents={(c) => onChange({ ...value, end_price: c })} data-testid="decay-end" />
        <NumberInput
          label="Over (hours)"
          min={LIMITS.decayMinHours}
          max={LIMITS.decayMaxHours}
          step={1}
          allowDecimal={false}
          clampBehavior="blur"
          value={value.total_hours ?? ''}
          onChange={(v) => onChange({ ...value, total_hours: typeof v === 'number' ? v : null })}
          data-testid="decay-hours"
        />
      </Group>
      {curve ? (
        <>
          {!compact ? (
            <LineChart
              label="Price over the curve"
              points={curvePoints(curve)}
              height={120}
              marker={at}
              formatX={(x) => `${Math.round(x)} h`}
              formatY={(y) => formatCents(Math.round(y))}
              testId="decay-curve"
            />
          ) : null}
          <Group gap="sm" wrap="nowrap" align="center">
            <Text size="xs" c="dimmed" w={90}>
              Price at hour
            </Text>
            <Slider
              style={{ flex: 1 }}
              min={0}
              max={curve.total_hours}
              step={1}
              value={at}
              onChange={setHour}
              label={(h) => `${h} h`}
              thumbLabel="Hour of the curve"
            />
            <Text size="sm" className="sd-num" w={150} ta="right" data-testid="decay-price-at">
              {formatHours(at)}: {formatCents(priceAt(curve, at))}
            </Text>
          </Group>
        </>
      ) : (
        <Text size="xs" c="yellow.4">
          {problems.join('; ')}
        </Text>
      )}
    </Stack>
  );
}
