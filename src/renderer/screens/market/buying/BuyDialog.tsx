/**
 * The confirm dialog of one purchase: the price, the amount (commodities), the maximum price per copy
 * (the shown price unless changed: a listing that got dearer fails instead of costing more), and the
 * balance after; once answered, the balance before and now. Enter buys, Escape cancels; the answer is
 * shown in plain words in the same place.
 */
import { Alert, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { BookRow } from '../../../../shared/ipc/index.ts';
import { parseCents } from '../../../../shared/money.ts';
import { formatCents } from '../../../format/numbers.ts';
import { balanceStore, useLive, useTradingState } from '../../../shell/app-state.ts';
import { CopiesInput } from '../../account/ui/CopiesInput.tsx';
import { addToCart, cartLineOf } from './cart-store.ts';
import { copiesProblem } from './copies.ts';
import { maxPriceProblem } from './max-price.ts';
import { OutcomeAlert } from './OutcomeAlert.tsx';
import { type BoughtCopies, usePurchase } from './use-purchase.ts';

export interface BuyDialogProps {
  row: BookRow | null;
  onClose(): void;
  onBought(lines: readonly BoughtCopies[]): void;
}

export function BuyDialog({ row, onClose, onBought }: BuyDialogProps) {
  return (
    <Modal opened={row !== null} onClose={onClose} title="Buy" size={440} data-testid="buy-dialog" returnFocus>
      {row && <BuyForm key={row.id} row={row} onClose={onClose} onBought={onBought} />}
    </Modal>
  );
}

function Line({ label, value, strong, testId, color }: { label: string; value: string; strong?: boolean; testId?: string; color?: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size={strong ? 'md' : 'sm'} fw={strong ? 600 : 400} className="sd-num" data-testid={testId} c={color}>
        {value}
      </Text>
    </Group>
  );
}

/**
 * What the confirm button promises, and only what is sent: below the listed price (a raise the feed
 * brought while the dialog was open) the order carries the trader's maximum, so the button says that
 * ceiling ("Buy at most $0.07"), never the new price ("Buy for $5.07") it would not pay. Taking the new
 * price is its own click ("Use $5.07").
 */
function confirmLabel(total: number | null, ceiling: number | null, belowPrice: boolean): string {
  if (total === null || ceiling === null) return 'Buy';
  return belowPrice ? `Buy at most ${formatCents(ceiling)}` : `Buy for ${formatCents(total)}`;
}

function BuyForm({ row, onClose, onBought }: { row: BookRow; onClose(): void; onBought(lines: readonly BoughtCopies[]): void }) {
  const balance = useLive(balanceStore);
  const trading = useTradingState();
  const purchase = usePurchase(onBought);
  // as typed: a figure out of range is shown and refused, never bought as another one
  const [amount, setAmount] = useState<number | null>(1);
  const [maxText, setMaxText] = useState((row.price / 100).toFixed(2));
  // the price when the dialog opened: if the feed moves it, the trader sees both and chooses
  const [openedAt] = useState(row.price);
  const maxPrice = parseCents(maxText);
  // a refused purchase (price went up, not enough copies...) leaves the form open to try again
  const done = purchase.report !== null && purchase.report.status !== 'not_bought';
  // the feed may take copies while the dialog is open: the figure is checked against the listing as it
  // is now, until the purchase went (the copies it bought have left the listing's count by then)
  const amountProblem = done ? null : copiesProblem(amount, row.amount);
  const copies = amountProblem === null ? (amount as number) : null;
  // no total for copies that cannot be bought: a figure beside the refusal would be one never paid
  const total = copies === null ? null : row.price * copies;
  const ceiling = copies === null ? null : (maxPrice ?? row.price) * copies;
  const now = balance?.balance ?? null;
  const after = now === null || total === null ? null : now - total;
  // the balance as the purchase went out: once it is answered, "after" would subtract it a second time
  const [balanceAtBuy, setBalanceAtBuy] = useState<number | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (done) closeRef.current?.focus();
  }, [done]);
  const maxProblem = maxPriceProblem(maxText);
  const invalid = maxPrice === null || maxPrice <= 0 || copies === null;

  const submit = () => {
    if (done) return onClose();
    if (invalid || purchase.busy || !trading.allowed) return;
    // The price on screen as the trader confirmed, which words a refusal. A raise the dialog was showing
    // (its button then read "Buy at most …") is no seller's surprise: the refusal says the maximum is below
    // the price, not that the seller raised it "just before your order arrived". A raise after the click is.
    setBalanceAtBuy(now);
    void purchase.buy([{ listingId: row.id, amount: copies as number, maxPrice: maxPrice as number, shownPrice: row.price }]);
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <Text fw={600} size="sm" data-testid="buy-item">
          {row.market_hash_name}
        </Text>
        <Stack gap={2}>
          <Line label="Price each" value={formatCents(row.price)} testId="buy-price" color={row.price > openedAt ? 'red.4' : row.price < openedAt ? 'teal.4' : undefined} />
          {row.price !== openedAt && (
            <Group justify="space-between" wrap="nowrap" data-testid="price-moved">
              <Text size="xs" c="yellow.5">
                The price moved from {formatCents(openedAt)} while this was open.
              </Text>
              {!done && maxPrice !== row.price && (
                <Button size="compact-xs" variant="light" onClick={() => setMaxText((row.price / 100).toFixed(2))}>
                  Use {formatCents(row.price)}
                </Button>
              )}
            </Group>
          )}
          {/* kept while it holds a figure the listing no longer has (copies sold meanwhile), so it can be fixed */}
          {row.commodity && (row.amount > 1 || amountProblem !== null) && (
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" c="dimmed">
                Amount (of {row.amount})
              </Text>
              <CopiesInput aria-label="Amount" w={90} min={1} max={row.amount} copies={amount} onCopies={setAmount} error={amountProblem !== null} disabled={done} />
            </Group>
          )}
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" c="dimmed">
              Max price each
            </Text>
            <NumberInput
              aria-label="Max price"
              w={110}
              prefix="$"
              decimalScale={2}
              fixedDecimalScale
              allowNegative={false}
              value={maxText}
              onChange={(v) => setMaxText(String(v))}
              classNames={{ input: 'sd-num' }}
              disabled={done}
            />
          </Group>
          <Line label="Total" value={total === null ? '–' : formatCents(total)} strong testId="buy-total" />
          {done && <Line label="Balance before" value={balanceAtBuy === null ? '–' : formatCents(balanceAtBuy)} testId="balance-before" />}
          <Line label="Balance now" value={now === null ? '–' : formatCents(now)} testId="balance-now" />
          {!done && (
            <Line label="Balance after" value={after === null ? '–' : formatCents(after)} testId="balance-after" color={after !== null && after < 0 ? 'red.5' : undefined} />
          )}
        </Stack>
        {amountProblem !== null && (
          <Text size="xs" c="red.5" data-testid="amount-problem">
            {amountProblem}
          </Text>
        )}
        {maxProblem !== null && !done && (
          <Text size="xs" c="red.5" data-testid="max-price-problem">
            {maxProblem}
          </Text>
        )}
        {maxPrice !== null && maxPrice > 0 && maxPrice < row.price && !done && (
          <Text size="xs" c="yellow.5">
            Your maximum is below the listed price: the marketplace will refuse this unless the seller lowers it.
          </Text>
        )}
        {maxPrice !== null && maxPrice > row.price && ceiling !== null && !done && (
          <Text size="xs" c="dimmed">
            You pay the listing's price at the moment of purchase, at most {formatCents(ceiling)}.
          </Text>
        )}
        {after !== null && after < 0 && !done && (
          <Text size="xs" c="red.5">
            Your balance does not cover this purchase.
          </Text>
        )}
        {!trading.allowed && !done && (
          <Alert color="gray" p="xs" data-testid="trading-off">
            {trading.reason}
          </Alert>
        )}
        <OutcomeAlert report={purchase.report} refused={purchase.refused} />
        <Group justify="space-between" mt={4}>
          <Button
            variant="default"
            onClick={() => {
              addToCart(cartLineOf(row, { amount: copies as number, maxPrice: maxPrice ?? row.price }));
              onClose();
            }}
            disabled={done || invalid}
          >
            Add to cart
          </Button>
          <Group gap="xs">
            {done ? (
              <Button type="submit" ref={closeRef} data-testid="close-buy">
                Close
              </Button>
            ) : (
              <>
                <Button variant="subtle" color="gray" onClick={onClose}>
                  Cancel
                </Button>
                <Button type="submit" loading={purchase.busy} disabled={invalid || !trading.allowed} data-autofocus data-testid="confirm-buy">
                  {confirmLabel(total, ceiling, maxPrice !== null && maxPrice < row.price)}
                </Button>
              </>
            )}
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
