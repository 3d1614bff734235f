import { NumberInput, type NumberInputProps } from '@mantine/core';

/**
 * A number of copies typed by a person, reported as typed (null while the field is empty).
 *
 * Never put back into range, neither at each key nor when the field is left: a field that did so showed
 * one figure while the form went on with another ("100" read "30" and bought 3, "0" bought 1). A figure
 * out of range stays on screen as typed; the form around the field says why in words and holds its
 * button back.
 */
export function CopiesInput({
  copies,
  onCopies,
  ...props
}: { copies: number | null; onCopies: (copies: number | null) => void } & Omit<
  NumberInputProps,
  'value' | 'defaultValue' | 'onChange' | 'clampBehavior' | 'allowDecimal' | 'allowNegative'
>) {
  return (
    <NumberInput
      clampBehavior="none"
      allowDecimal={false}
      allowNegative={false}
      value={copies ?? ''}
      onChange={(v) => onCopies(typeof v === 'number' ? v : null)}
      {...props}
    />
  );
}
