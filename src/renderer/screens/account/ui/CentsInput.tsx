import { NumberInput, type NumberInputProps } from '@mantine/core';
import { MAX_ACCOUNT_CENTS } from '../../../../shared/ipc/calls-account.ts';
import { parseCents, pastTenWholeDigits } from '../../../../shared/money.ts';

/**
 * A dollar amount typed by a person, reported as integer cents (null while empty or invalid). The text
 * is converted by string arithmetic (parseCents), never by multiplying a float. An amount above what the
 * app's calls take becomes that ceiling as it is typed, rather than being sent and refused as "invalid input".
 * Every amount the app asks for is a price or a sum of money, never below 0: a minus sign is not taken
 * (typed, "−5" showed "−$5.00" while the figure read as nothing and no error said why).
 */
export function CentsInput({ cents, onCents, ...props }: { cents: number | null; onCents: (cents: number | null) => void } & Omit<NumberInputProps, 'value' | 'onChange'>) {
  return (
    <NumberInput
      prefix="$"
      decimalScale={2}
      fixedDecimalScale
      min={0}
      allowNegative={false}
      thousandSeparator=","
      value={cents === null ? '' : cents / 100}
      onChange={(v) => {
        const text = String(v);
        // more than parseCents' 10 whole digits (pasted, or typed past the ceiling) is past it too: read as
        // nothing, the field would empty itself ("Enter an amount") on a figure that is there
        const typed = v === '' ? null : (parseCents(text) ?? (pastTenWholeDigits(text) ? MAX_ACCOUNT_CENTS : null));
        onCents(typed === null ? null : Math.min(typed, MAX_ACCOUNT_CENTS));
      }}
      classNames={{ input: 'sd-num' }}
      // a price offered in the field (the market's, the listing's) is replaced by what is typed, not appended to
      selectAllOnFocus
      {...props}
    />
  );
}
