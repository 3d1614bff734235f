/**
 * Edit one listing: price, amount or decay. What the edit will do is said before sending — above all
 * the partial reprice (amount lowered with a price: the surplus stays listed at the old price as a new
 * listing), which the marketplace does on the presence of a price alone. So a price is sent only when
 * it differs from the listing's: the dialog opens with that price filled in, and a lower amount with the
 * price untouched is a plain reduction (the surplus goes back to the backpack), not a split at one price.
 */
import { Alert, Button, Group, SegmentedControl, Stack, Switch, Text } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import type { MyListing } from '../../../../shared/api/index.ts';
import type { BookStandingView, UndercutGuardView } from '../../../../shared/ipc/calls-account.ts';
import { call } from '../../../bridge/index.ts';
import { canHold, copiesListedRange, explainEdit } from '../logic/edit-explain.ts';
import { CentsInput, ZERO_PRICE_WORDS } from '../ui/CentsInput.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { CopiesInput } from '../ui/CopiesInput.tsx';
import { DecayEditor, type DecayDraft, completeCurve } from '../ui/DecayEditor.tsx';
import { formatCents, plural } from '../ui/format.ts';
import { Money } from '../ui/Money.tsx';
import { useAction } from '../ui/useAction.ts';
import { UndercutGuardPanel } from './UndercutGuardPanel.tsx';

type PriceMode = 'keep' | 'fixed' | 'decay';

