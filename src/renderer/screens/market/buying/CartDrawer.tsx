/**
 * The cart: several listings (and private listings added by their share link or token) bought in ONE
 * atomic purchase — every line or none. Each line keeps its own maximum price per copy. Lines follow the
 * live book: one whose listing left it is marked gone and holds the cart back until removed (never left
 * out of the purchase unasked: a trader who gathered a set wants all of it or none), and one whose price
 * moved shows the price now, its maximum staying the trader's until they take the new price.
 */
import { ActionIcon, Alert, Button, Divider, Drawer, Group, NumberInput, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconLock, IconTrash } from '@tabler/icons-react';
import { type FormEvent, Fragment, useState } from 'react';
import { parseCents } from '../../../../shared/money.ts';
import { formatCents, formatFloat } from '../../../format/numbers.ts';
import { balanceStore, useLive, useTradingState } from '../../../shell/app-state.ts';
import { CopiesInput } from '../../account/ui/CopiesInput.tsx';
import {
  type CartLine,
  addToCart,
  cartCeiling,
  cartLineCopiesProblem,
  cartLineProblem,
  cartTotal,
  clearCart,
  removeFromCart,
  setCartLineAmount,
  setCartLineMax,
  takeCartLinePriceNow,
  useCart,
} from './cart-store.ts';
import { useCartFollowsBook } from './cart-follow.ts';
import { maxPriceProblem } from './max-price.ts';
import { OutcomeAlert } from './OutcomeAlert.tsx';
import { parseShareLink } from './share-link.ts';
import { type BoughtCopies, usePurchase } from './use-purchase.ts';

/** Where the focus goes as the drawer opens: its first control, or the private listing's share-link field. */
export type CartFocus = 'lines' | 'private-link';

export interface CartDrawerProps {
  opened: boolean;
  focus?: CartFocus;
  onClose(): void;
  onBought(lines: readonly BoughtCopies[]): void;
}

/**
 * A line's max price. It shows what was typed, sendable or not: one that cannot be sent is marked here and
 * said in words under the line (the store keeps the last sendable maximum, never that one).
 */
function MaxPriceInput({ line }: { line: CartLine }) {
  return (
    <NumberInput
      ml="auto"
      aria-label={`Max price of ${line.name}`}
      w={92}
      prefix="$"
      decimalScale={2}
      fixedDecimalScale
      allowNegative={false}
      value={line.maxDraft ?? (line.maxPrice / 100).toFixed(2)}
      onChange={(v) => setCartLineMax(line.listingId, String(v))}
      error={cartLineProblem(line) !== null}
      classNames={{ input: 'sd-num' }}
    />
  );
}

type LineField = 'copies' | 'max';
const FIELD_NAMES: Record<LineField, string> = { copies: 'number of copies', max: 'max price' };

/** What holds a line back, field by field, in the order the line shows them. */
function lineProblems(line: CartLine): { field: LineField; words: string }[] {
  const copies = cartLineCopiesProblem(line);
  const max = cartLineProblem(line);
  return [...(copies === null ? [] : [{ field: 'copies' as const, words: copies }]), ...(max === null ? [] : [{ field: 'max' as const, words: max }])];
}

/** Why the cart cannot be bought while gone lines are in it, the first named (null: none is). */
function goneProblem(lines: readonly CartLine[]): string | null {
  const gone = lines.filter((l) => l.gone);
  const first = gone[0];
  if (first === undefined) return null;
  const others = gone.length - 1;
  const which = others === 0 ? 'is' : `and ${others} other gone ${others === 1 ? 'line' : 'lines'} are`;
  const rest = lines.length > gone.length ? ` Remove ${others === 0 ? 'it' : 'them'} to buy the rest.` : '';
  return `The cart cannot be bought while “${first.name}” (listing ${first.listingId}) ${which} in it: sold or delisted, it left the book.${rest}`;
}

