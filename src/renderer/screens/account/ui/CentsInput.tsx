import { NumberInput, type NumberInputProps } from '@mantine/core';
import { parseCents } from '../../../../shared/money.ts';

/**
 * A dollar amount typed by a person, reported as integer cents (null while empty or invalid). The text
 * is converted by string arithmetic (parseCents), never by multiplying a float.
 */
export function CentsInput({ cents, onCents, ...props }: { cents: number | null; onCents: (cents: number | null) => void } & Omit<NumberInputProps, 'value' | 'onChange'>) {
  return (
    <NumberInput
      prefix="$"
      decimalScale={2}
      fixedDecimalScale
      min={0}
      thousandSeparator=","
      value={cents === null ? '' : cents / 100}
      onChange={(v) => onCents(v === '' ? null : parseCents(String(v)))}
      classNames={{ input: 'sd-num' }}
      {...props}
    />
  );
}