/** Match or undercut the cheapest other listing of the item, one click each; said against the book. */
function BookPrices({ standing, onPrice }: { standing: BookStandingView; onPrice: (cents: number) => void }) {
  const lowest = standing.lowestOther;
  if (lowest === null) {
    return (
      <Text size="xs" c="dimmed" data-testid="edit-book-prices">
        No other listing of this item{standing.phase ? ` in ${standing.phase}` : ''} in the book.
      </Text>
    );
  }
  return (
    <Stack gap={4} data-testid="edit-book-prices">
      <Text size="xs" c="dimmed">
        Cheapest other{standing.phase ? ` ${standing.phase}` : ''} in the book <Money cents={lowest} size="xs" /> (#{standing.lowestOtherId})
      </Text>
      <Group gap="xs">
        <Button size="compact-xs" variant="default" onClick={() => onPrice(lowest)} data-testid="edit-match-lowest">
          Match {formatCents(lowest)}
        </Button>
        {lowest > 1 ? (
          <Button size="compact-xs" variant="default" onClick={() => onPrice(lowest - 1)} data-testid="edit-undercut-lowest">
            Undercut: {formatCents(lowest - 1)}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}

export function EditListingDialog({
  listing,
  standing,
  guard,
  onClose,
  onSent,
}: {
  listing: MyListing;
  /** Where the listing stands in the local book, when the book mirrors its game. */
  standing?: BookStandingView | undefined;
  /** Its undercut guard, if one runs; the panel is shown for active listings (guard !== null). */
  guard?: UndercutGuardView | null | undefined;
  onClose: () => void;
  onSent: () => void;
}) {
  const [priceMode, setPriceMode] = useState<PriceMode>('fixed');
  // Untouched, the price field follows the listing's live price (a guard or another edit may move it
  // while the dialog is open): an Apply must never put back a price the user did not type.
  const [typedPrice, setPrice] = useState<number | null | undefined>(undefined);
  const price = typedPrice === undefined ? listing.price : typedPrice;
  // the words of a price text that is not an amount (the price is then null)
  const [typedProblem, setTypedProblem] = useState<string | null>(null);
  const typePrice = (cents: number | null, problem: string | null) => {
    setPrice(cents);
    setTypedProblem(problem);
  };
  const [decay, setDecay] = useState<DecayDraft>(
    listing.price_decay
      ? { start_price: listing.price_decay.start_price, end_price: listing.price_decay.end_price, total_hours: listing.price_decay.total_hours }
      : { start_price: listing.price, end_price: Math.max(1, Math.round(listing.price * 0.8)), total_hours: 72 },
  );
  const [changeAmount, setChangeAmount] = useState(false);
  // Untouched (or greyed), the copies follow the live listing like the price: part of the stack may sell
  // while the dialog is open. Typed, they stay as typed.
  // null while the field is empty: put back to a number at once, it would run into what is typed next
  const [typedAmount, setAmount] = useState<number | null | undefined>(undefined);
  const amount = changeAmount && typedAmount !== undefined ? typedAmount : listing.amount;
  // copies that left the listing (sold, or taken off elsewhere) since the dialog opened
  const [openedAmount] = useState(listing.amount);
  const gone = openedAmount - listing.amount;
  const now = { amount: listing.amount, price: listing.price, commodity: listing.commodity, available: listing.available_amount };
  // what the stack can hold: its copies and what the backpack can still add
  const maxAmount = listing.amount + listing.available_amount;
  const amountProblem =
    listing.commodity && changeAmount && (amount === null || !canHold(now, amount))
      ? `Copies listed: ${copiesListedRange(now)}.` +
        (gone > 0 ? ` Since this dialog opened, ${plural(gone, 'copy', 'copies')} left the listing (sold or taken off).` : '')
      : null;
  const curve = priceMode === 'decay' ? completeCurve(decay) : null;
  const draft = {
    // the listing's own price is no new price: sent, it would turn a lower amount into a split (spec §4.4
    // PATCH rule 4) keeping the surplus listed at that same price instead of returning it to the backpack
    price: priceMode === 'fixed' && price !== listing.price ? price : null,
    amount: listing.commodity && changeAmount ? amount : null,
    decay: curve,
  };
  // an emptied Copies field asks for no copies: explained as what cannot be listed, not as an edit without an amount
  const explanation = explainEdit(now, amountProblem !== null && amount === null ? { ...draft, amount: 0 } : draft);
  const send = useAction(async () => {
    const answer = await call('editListing', { listingId: listing.id, ...draft });
    onSent();
    return answer;
  });
  const blocked =
    amountProblem ??
    (priceMode === 'fixed' && (price === null || price <= 0)
      ? (typedProblem ?? (price === null ? 'Enter a price.' : ZERO_PRICE_WORDS))
      : priceMode === 'decay' && !curve
        ? 'Complete the decay curve.'
        : explanation.kind === 'none'
          ? 'Nothing to change.'
          : null);

  return (
    <ConfirmDialog
      opened
      onClose={onClose}
      title={`Edit listing #${listing.id} · ${listing.market_hash_name}`}
      confirmLabel={explanation.kind === 'partial_reprice' ? 'Split and reprice' : 'Apply'}
      onConfirm={() => void send.run()}
      blockedReason={blocked}
      enterSends
      running={send.running}
      progressLabel="Editing…"
      error={send.error}
      size="lg"
      result={
        send.result ? (
          <Stack gap={6} data-testid="edit-result">
            <Text size="sm">
              Listing #{send.result.listing.id} now: {plural(send.result.listing.amount, 'copy', 'copies')} at <Money cents={send.result.listing.price} />.
            </Text>
            {send.result.split ? (
              <Alert color="blue" variant="light" p="xs" data-testid="edit-split">
                <Text size="sm">
                  New listing #{send.result.split.id} holds the other {plural(send.result.split.amount, 'copy', 'copies')} at the old price{' '}
                  <Money cents={send.result.split.price} />.
                </Text>
              </Alert>
            ) : explanation.kind === 'partial_reprice' ? (
              <Text size="xs" c="dimmed">
                The listing with the surplus was not found yet; it appears in My listings.
              </Text>
            ) : null}
          </Stack>
        ) : null
      }
    >
      <Group gap="lg" wrap="nowrap">
        <Text size="sm">
          Now: <Text span className="sd-num">{listing.amount}</Text> × <Money cents={listing.price} />
        </Text>
        {listing.commodity ? (
          <Text size="xs" c="dimmed">
            {listing.available_amount} more can be added from the backpack
          </Text>
        ) : null}
      </Group>
      <SegmentedControl
        value={priceMode}
        onChange={(v) => {
          setPriceMode(v as PriceMode);
          // the price field comes back with the last amount, or empty: words of a text gone would be stale
          setTypedProblem(null);
        }}
        data={[
          { value: 'fixed', label: 'Fixed price' },
          { value: 'decay', label: 'Price decay' },
          { value: 'keep', label: 'Keep the price' },
        ]}
        data-testid="edit-price-mode"
      />
      {priceMode === 'fixed' ? (
        <Group gap="md" align="flex-end" wrap="nowrap">
          {/* the words in a tooltip: under the field they pushed the book's prices and all below down */}
          <CentsInput
            label="New price per copy"
            w={180}
            cents={price}
            onCents={typePrice}
            problemIn="tip"
            error={price !== null && price <= 0 ? ZERO_PRICE_WORDS : undefined}
            data-autofocus
            data-testid="edit-price"
          />
          {standing ? <BookPrices standing={standing} onPrice={(cents) => typePrice(cents, null)} /> : null}
        </Group>
      ) : null}
      {priceMode === 'decay' ? <DecayEditor value={decay} onChange={setDecay} /> : null}
      {listing.commodity ? (
        <Group gap="sm" align="flex-end">
          <Switch label="Change the amount" checked={changeAmount} onChange={(e) => setChangeAmount(e.currentTarget.checked)} data-testid="edit-amount-switch" />
          <CopiesInput
            label="Copies listed"
            w={120}
            min={1}
            max={maxAmount}
            error={amountProblem !== null}
            disabled={!changeAmount}
            copies={amount}
            onCopies={setAmount}
            data-testid="edit-amount"
          />
        </Group>
      ) : null}
      {guard !== null && <UndercutGuardPanel listing={listing} guard={guard} onChanged={onSent} />}
      <Alert
        color={explanation.warning ? 'orange' : 'gray'}
        variant="light"
        p="xs"
        icon={explanation.warning ? <IconAlertTriangle size={16} /> : <IconInfoCircle size={16} />}
        title={explanation.warning ? 'This creates a second listing' : 'What happens'}
        data-testid="edit-explanation"
        data-kind={explanation.kind}
      >
        <Stack gap={2}>
          {explanation.lines.map((line) => (
            <Text key={line} size="xs">
              {line}
            </Text>
          ))}
        </Stack>
      </Alert>
    </ConfirmDialog>
  );
}
