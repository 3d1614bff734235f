import { TextInput, type TextInputProps } from '@mantine/core';
import { useState } from 'react';
import { MAX_ACCOUNT_CENTS } from '../../../../shared/ipc/calls-account.ts';
import { formatCents, parseCents, typedCentsProblem } from '../../../../shared/money.ts';
import { useProblemTip } from './useProblemTip.tsx';

/** Why a price of $0.00 cannot be sent (a listing asks more than nothing). */
export const ZERO_PRICE_WORDS = 'A price above $0.00.';

/**
 * A dollar amount typed by a person, reported as integer cents (null while empty or not an amount).
 *
 * A text field, not a number field: the text stays exactly as typed while the cursor is in it, and is
 * written out in full ("$1,250.00") only when the field is left. A number field re-formatted the figure
 * under the cursor at each key, and read a comma as a decimal point: "1,000" listed a knife at $1.00,
 * ".05" became $5.00, and a digit typed after a click into the fixed cents was dropped. Here a comma is
 * a thousands separator only where one belongs, anything else is not an amount, and the field says why.
 * The text is converted by string arithmetic (parseCents), never by multiplying a float. An amount above
 * what the app's calls take is refused in words, rather than sent and refused as "invalid input".
 *
 * `onCents` is told the words too (null when the text is an amount or empty), for a form that says
 * them beside its button. `problemIn="tip"` is for a field in a table row or a tight row of fields:
 * the words go in a tooltip rather than under the field, where they would move everything below.
 */
export function CentsInput({
  cents,
  onCents,
  problemIn = 'field',
  error,
  onFocus,
  onBlur,
  ...props
}: {
  cents: number | null;
  onCents: (cents: number | null, problem: string | null) => void;
  problemIn?: 'field' | 'tip';
} & Omit<TextInputProps, 'value' | 'defaultValue' | 'onChange'>) {
  const [text, setText] = useState(() => shown(cents));
  // A figure set from outside (a "match the lowest price" button, a reset) replaces the text; the echo
  // of what was typed (the parent storing what the field reported) does not.
  const [previous, setPrevious] = useState(cents);
  const reading = read(text);
  if (cents !== previous) {
    setPrevious(cents);
    if (cents !== reading.cents) setText(shown(cents));
  }
  const problem = reading.problem ?? error;
  const tip = useProblemTip(typeof problem === 'string' ? problem : null);
  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      spellCheck={false}
      value={text}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        const typed = read(next);
        onCents(typed.cents, typed.problem);
      }}
      // a price offered in the field (the market's, the listing's) is replaced by what is typed, not appended to
      onFocus={(e) => {
        e.currentTarget.select();
        onFocus?.(e);
      }}
      onBlur={(e) => {
        if (reading.cents !== null) setText(shown(reading.cents));
        onBlur?.(e);
      }}
      classNames={{ input: 'sd-num' }}
      // the tooltip wraps the field whether or not there is a problem: wrapped only then, the field would
      // be mounted anew (and lose the cursor) at the key that makes the text not an amount
      {...(problemIn === 'tip' ? { ...tip, error: problem } : { error: problem })}
      {...props}
    />
  );
}

/** In the notation the field reads back, whatever the system's locale ("1.250,00 $" would not parse). */
function shown(cents: number | null): string {
  return cents === null ? '' : formatCents(cents, 'USD', 'en-US');
}

function read(text: string): { cents: number | null; problem: string | null } {
  const cents = parseCents(text);
  if (cents === null) return { cents: null, problem: typedCentsProblem(text) };
  if (cents > MAX_ACCOUNT_CENTS) return { cents: null, problem: `At most ${shown(MAX_ACCOUNT_CENTS)}.` };
  return { cents, problem: null };
}
