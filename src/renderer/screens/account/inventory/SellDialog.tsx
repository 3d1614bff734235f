/**
 * Sell from the Steam inventory: groups (one listing each) with a price per copy, checked before
 * sending (50 groups × 50 entries, 500 copies per game's offer, 15 trades in flight, token lifetime),
 * then the deposit ids the marketplace answers are followed as trades until the listings go live.
 */
import { Group, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import type { AppId } from '../../../../shared/api/index.ts';
import type { InventoryRow } from '../../../../shared/ipc/calls-account.ts';
import { call } from '../../../bridge/index.ts';
import { marketGap } from '../logic/market-gap.ts';
import { defaultSellGroups, groupCopies, type SellGroupDraft, sendableGroupCopies, stackCopiesProblem, uncountedCopiesWords } from '../logic/sell-groups.ts';
import { CentsInput } from '../ui/CentsInput.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { CopiesInput } from '../ui/CopiesInput.tsx';
import { MarketGapNote } from '../ui/MarketGapNote.tsx';
import { copiesToSend, formatCents, gameName, plural } from '../ui/format.ts';
import { Money } from '../ui/Money.tsx';
import { ProblemList } from '../ui/ProblemList.tsx';
import { TradeFollow } from '../ui/TradeFollow.tsx';
import { useAction } from '../ui/useAction.ts';
import { useProblemTip } from '../ui/useProblemTip.tsx';
import { blockingMessage, usePreSendCheck } from '../ui/usePreSendCheck.ts';

/** What holds a group back, said beside the send button; null when it can be sent. */
function groupProblem(g: SellGroupDraft, typed: string | null): string | null {
  if (typed !== null) return typed;
  if (g.price === null) return 'Enter a price per copy.';
  if (g.price <= 0) return ZERO_PRICE;
  const stack = g.items.map((it, i) => stackCopiesProblem(it, i, g.items.length)).find((p) => p !== null);
  if (stack !== undefined) return stack;
  return groupCopies(g) > 0 ? null : 'At least 1 copy.';
}

const ZERO_PRICE = 'A price per copy above $0.00.';

/**
 * Copies from one stack, as typed: emptied it stays empty (none from this stack) rather than reading
 * "0" under the cursor, and a figure above the stack stays as typed, refused in its tooltip.
 */
function StackCopiesField({ label, item, problem, onCopies }: { label: string; item: SellGroupDraft['items'][number]; problem: string | null; onCopies: (copies: number | null) => void }) {
  const tip = useProblemTip(problem);
  return (
    <CopiesInput
      aria-label={label}
      w={62}
      copies={item.amount}
      onCopies={onCopies}
      rightSection={
        <Text size="10px" c="dimmed">
          /{item.max}
        </Text>
      }
      {...tip}
    />
  );
}

function toRequest(groups: readonly SellGroupDraft[]) {
  return groups.map((g) => ({
    items: g.items.flatMap(({ assetId, amount }) => (amount !== null && amount > 0 ? [{ assetId, amount }] : [])),
    price: g.price ?? 0,
  }));
}

export function SellDialog({ appId, rows: selection, onClose, onSent }: { appId: AppId; rows: readonly InventoryRow[]; onClose: () => void; onSent: () => void }) {
  // the rows as they were when the dialog opened: the screen clears its selection once sent
  const [rows] = useState(selection);
  const [groups, setGroups] = useState(() => defaultSellGroups(rows));
  // the words of a price field whose text is not an amount (its price is then null), by group
  const [typed, setTyped] = useState<Readonly<Record<string, string | null>>>({});
  const problems = groups.map((g) => groupProblem(g, typed[g.key] ?? null));
  const firstProblem = problems.findIndex((p) => p !== null);
  const valid = firstProblem === -1;
  const send = useAction(async () => {
    const answer = await call('sellItems', { appId, groups: toRequest(groups) });
    onSent();
    return answer;
  });
  // checked again after a failed send too: after a lost answer the items may be in an offer
  const check = usePreSendCheck(
    groups,
    async (draft) => (await call('sellItems', { appId, groups: toRequest(draft), dryRun: true })).check.problems,
    valid,
    send.error,
  );
  const copies = groups.reduce((s, g) => s + groupCopies(g), 0);
  // the title and the footer count the same copies, and only while every stack's figure can be sent
  const overdrawn = groups.some((g) => g.items.some((it, i) => stackCopiesProblem(it, i, g.items.length) !== null));
  const what = copiesToSend(overdrawn ? null : copies, groups.map((g) => g.name));
  // only what the offer would ask: a total of the groups that have a price, beside one refused, is a
  // figure never asked for, and "$0.00" when none has one read as an offer for nothing
  const total = valid ? groups.reduce((s, g) => s + groupCopies(g) * (g.price ?? 0), 0) : null;
  // a price far from the market (a decimal point slipped) is said before the offer is sent
  const gaps = groups.flatMap((g, gi) => {
    const words = marketGap(g.price, rows.find((r) => r.assetId === g.items[0]?.assetId)?.marketPrice);
    return words ? [{ group: groups.length > 1 ? `Group ${gi + 1} (${g.name})` : g.name, words: `${formatCents(g.price ?? 0)} a copy is ${words}` }] : [];
  });
  const update = (key: string, change: (g: SellGroupDraft) => SellGroupDraft) => setGroups((gs) => gs.map((g) => (g.key === key ? change(g) : g)));
  const blocked = !valid
    ? `${groups.length > 1 ? `Group ${firstProblem + 1}: ` : ''}${problems[firstProblem]}`
    : check.checking
      ? 'Checking…'
      : blockingMessage(check.problems);

  return (
    <ConfirmDialog
      opened
      onClose={onClose}
      title={`Sell ${what} from the ${gameName(appId)} inventory`}
      confirmLabel={total === null ? 'Send trade offer' : `Send trade offer · ${formatCents(total)}`}
      onConfirm={() => void send.run()}
      blockedReason={blocked}
      enterSends
      checking={check.checking}
      running={send.running}
      progressLabel="Asking the marketplace to send the trade offer…"
      error={send.error}
      size="xl"
      result={
        send.result ? (
          <Stack gap="xs">
            <Text size="sm">
              The marketplace is sending you {plural(send.result.depositIds.length, 'trade offer')}. Accept it on the platform; the items are
              listed at your prices once it is accepted.
            </Text>
            <TradeFollow ids={send.result.depositIds} by="deposit" />
          </Stack>
        ) : null
      }
    >
      <Text size="xs" c="dimmed">
        One group becomes one listing at its price per copy. Stacks of one commodity share a group; every other item is its own group.
      </Text>
      <Table withTableBorder striped highlightOnHover verticalSpacing={4} fz="xs" data-testid="sell-groups">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Item</Table.Th>
            <Table.Th ta="right">Copies</Table.Th>
            <Table.Th ta="right">Market</Table.Th>
            <Table.Th w={130}>Price per copy</Table.Th>
            <Table.Th ta="right">Group total</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.map((g, gi) => {
            const row = rows.find((r) => r.assetId === g.items[0]?.assetId);
            const uncounted = uncountedCopiesWords(g);
            return (
              <Table.Tr key={g.key} data-testid="sell-group">
                <Table.Td>
                  <Text size="xs" fw={500}>
                    {g.name}
                  </Text>
                  {g.items.length > 1 ? (
                    <Text size="xs" c="dimmed">
                      {g.items.length} stacks
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td ta="right">
                  {g.commodity ? (
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      {g.items.map((it, i) => (
                        <StackCopiesField
                          key={it.assetId}
                          label={`Copies from stack ${i + 1} of group ${gi + 1}`}
                          item={it}
                          problem={stackCopiesProblem(it, i, g.items.length)}
                          onCopies={(amount) => update(g.key, (x) => ({ ...x, items: x.items.map((y) => (y.assetId === it.assetId ? { ...y, amount } : y)) }))}
                        />
                      ))}
                    </Group>
                  ) : (
                    <Text size="xs" className="sd-num">
                      1
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  <Money cents={row?.marketPrice} size="xs" />
                </Table.Td>
                <Table.Td>
                  <CentsInput
                    aria-label={`Price per copy of group ${gi + 1}`}
                    cents={g.price}
                    onCents={(c, problem) => {
                      update(g.key, (x) => ({ ...x, price: c }));
                      setTyped((t) => ({ ...t, [g.key]: problem }));
                    }}
                    problemIn="tip"
                    error={g.price !== null && g.price <= 0 ? ZERO_PRICE : undefined}
                    data-autofocus={gi === 0 || undefined}
                    data-testid="sell-price"
                  />
                </Table.Td>
                <Table.Td ta="right">
                  {/* the copies a send would take: a figure typed over its stack is refused, not sent, and
                      the total said why it leaves it out rather than pricing copies the stack lacks */}
                  <Money cents={g.price !== null && g.price > 0 ? g.price * sendableGroupCopies(g) : null} size="xs" />
                  {uncounted !== null ? (
                    <Text size="10px" c="red.4" maw={180} ml="auto" data-testid="sell-group-uncounted">
                      {uncounted}
                    </Text>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {plural(groups.length, 'group')} · {what} in one trade offer for {gameName(appId)}
        </Text>
        <Text size="sm">
          Asking total <Money cents={total} fw={600} data-testid="sell-total" />
        </Text>
      </Group>
      <MarketGapNote gaps={gaps} />
      <ProblemList problems={check.checking ? undefined : check.problems} />
    </ConfirmDialog>
  );
}
