import { Text, type TextProps } from '@mantine/core';
import { formatCents, formatSignedCents } from './format.ts';

/** Cents in the monospace face with tabular figures, so columns of prices line up digit under digit. */
export function Money({ cents, signed = false, colored = false, ...props }: { cents: number | null | undefined; signed?: boolean; colored?: boolean } & TextProps) {
  if (cents === null || cents === undefined) {
    return (
      <Text component="span" className="sd-num" c="dimmed" {...props}>
        –
      </Text>
    );
  }
  const color = colored ? (cents > 0 ? 'teal.4' : cents < 0 ? 'red.4' : undefined) : undefined;
  return (
    <Text component="span" className="sd-num" c={color} {...props}>
      {signed ? formatSignedCents(cents) : formatCents(cents)}
    </Text>
  );
}
