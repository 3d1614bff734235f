/**
 * Bulk reprice and bulk delist of up to 50 selected listings. Each listing is applied in its own
 * transaction by the marketplace, so the outcome is a table with one row per listing.
 */
import { Group, NumberInput, SegmentedControl, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { LIMITS, type MyListing } from '../../../../shared/api/index.ts';
import { bpsOf } from '../../../../shared/money.ts';
import { formatCount } from '../../../format/numbers.ts';
import { call } from '../../../bridge/index.ts';
import { CentsInput } from '../ui/CentsInput.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { plural } from '../ui/format.ts';
import { ListingRows } from '../ui/ListingRows.tsx';
import { Money } from '../ui/Money.tsx';
import { useAction } from '../ui/useAction.ts';
import { useProblemTip } from '../ui/useProblemTip.tsx';
import { BulkResultTable } from './BulkResultTable.tsx';

const sizeProblem = (n: number) => (n > LIMITS.bulkEditOrDelist ? `At most ${LIMITS.bulkEditOrDelist} listings per request; ${n} are selected.` : null);

export function BulkDelistDialog({ listings, onClose, onSent }: { listings: readonly MyListing[]; onClose: () => void; onSent: () => void }) {
  const send = useAction(async () => {
    const answer = await call('delistListings', { listingIds: listings.map((l) => l.id) });
    onSent();
    return answer;
  });
  const names = new Map(listings.map((l) => [l.id, l.market_hash_name]));
  return (
    <ConfirmDialog
      opened
      onClose={onClose}
      title={`Delist ${plural(listings.length, 'listing')}`}
      confirmLabel={`Delist ${plural(listings.length, 'listing')}`}
      danger
      size="xl"
      onConfirm={() => void send.run()}
      blockedReason={sizeProblem(listings.length)}
      running={send.running}
      progressLabel="Delisting…"
      error={send.error}
      result={send.result ? <BulkResultTable results={send.result.results} names={names} /> : null}
    >
      <Text size="sm">These leave the market and the items go back to your backpack:</Text>
      <Table fz="xs" verticalSpacing={2} withTableBorder>
        <ListingRows listings={listings} />
      </Table>
    </ConfirmDialog>
  );
}

type RepriceMode = 'percent' | 'price';

/**
 * The new price of a listing under a bulk rule; at least 1 cent. A percentage is taken in basis points
 * and integer arithmetic, rounded half up: in floats $0.25 − 34 % is 16.499… and would round to $0.16.
 */
export function repriced(price: number, mode: RepriceMode, percent: number, fixed: number | null): number | null {
  if (mode === 'price') return fixed !== null && fixed > 0 ? fixed : null;
  return Math.max(1, bpsOf(price, 10_000 + Math.round(percent * 100)));
}

const ZERO_NEW_PRICE = 'A new price above $0.00.';

/** The change by % a bulk reprice takes: at most a 99 % cut (a price stays above 0), at most a 1,000 % rise. */
export const PERCENT_RANGE = { min: -99, max: 1_000 } as const;

/**
 * Why a typed percent cannot be sent, said under the field. The field keeps what was typed: a −150 put
 * back to −99 on leaving it would send a cut the trader never typed.
 */
export function percentProblem(percent: number | null): string | null {
  if (percent === null) return null;
  if (percent < PERCENT_RANGE.min) return `A cut can be at most ${formatCount(-PERCENT_RANGE.min)}%.`;
  if (percent > PERCENT_RANGE.max) return `A rise can be at most ${formatCount(PERCENT_RANGE.max)}%.`;
  return null;
}

export function BulkRepriceDialog({ listings, onClose, onSent }: { listings: readonly MyListing[]; onClose: () => void; onSent: () => void }) {
  const [mode, setMode] = useState<RepriceMode>('percent');
  // null while the field is empty or holds only a sign
  const [percent, setPercent] = useState<number | null>(-5);
  const [fixed, setFixed] = useState<number | null>(null);
  // the words of a price text that is not an amount (the price is then null)
  const [typedProblem, setTypedProblem] = useState<string | null>(null);
  const outOfRange = mode === 'percent' ? percentProblem(percent) : null;
  // said in a tooltip, not under the field: the mode switch beside it and the table below stay put
  const percentTip = useProblemTip(outOfRange);
  const usable = mode === 'price' || (percent !== null && outOfRange === null);
  const edits = listings.map((l) => ({ listing: l, price: usable ? repriced(l.price, mode, percent ?? 0, fixed) : null }));
  const ready = edits.every((e) => e.price !== null);
  // a decaying listing given its own price still changes: it gets a fixed price instead of the decay
  const changesNothing = ready && edits.every((e) => e.price === e.listing.price && e.listing.price_decay === null);
  const zeroPrice = fixed !== null && fixed <= 0 ? ZERO_NEW_PRICE : null;
  const notReady = mode === 'price' ? (typedProblem ?? zeroPrice ?? 'Enter the new price.') : (outOfRange ?? 'Enter the change in %.');
  const nothing =
    mode === 'price'
      ? 'Every listing already asks that price.'
      : percent === 0
        ? '0% changes no price.'
        : `${percent}% changes no price by a whole cent.`;
  const send = useAction(async () => {
    const answer = await call('bulkEditListings', { edits: edits.map((e) => ({ listingId: e.listing.id, price: e.price!, decay: null })) });
    onSent();
    return answer;
  });
  const names = new Map(listings.map((l) => [l.id, l.market_hash_name]));
  const decaying = listings.filter((l) => l.price_decay !== null).length;
  return (
    <ConfirmDialog
      opened
      onClose={onClose}
      title={`Reprice ${plural(listings.length, 'listing')}`}
      confirmLabel={`Reprice ${plural(listings.length, 'listing')}`}
      size="xl"
      onConfirm={() => void send.run()}
      blockedReason={sizeProblem(listings.length) ?? (!ready ? notReady : changesNothing ? nothing : null)}
      running={send.running}
      progressLabel="Repricing…"
      enterSends
      error={send.error}
      result={send.result ? <BulkResultTable results={send.result.results} names={names} /> : null}
    >
      <Group gap="sm" align="flex-end">
        <SegmentedControl
          value={mode}
          onChange={(v) => {
            setMode(v as RepriceMode);
            // the price field comes back with the last amount, or empty: words of a text gone would be stale
            setTypedProblem(null);
          }}
          data={[
            { value: 'percent', label: 'Change by %' },
            { value: 'price', label: 'Set one price' },
          ]}
        />
        {mode === 'percent' ? (
          <NumberInput
            label="Change (%)"
            w={170}
            value={percent ?? ''}
            onChange={(v) => setPercent(typeof v === 'number' ? v : null)}
            min={PERCENT_RANGE.min}
            max={PERCENT_RANGE.max}
            // kept as typed when the field is left: the range is said as the field's error instead
            clampBehavior="none"
            {...percentTip}
            suffix="%"
            // the offered -5 is replaced by what is typed ("-10"), not appended to ("-5-10")
            selectAllOnFocus
            data-autofocus
            data-testid="bulk-percent"
          />
        ) : (
          <CentsInput
            label="New price per copy"
            w={140}
            cents={fixed}
            onCents={(cents, problem) => {
              setFixed(cents);
              setTypedProblem(problem);
            }}
            problemIn="tip"
            error={zeroPrice ?? undefined}
            data-autofocus
          />
        )}
      </Group>
      <Text size="xs" c="dimmed">
        The whole stack of each listing is repriced in place (no amount is sent, so nothing is split).
        {decaying ? ` ${plural(decaying, 'decaying listing')} get a fixed price instead of the decay.` : ''}
      </Text>
      <Table fz="xs" verticalSpacing={2} withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Listing</Table.Th>
            <Table.Th>Item</Table.Th>
            <Table.Th ta="right">Now</Table.Th>
            <Table.Th ta="right">New</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {edits.map(({ listing, price }) => (
            <Table.Tr key={listing.id}>
              <Table.Td className="sd-num">#{listing.id}</Table.Td>
              <Table.Td>{listing.market_hash_name}</Table.Td>
              <Table.Td ta="right">
                <Money cents={listing.price} size="xs" />
              </Table.Td>
              <Table.Td ta="right">
                <Money cents={price} size="xs" c={price !== null && price < listing.price ? 'red.3' : price !== null && price > listing.price ? 'teal.3' : undefined} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ConfirmDialog>
  );
}