/** Why the cart cannot be bought as it stands: the first line that cannot be sent, named (null: it can). */
function cartProblem(lines: readonly CartLine[]): string | null {
  const gone = goneProblem(lines);
  if (gone !== null) return gone;
  const stuck = lines.filter((l) => lineProblems(l).length > 0);
  const first = stuck[0];
  if (first === undefined) return null;
  const others = stuck.length - 1;
  const more = others === 0 ? '' : ` (and of ${others} other ${others === 1 ? 'line' : 'lines'})`;
  const { field, words } = lineProblems(first)[0] as { field: LineField; words: string };
  const why = words.charAt(0).toLowerCase() + words.slice(1);
  return `The cart cannot be bought until the ${FIELD_NAMES[field]} of “${first.name}” (listing ${first.listingId})${more} is fixed: ${why}`;
}

/** Adds a private listing from its share link (or id and token) with a maximum price. */
export function PrivateListingForm({ onAdded, autoFocus = false }: { onAdded?: (line: CartLine) => void; autoFocus?: boolean }) {
  const [pasted, setPasted] = useState('');
  const [idText, setIdText] = useState('');
  const [maxText, setMaxText] = useState('');
  const parsed = parseShareLink(pasted);
  const listingId = parsed.listingId ?? (/^[1-9]\d{0,15}$/.test(idText.trim()) ? Number(idText.trim()) : null);
  const maxPrice = parseCents(maxText);
  const maxProblem = maxPriceProblem(maxText);
  const ready = parsed.token !== null && listingId !== null && maxProblem === null && maxPrice !== null;
  // said once the form is started (a link, an id or a maximum typed), not at an untouched form
  const started = pasted.trim() !== '' || idText.trim() !== '' || maxText.trim() !== '';
  const add = () => {
    if (!ready) return;
    const line: CartLine = {
      listingId: listingId as number,
      name: `Private listing ${listingId}`,
      appId: null,
      shownPrice: null,
      amount: 1,
      available: 1,
      maxPrice: maxPrice as number,
      privateToken: parsed.token as string,
    };
    if (addToCart(line)) {
      setPasted('');
      setIdText('');
      setMaxText('');
      onAdded?.(line);
    }
  };
  return (
    // a form: Enter in the link, the id or the maximum adds the listing, as the Add button does
    <Stack
      component="form"
      gap={6}
      data-testid="private-listing-form"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        add();
      }}
    >
      <Group gap={6} wrap="nowrap">
        <IconLock size={14} color="var(--sd-muted)" />
        <Text size="xs" c="dimmed">
          Private listing: paste its share link (or “id token”). Its price is not in the book, so set your maximum.
        </Text>
      </Group>
      <TextInput
        aria-label="Share link or token"
        // the drawer's focus trap focuses the element marked so as it opens
        data-autofocus={autoFocus || undefined}
        placeholder="https://…/listings/123?private_token=…"
        value={pasted}
        onChange={(e) => setPasted(e.currentTarget.value)}
        error={pasted && parsed.token === null ? parsed.problem : undefined}
      />
      <Group gap={6} wrap="nowrap" align="flex-start">
        {parsed.listingId === null && (
          <TextInput aria-label="Listing id" placeholder="listing id" w={120} value={idText} onChange={(e) => setIdText(e.currentTarget.value)} className="sd-num" />
        )}
        <NumberInput
          aria-label="Private max price"
          placeholder="max price"
          prefix="$"
          decimalScale={2}
          allowNegative={false}
          w={120}
          value={maxText}
          onChange={(v) => setMaxText(String(v))}
          classNames={{ input: 'sd-num' }}
        />
        <Button type="submit" variant="default" disabled={!ready}>
          Add
        </Button>
      </Group>
      {started && maxProblem !== null && (
        <Text size="xs" c="red.5" data-testid="max-price-problem">
          {maxProblem}
        </Text>
      )}
    </Stack>
  );
}

/** Names that more than one line carries: those lines need a tell beside the name. */
function namesOnSeveralLines(lines: readonly CartLine[]): Set<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const line of lines) (seen.has(line.name) ? repeated : seen).add(line.name);
  return repeated;
}

