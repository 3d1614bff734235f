/**
 * "What it costs" under the withdrawal form: how the platform fee, the conversion and the network fee
 * come out of the amount. Figures only where they mean something: the demo market publishes its fee and
 * minimum, a real market does not; and before an amount is typed the words speak of "the amount", not of
 * "$0.00".
 */
import { Stack, Text } from '@mantine/core';
import { formatCents } from '../ui/format.ts';
import { Money } from '../ui/Money.tsx';

/** The demo market's own fee and minimum; a real market's are null (the spec publishes neither). */
export interface DemoWithdrawalTerms {
  feeBps: number;
  platformFee: number;
  converted: number;
  minimum: number;
}

interface Props {
  ticker: string;
  /** Cents typed, null or 0 before an amount is entered. */
  amount: number | null;
  terms: DemoWithdrawalTerms | null;
}

const NETWORK_FEE =
  'and the network fee (by the level chosen) is paid out of the converted amount. The network fee is known once the transaction is broadcast.';

export function WithdrawalCostWords({ ticker, amount, terms }: Props) {
  const typed = amount !== null && amount > 0;
  const whole = typed ? <Money cents={amount} size="xs" /> : 'amount';
  if (!terms) {
    return (
      <Stack gap={2}>
        <Text size="xs">
          The whole {whole} leaves your balance at once. The marketplace&apos;s platform fee comes off it (it
          does not publish how much); the rest is converted to {ticker} at the spot rate, {NETWORK_FEE}
        </Text>
        <Text size="xs" c="dimmed">
          Each currency has a minimum the marketplace does not publish: it refuses a withdrawal below it, and
          nothing leaves the balance. A failed withdrawal is refunded to the balance in full.
        </Text>
      </Stack>
    );
  }
  const fee = `${(terms.feeBps / 100).toFixed(2)}%`;
  return (
    <Stack gap={2}>
      <Text size="xs">
        The whole {whole} leaves your balance at once. The demo market&apos;s platform fee of {fee}
        {typed ? (
          <>
            {' '}
            (<Money cents={terms.platformFee} size="xs" />) comes off it; the remaining{' '}
            <Money cents={terms.converted} size="xs" />
          </>
        ) : (
          ' comes off it; the rest'
        )}{' '}
        is converted to {ticker} at the spot rate, {NETWORK_FEE}
      </Text>
      <Text size="xs" c={typed && amount < terms.minimum ? 'yellow.4' : 'dimmed'}>
        The demo market&apos;s minimum for {ticker}: {formatCents(terms.minimum)}. A failed withdrawal is
        refunded to the balance in full.
      </Text>
    </Stack>
  );
}
