/**
 * List from the backpack: each group becomes one listing, at a fixed price or with a price decay
 * (24–168 h, the curve previewed with the price at any hour). A commodity row is one pool several groups
 * draw from; what is left of each pool is shown as groups are edited, and overdrawing is caught before
 * sending (the marketplace would answer INSUFFICIENT_ITEMS).
 */
import { ActionIcon, Badge, Button, Group, Paper, SegmentedControl, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { BackpackItem } from '../../../../shared/api/index.ts';
import { call } from '../../../bridge/index.ts';
import { marketGap } from '../logic/market-gap.ts';
import { poolsLeft } from '../logic/pools.ts';
import { CentsInput, ZERO_PRICE_WORDS } from '../ui/CentsInput.tsx';
import { CopiesInput } from '../ui/CopiesInput.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { DecayEditor, type DecayDraft, completeCurve } from '../ui/DecayEditor.tsx';
import { copiesToSend, formatCents, formatHours, plural } from '../ui/format.ts';
import { ListingRows } from '../ui/ListingRows.tsx';
import { MarketGapNote } from '../ui/MarketGapNote.tsx';
import { Money } from '../ui/Money.tsx';
import { ProblemList } from '../ui/ProblemList.tsx';
import { useAction } from '../ui/useAction.ts';
import { useProblemTip } from '../ui/useProblemTip.tsx';
import { blockingMessage, usePreSendCheck } from '../ui/usePreSendCheck.ts';

interface ListGroupDraft {
  key: string;
  rowId: number;
  /** As typed, never put back into range (null while empty): the field says what is wrong with it. */
  copies: number | null;
  mode: 'fixed' | 'decay';
  price: number | null;
  decay: DecayDraft;
}

let nextKey = 0;
function newGroup(row: BackpackItem, copies: number): ListGroupDraft {
  return {
    key: `g${++nextKey}`,
    rowId: row.id,
    copies,
    mode: 'fixed',
    price: row.market_price || null,
    decay: { start_price: Math.round(row.market_price * 1.2) || null, end_price: Math.round(row.market_price * 0.9) || null, total_hours: 72 },
  };
}

function toRequest(groups: readonly ListGroupDraft[]) {
  return groups.map((g) => {
    const curve = g.mode === 'decay' ? completeCurve(g.decay) : null;
    return { items: [{ id: g.rowId, amount: g.copies ?? 0 }], price: g.mode === 'fixed' ? g.price : null, decay: curve };
  });
}

/** What is wrong with a group's copies, said under its field; null when they can be listed. */
function copiesProblem(g: ListGroupDraft, poolLeft: number): string | null {
  if (g.copies === null || !Number.isInteger(g.copies) || g.copies < 1) return 'At least 1 copy.';
  return poolLeft < 0 ? `${plural(-poolLeft, 'copy', 'copies')} more than the pool holds.` : null;
}

/** What is wrong with a group's price (or its decay), said beside the button; null when it can be listed. */
function priceProblem(g: ListGroupDraft, typed: string | null): string | null {
  if (g.mode === 'decay') return completeCurve(g.decay) === null ? 'Complete the price decay.' : null;
  if (typed !== null) return typed;
  if (g.price === null) return 'Enter a price.';
  return g.price <= 0 ? ZERO_PRICE_WORDS : null;
}

/** The copies of a row, asked in a narrow cell: a refusal is said in a tooltip, not under the field. */
function CopiesField({ group, index, problem, onCopies }: { group: ListGroupDraft; index: number; problem: string | null; onCopies: (copies: number | null) => void }) {
  const tip = useProblemTip(problem);
  return (
    <CopiesInput aria-label={`Copies in group ${index + 1}`} w={70} ml="auto" min={1} copies={group.copies} onCopies={onCopies} {...tip} />
  );
}

export function ListDialog({ rows: selection, onClose, onSent }: { rows: readonly BackpackItem[]; onClose: () => void; onSent: () => void }) {
  // the rows as they were when the dialog opened: the screen clears its selection once sent
  const [rows] = useState(selection);
  const [groups, setGroups] = useState<ListGroupDraft[]>(() => rows.map((r) => newGroup(r, r.commodity ? r.amount : 1)));
  const [focus, setFocus] = useState<string | null>(groups[0]?.key ?? null);
  // the words of a price field whose text is not an amount (its price is then null), by group
  const [typed, setTyped] = useState<Readonly<Record<string, string | null>>>({});
  const send = useAction(async () => {
    const answer = await call('listItems', { groups: toRequest(groups) });
    onSent();
    return answer;
  });
  const left = poolsLeft(rows, groups);
  // the first thing holding a group back: its copies, then its price
  const problems = groups.map((g) => copiesProblem(g, left.get(g.rowId) ?? 0) ?? priceProblem(g, typed[g.key] ?? null));
  const firstProblem = problems.findIndex((p) => p !== null);
  const ready = groups.length > 0 && firstProblem === -1;
  // checked again after a failed send too: a lost answer changes what the app says of the same groups
  const check = usePreSendCheck(groups, async (draft) => (await call('listItems', { groups: toRequest(draft), dryRun: true })).check.problems, ready, send.error);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const update = (key: string, change: Partial<ListGroupDraft>) => setGroups((gs) => gs.map((g) => (g.key === key ? { ...g, ...change } : g)));
  const focused = groups.find((g) => g.key === focus) ?? null;
  // counted in the title only while every group's copies can be listed: never "List −2 copies"
  const countable = groups.every((g) => copiesProblem(g, left.get(g.rowId) ?? 0) === null);
  const copies = groups.reduce((s, g) => s + (g.copies ?? 0), 0);
  const what = copiesToSend(countable ? copies : null, rows.map((r) => r.market_hash_name));
  // a price far from the market (a decimal point slipped) is said before listing; a decay by where it ends
  const gaps = groups.flatMap((g, gi) => {
    const row = byId.get(g.rowId);
    const curve = g.mode === 'decay' ? completeCurve(g.decay) : null;
    const words = g.mode === 'fixed' ? marketGap(g.price, row?.market_price) : curve ? marketGap(curve.end_price, row?.market_price) : null;
    if (!words) return [];
    const name = row?.market_hash_name ?? `item ${g.rowId}`;
    const said = curve ? `the decay ends at ${formatCents(curve.end_price)} a copy, ${words}` : `${formatCents(g.price ?? 0)} a copy is ${words}`;
    return [{ group: groups.length > 1 ? `Group ${gi + 1} (${name})` : name, words: said }];
  });
  const blocked = !ready
    ? `${groups.length > 1 ? `Group ${firstProblem + 1}: ` : ''}${problems[firstProblem] ?? 'Add a group.'}`
    : check.checking
      ? 'Checking…'
      : blockingMessage(check.problems);

  return (
    <ConfirmDialog
      opened
      onClose={onClose}
      title={`List ${what} from the backpack`}
      confirmLabel={`Create ${plural(groups.length, 'listing')}`}
      onConfirm={() => void send.run()}
      blockedReason={blocked}
      enterSends
      checking={check.checking}
      running={send.running}
      progressLabel="Listing…"
      error={send.error}
      size={900}
      result={
        send.result ? (
          <Stack gap={4}>
            <Text size="sm">{plural(send.result.listings.length, 'listing')} now on the market:</Text>
            <Table fz="xs" verticalSpacing={2} data-testid="listed-result">
              <ListingRows listings={send.result.listings} />
            </Table>
          </Stack>
        ) : null
      }
    >
      <Table withTableBorder verticalSpacing={4} fz="xs" data-testid="list-groups">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Item</Table.Th>
            <Table.Th ta="right">Copies</Table.Th>
            <Table.Th ta="right">Market</Table.Th>
            <Table.Th>Pricing</Table.Th>
            <Table.Th w={150}>Price</Table.Th>
            <Table.Th w={60} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.map((g, gi) => {
            const row = byId.get(g.rowId)!;
            const poolLeft = left.get(g.rowId) ?? 0;
            const curve = completeCurve(g.decay);
            return (
              // the group selected is the one worked on, by the keyboard too: Tab into its fields selects it,
              // or "Use a price decay for the selected group" changed the one clicked last, not the one typed in
              <Table.Tr key={g.key} data-testid="list-group" bg={focus === g.key ? 'var(--sd-row-selected)' : undefined} onClick={() => setFocus(g.key)} onFocus={() => setFocus(g.key)} style={{ cursor: 'pointer' }}>
                <Table.Td>
                  <Text size="xs" fw={500}>
                    {row.market_hash_name}
                  </Text>
                  {row.commodity ? (
                    <Text size="10px" c={poolLeft < 0 ? 'red.4' : 'dimmed'} className="sd-num" data-testid="pool-left">
                      pool #{row.id}: {poolLeft} of {row.amount} left
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td ta="right">
                  {row.commodity ? (
                    <CopiesField group={g} index={gi} problem={copiesProblem(g, poolLeft)} onCopies={(copies) => update(g.key, { copies })} />
                  ) : (
                    '1'
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  {/* beside the price typed, what it is set against (the price starts there) */}
                  <Money cents={row.market_price} size="xs" />
                </Table.Td>
                <Table.Td>
                  <SegmentedControl
                    aria-label={`Pricing of group ${gi + 1}`}
                    value={g.mode}
                    onChange={(v) => {
                      update(g.key, { mode: v as ListGroupDraft['mode'] });
                      // the price field comes back empty (a refused text gave no price): its words go with it
                      setTyped((t) => ({ ...t, [g.key]: null }));
                      setFocus(g.key);
                    }}
                    data={[
                      { value: 'fixed', label: 'Fixed' },
                      { value: 'decay', label: 'Decay' },
                    ]}
                  />
                </Table.Td>
                <Table.Td>
                  {g.mode === 'fixed' ? (
                    <CentsInput
                      aria-label={`Price of group ${gi + 1}`}
                      cents={g.price}
                      onCents={(c, problem) => {
                        update(g.key, { price: c });
                        setTyped((t) => ({ ...t, [g.key]: problem }));
                      }}
                      problemIn="tip"
                      error={g.price !== null && g.price <= 0 ? ZERO_PRICE_WORDS : undefined}
                      data-autofocus={gi === 0 || undefined}
                      data-testid="list-price"
                    />
                  ) : (
                    <Text size="xs" className="sd-num" c={curve ? undefined : 'yellow.4'}>
                      {curve ? `${formatCents(curve.start_price)} → ${formatCents(curve.end_price)} / ${formatHours(curve.total_hours)}` : 'incomplete curve'}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap={2} wrap="nowrap" justify="flex-end">
                    {row.commodity ? (
                      <Tooltip label="Another group from the same pool (another listing, its own price)">
                        <ActionIcon aria-label="Add a group from this pool" onClick={(e) => { e.stopPropagation(); setGroups((gs) => [...gs, newGroup(row, 1)]); }}>
                          <IconPlus size={14} />
                        </ActionIcon>
                      </Tooltip>
                    ) : null}
                    <ActionIcon aria-label="Remove this group" color="red" disabled={groups.length === 1} onClick={(e) => { e.stopPropagation(); setGroups((gs) => gs.filter((x) => x.key !== g.key)); }}>
                      <IconTrash size={14} />
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {focused?.mode === 'decay' ? (
        <Paper withBorder p="xs" bg="dark.7">
          <Group justify="space-between" mb={4}>
            <Text size="xs" fw={600}>
              Price decay · {byId.get(focused.rowId)?.market_hash_name}
            </Text>
            <Badge variant="light" color="gray">
              market {formatCents(byId.get(focused.rowId)?.market_price ?? 0)}
            </Badge>
          </Group>
          <DecayEditor value={focused.decay} onChange={(decay) => update(focused.key, { decay })} />
          <Text size="xs" c="dimmed" mt={4}>
            The price starts at the start price and falls linearly to the end price over the hours given, then stays there. Buyers pay the price of the moment.
          </Text>
        </Paper>
      ) : (
        <Button variant="subtle" size="xs" onClick={() => focused && update(focused.key, { mode: 'decay' })} disabled={!focused}>
          Use a price decay for the selected group
        </Button>
      )}
      <MarketGapNote gaps={gaps} />
      <ProblemList problems={check.checking ? undefined : check.problems} />
    </ConfirmDialog>
  );
}
