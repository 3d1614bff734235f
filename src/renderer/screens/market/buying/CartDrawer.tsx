/**
 * The cart: several listings (and private listings added by their share link or token) bought in ONE
 * atomic purchase — every line or none. Each line keeps its own maximum price per copy.
 */
import { ActionIcon, Alert, Button, Divider, Drawer, Group, NumberInput, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconLock, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { parseCents } from '../../../../shared/money.ts';
import { formatCents } from '../../../format/numbers.ts';
import { balanceStore, useLive, useTradingState } from '../../../shell/app-state.ts';
import { type CartLine, addToCart, cartTotal, clearCart, removeFromCart, updateCartLine, useCart } from './cart-store.ts';
import { OutcomeAlert } from './OutcomeAlert.tsx';
import { parseShareLink } from './share-link.ts';
import { usePurchase } from './use-purchase.ts';

export interface CartDrawerProps {
  opened: boolean;
  onClose(): void;
  onBought(ids: readonly number[]): void;
}

function MoneyInput({ cents, onChange, label }: { cents: number; onChange(cents: number): void; label: string }) {
  return (
    <NumberInput
      aria-label={label}
      w={92}
      prefix="$"
      decimalScale={2}
      fixedDecimalScale
      allowNegative={false}
      value={(cents / 100).toFixed(2)}
      onChange={(v) => {
        const parsed = parseCents(String(v));
        if (parsed !== null && parsed > 0) onChange(parsed);
      }}
      classNames={{ input: 'sd-num' }}
    />
  );
}

/** Adds a private listing from its share link (or id and token) with a maximum price. */
export function PrivateListingForm({ onAdded }: { onAdded?: (line: CartLine) => void }) {
  const [pasted, setPasted] = useState('');
  const [idText, setIdText] = useState('');
  const [maxText, setMaxText] = useState('');
  const parsed = parseShareLink(pasted);
  const listingId = parsed.listingId ?? (/^[1-9]\d{0,15}$/.test(idText.trim()) ? Number(idText.trim()) : null);
  const maxPrice = parseCents(maxText);
  const ready = parsed.token !== null && listingId !== null && maxPrice !== null && maxPrice > 0;
  return (
    <Stack gap={6} data-testid="private-listing-form">
      <Group gap={6} wrap="nowrap">
        <IconLock size={14} color="var(--sd-muted)" />
        <Text size="xs" c="dimmed">
          Private listing: paste its share link (or “id token”). Its price is not in the book, so set your maximum.
        </Text>
      </Group>
      <TextInput
        aria-label="Share link or token"
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
        <Button
          variant="default"
          disabled={!ready}
          onClick={() => {
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
          }}
        >
          Add
        </Button>
      </Group>
    </Stack>
  );
}

export function CartDrawer({ opened, onClose, onBought }: CartDrawerProps) {
  const lines = useCart();
  const balance = useLive(balanceStore);
  const trading = useTradingState();
  const purchase = usePurchase(onBought);
  const total = cartTotal(lines);
  const ceiling = lines.reduce((sum, l) => sum + l.maxPrice * l.amount, 0);
  const after = balance?.balance == null ? null : balance.balance - total;
  // the line the marketplace refused (a cart is all or nothing): marked, so it can be fixed or removed
  const failedId = purchase.report && purchase.report.status !== 'bought' ? purchase.report.failedListingId : null;

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
              {lines.map((l) => (
                <Table.Tr
                  key={l.listingId}
                  data-cart-listing-id={l.listingId}
                  data-failed={failedId === l.listingId || undefined}
                  style={failedId === l.listingId ? { background: 'rgba(250, 82, 82, 0.15)' } : undefined}
                  title={failedId === l.listingId ? 'This line stopped the purchase' : undefined}
                >
                  <Table.Td maw={170} style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={l.name}>
                    {l.privateToken && <IconLock size={11} style={{ marginRight: 4 }} />}
                    {l.name}
                  </Table.Td>
                  <Table.Td ta="right" className="sd-num">
                    {l.shownPrice === null ? '–' : formatCents(l.shownPrice)}
                  </Table.Td>
                  <Table.Td ta="right">
                    {l.available > 1 ? (
                      <NumberInput
                        aria-label={`Amount of ${l.name}`}
                        w={56}
                        min={1}
                        max={l.available}
                        allowDecimal={false}
                        value={l.amount}
                        onChange={(v) => updateCartLine(l.listingId, { amount: Math.max(1, Math.min(l.available, Number(v) || 1)) })}
                      />
                    ) : (
                      <span className="sd-num">1</span>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">
                    <MoneyInput label={`Max price of ${l.name}`} cents={l.maxPrice} onChange={(maxPrice) => updateCartLine(l.listingId, { maxPrice })} />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon aria-label={`Remove ${l.name}`} onClick={() => removeFromCart([l.listingId])} color="gray">
                      <IconTrash size={14} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Divider />
        <PrivateListingForm />
        <Divider />
        <Stack gap={2}>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Total at shown prices
            </Text>
            <Text size="md" fw={600} className="sd-num" data-testid="cart-total">
              {formatCents(total)}
            </Text>
          </Group>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              At most (your maximums)
            </Text>
            <Text size="sm" className="sd-num">
              {formatCents(ceiling)}
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
        <OutcomeAlert report={purchase.report} refused={purchase.refused} />
        <Group justify="space-between">
          <Button variant="subtle" color="gray" onClick={clearCart} disabled={lines.length === 0 || purchase.busy}>
            Empty cart
          </Button>
          <Button
            data-testid="buy-cart"
            disabled={lines.length === 0 || !trading.allowed}
            loading={purchase.busy}
            onClick={() =>
              void purchase.buy(
                lines.map((l) => ({
                  listingId: l.listingId,
                  amount: l.amount,
                  maxPrice: l.maxPrice,
                  // the price the cart shows for the line: a refusal tells a maximum set below it from a raise
                  ...(l.shownPrice === null ? {} : { shownPrice: l.shownPrice }),
                  ...(l.privateToken ? { privateToken: l.privateToken } : {}),
                })),
              )
            }
          >
            {lines.length > 1 ? `Buy ${lines.length} — all or nothing` : 'Buy'}
          </Button>
        </Group>
      </Stack>
    </Drawer>
  );
}