/** What the live book says of a line, under it: gone, or its price now with the click that takes it. */
function BookNote({ line }: { line: CartLine }) {
  if (line.gone) {
    return (
      <Text size="xs" c="red.5" ta="right" data-testid="cart-line-gone">
        Gone: sold or delisted since it was added, it cannot be bought.
      </Text>
    );
  }
  if (line.priceNow === undefined) return null;
  return (
    <Group justify="flex-end" gap={6} wrap="nowrap" data-testid="cart-price-now">
      <Text size="xs" c="yellow.5">
        Price now {formatCents(line.priceNow)}
        {line.priceNow > line.maxPrice ? `, above your maximum of ${formatCents(line.maxPrice)}` : ''}.
      </Text>
      <Button size="compact-xs" variant="light" onClick={() => takeCartLinePriceNow(line.listingId)}>
        Use {formatCents(line.priceNow)}
      </Button>
    </Group>
  );
}

/** What tells a line from another of the same item: its float when known, else its listing id. */
export function lineTell(line: CartLine): string {
  return line.wear == null ? `#${line.listingId}` : formatFloat(line.wear);
}

export function CartDrawer({ opened, focus = 'lines', onClose, onBought }: CartDrawerProps) {
  const lines = useCart();
  const balance = useLive(balanceStore);
  const trading = useTradingState();
  const purchase = usePurchase(onBought);
  useCartFollowsBook();
  const total = cartTotal(lines);
  const ceiling = cartCeiling(lines);
  const after = balance?.balance == null || total === null ? null : balance.balance - total;
  // a line whose maximum cannot be sent holds the whole cart back (all or nothing), and is named
  const blocked = cartProblem(lines);
  // the line the marketplace refused (a cart is all or nothing): marked, so it can be fixed or removed
  const failedId = purchase.report && purchase.report.status !== 'bought' ? purchase.report.failedListingId : null;
  const sameNamed = namesOnSeveralLines(lines);

  return (
    <Drawer
      opened={opened}
      onClose={() => {
        purchase.reset();
        onClose();
      }}
      position="right"
      size={500}
      title={`Cart · ${lines.length} ${lines.length === 1 ? 'listing' : 'listings'}`}
      data-testid="cart-drawer"
    >
      <Stack gap="sm">
        {lines.length === 0 ? (
          <Text size="sm" c="dimmed">
            The cart is empty. Select a row and press A to add it, or add a private listing below.
          </Text>
        ) : (
          <Table verticalSpacing={4} horizontalSpacing={6} fz="xs" data-testid="cart-lines">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Item</Table.Th>
                <Table.Th ta="right">Price</Table.Th>
                <Table.Th ta="right">Qty</Table.Th>
                <Table.Th ta="right">Max each</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((l) => {
                const problems = lineProblems(l);
                const noted = l.gone === true || l.priceNow !== undefined;
                return (
                  <Fragment key={l.listingId}>
                    <Table.Tr
                      data-cart-listing-id={l.listingId}
                      data-max-problem={cartLineProblem(l) !== null || undefined}
                      data-copies-problem={cartLineCopiesProblem(l) !== null || undefined}
                      data-failed={failedId === l.listingId || undefined}
                      data-gone={l.gone}
                      style={failedId === l.listingId ? { background: 'rgba(250, 82, 82, 0.15)' } : undefined}
                      title={failedId === l.listingId ? 'This line stopped the purchase' : undefined}
                    >
                      <Table.Td maw={170} title={`${l.name} (listing ${l.listingId})`}>
                        <Group gap={4} wrap="nowrap">
                          {l.privateToken && <IconLock size={11} style={{ flex: 'none' }} />}
                          <Text fz="xs" truncate>
                            {l.name}
                          </Text>
                          {sameNamed.has(l.name) && (
                            <Text fz="xs" c="dimmed" className="sd-num" style={{ flex: 'none' }} data-testid="cart-line-tell">
                              {lineTell(l)}
                            </Text>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td ta="right" className="sd-num" td={l.gone || l.priceNow !== undefined ? 'line-through' : undefined} c={l.gone || l.priceNow !== undefined ? 'dimmed' : undefined}>
                        {l.shownPrice === null ? '–' : formatCents(l.shownPrice)}
                      </Table.Td>
                      <Table.Td ta="right">
                        {l.available > 1 ? (
                          <CopiesInput
                            aria-label={`Amount of ${l.name}`}
                            w={56}
                            ml="auto" // a block in a right-aligned cell: the figures of the column line up
                            min={1}
                            max={l.available}
                            copies={l.amountDraft === undefined ? l.amount : l.amountDraft}
                            onCopies={(copies) => setCartLineAmount(l.listingId, copies)}
                            error={cartLineCopiesProblem(l) !== null}
                          />
                        ) : (
                          <span className="sd-num">1</span>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">
                        <MaxPriceInput line={l} />
                      </Table.Td>
                      <Table.Td>
                        <ActionIcon aria-label={`Remove ${l.name}`} onClick={() => removeFromCart([l.listingId])} color="gray">
                          <IconTrash size={14} />
                        </ActionIcon>
                      </Table.Td>
                    </Table.Tr>
                    {(problems.length > 0 || noted) && (
                      <Table.Tr data-cart-problem-of={l.listingId}>
                        <Table.Td colSpan={5} pt={0}>
                          <BookNote line={l} />
                          {problems.map((p) => (
                            <Text key={p.field} size="xs" c="red.5" ta="right" data-testid={`cart-${p.field}-problem`}>
                              {p.words}
                            </Text>
                          ))}
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        <Divider />
        <PrivateListingForm autoFocus={focus === 'private-link'} />
        <Divider />
        <Stack gap={2}>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Total at shown prices
            </Text>
            <Text size="md" fw={600} className="sd-num" data-testid="cart-total">
              {total === null ? '–' : formatCents(total)}
            </Text>
          </Group>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              At most (your maximums)
            </Text>
            <Text size="sm" className="sd-num">
              {ceiling === null ? '–' : formatCents(ceiling)}
            </Text>
          </Group>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Balance after
            </Text>
            <Text size="sm" className="sd-num" c={after !== null && after < 0 ? 'red.5' : undefined}>
              {after === null ? '–' : formatCents(after)}
            </Text>
          </Group>
        </Stack>
        {!trading.allowed && (
          <Alert color="gray" p="xs">
            {trading.reason}
          </Alert>
        )}
        {blocked !== null && (
          <Text size="xs" c="red.5" data-testid="cart-blocked">
            {blocked}
          </Text>
        )}
        <OutcomeAlert report={purchase.report} refused={purchase.refused} />
        <Group justify="space-between">
          <Button variant="subtle" color="gray" onClick={clearCart} disabled={lines.length === 0 || purchase.busy}>
            Empty cart
          </Button>
          <Button
            data-testid="buy-cart"
            disabled={lines.length === 0 || !trading.allowed || blocked !== null}
            loading={purchase.busy}
            onClick={() => {
              // never a maximum the trader has not settled on: a line being fixed holds the cart back
              if (blocked !== null) return;
              void purchase.buy(
                lines.map((l) => ({
                  listingId: l.listingId,
                  amount: l.amount,
                  maxPrice: l.maxPrice,
                  // the price the cart shows for the line (the price now, where the book moved it): a refusal
                  // tells a maximum set below it from a raise
                  ...(l.shownPrice === null ? {} : { shownPrice: l.priceNow ?? l.shownPrice }),
                  // names the line in the outcome if its listing is gone from the book meanwhile (a private
                  // line's name is ours, not the item's: its id says more)
                  ...(l.privateToken ? { privateToken: l.privateToken } : { name: l.name }),
                })),
              );
            }}
          >
            {lines.length > 1 ? `Buy ${lines.length} — all or nothing` : 'Buy'}
          </Button>
        </Group>
      </Stack>
    </Drawer>
  );
}
