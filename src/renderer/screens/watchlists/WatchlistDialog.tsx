/**
 * Edit a watchlist: its book filter (the market screens' own filter panel), the price condition, alerts
 * (notification, sound, webhook), and auto-buy with every guardrail. The draft is checked with the shared schema
 * before it is sent, so a wrong field is shown here, not refused by the app.
 */
import { Alert, Button, Divider, Group, Modal, NumberInput, ScrollArea, SegmentedControl, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { formatCents } from '../../../shared/money.ts';
import { PRICE_REFERENCES, type PriceCondition, type Guardrails, type Watchlist, type WatchlistInput, watchlistInput } from '../../../shared/watchlist.ts';
import { call } from '../../bridge/index.ts';
import { CentsInput } from '../account/ui/CentsInput.tsx';
import { CopiesInput } from '../account/ui/CopiesInput.tsx';
import { useFocusReturnOnRemoval } from '../account/ui/hooks.ts';
import { type FilterDraft, FilterPanel } from '../market/filters/FilterPanel.tsx';
import { NAME_MAX, cleanFilter } from '../market/filters/filter-model.ts';
import { AlertWebhookField } from './AlertWebhookField.tsx';
import { describeWatchlistIssues, fieldLabel } from './watchlist-issues.ts';

const REFERENCE_LABELS: Record<(typeof PRICE_REFERENCES)[number], string> = {
  average_30d: '30-day average sale price',
  recommended: 'recommended price',
  cheapest_other: 'cheapest other listing of the item',
};

/** Guardrails a new confirm or auto watchlist starts with: small, so nothing big happens by surprise. */
export const STARTER_GUARDRAILS: Guardrails = {
  max_price: 5_000,
  total_budget: 20_000,
  daily_cap: 10_000,
  max_per_hour: 3,
  min_balance: 1_000,
};

type Mode = 'off' | 'confirm' | 'auto';

const CEILING_PATH = 'price.max_price';
const RAILS_PATH = 'auto_buy.guardrails';
const MIN_BALANCE_PATH = `${RAILS_PATH}.min_balance`;
const railPath = (key: keyof Guardrails) => `${RAILS_PATH}.${key}`;

/** What an emptied money field asks for: for the minimum balance, that $0.00 is how "none" is said. */
function emptyAmountWords(path: string): string {
  return path === MIN_BALANCE_PATH ? 'Type an amount ($0.00 for no minimum).' : 'Type an amount.';
}

export function WatchlistDialog({ watchlist, onClose, onSaved }: { watchlist: Watchlist | null; onClose(): void; onSaved(w: Watchlist): void }) {
  const [name, setName] = useState(watchlist?.name ?? '');
  const [filter, setFilter] = useState(watchlist?.filter ?? {});
  const [price, setPrice] = useState<PriceCondition>(watchlist?.price ?? { kind: 'below', reference: 'average_30d', percent: 10 });
  const [notify, setNotify] = useState(watchlist?.alerts.notify ?? true);
  const [sound, setSound] = useState(watchlist?.alerts.sound ?? false);
  const [webhook, setWebhook] = useState(watchlist?.alerts.webhook ?? '');
  const [mode, setMode] = useState<Mode>(watchlist?.auto_buy.mode ?? 'off');
  const [copies, setCopies] = useState<number | null>(watchlist && watchlist.auto_buy.mode !== 'off' ? watchlist.auto_buy.copies : 1);
  const [rails, setRails] = useState<Guardrails>(watchlist && watchlist.auto_buy.mode !== 'off' ? watchlist.auto_buy.guardrails : STARTER_GUARDRAILS);
  const [problem, setProblem] = useState<string | null>(null);
  // A new watchlist has no name yet: that is said beside Save, not as an alert the moment the dialog
  // opens. The field says it once its text was changed, as a key is pressed; never as the field is left,
  // where the line it adds pushed the form down between the press and the release of the click that
  // left it, and the click was lost.
  const [nameEdited, setNameEdited] = useState(watchlist !== null);
  /**
   * The filter the panel shows, at once, with what holds it back (a min above its max): the one it sends
   * (`filter`) lags a pause in typing behind it, and never comes with a problem.
   */
  const [shown, setShown] = useState<FilterDraft | null>(null);
  const filterProblems = shown?.problems ?? [];
  const [saving, setSaving] = useState(false);
  /**
   * The money fields whose text is not an amount or is empty, by schema path, with the words why. The draft
   * keeps their last readable figure, never sent: Save stays off until they read. Such a text once became
   * $0.00 in the draft, and for the minimum balance, where $0.00 is allowed, "1.000" saved "no minimum".
   */
  const [unreadable, setUnreadable] = useState<Readonly<Record<string, string>>>({});
  const noteAmount = (path: string, cents: number | null, problem: string | null) =>
    setUnreadable(({ [path]: _was, ...rest }) => (cents === null ? { ...rest, [path]: problem ?? emptyAmountWords(path) } : rest));
  // a field that goes away (auto-buy off, the other price condition) comes back with a readable figure
  const forgetUnreadable = (prefix: string) =>
    setUnreadable((u) => Object.fromEntries(Object.entries(u).filter(([path]) => !path.startsWith(prefix))));
  // shown by mounting it open, closed by removing it
  useFocusReturnOnRemoval(true);

  const draft: WatchlistInput = {
    name,
    filter: cleanFilter(shown?.filter ?? filter),
    price,
    paused: watchlist?.paused ?? false,
    alerts: { notify, sound, webhook: webhook.trim() === '' ? null : webhook.trim() },
    // an emptied Copies field is kept as 0: the form's check then asks for it
    auto_buy: mode === 'off' ? { mode: 'off' } : { mode, copies: copies ?? 0, guardrails: rails },
  };
  const checked = watchlistInput.safeParse(draft);
  const nameProblem = checked.success ? null : (describeWatchlistIssues(checked.error.issues.filter((i) => i.path[0] === 'name'))[0] ?? null);
  // an unreadable field is named for what its text is, not for the stale figure the draft still holds
  const otherIssues = checked.success
    ? []
    : describeWatchlistIssues(checked.error.issues.filter((i) => i.path[0] !== 'name' && unreadable[i.path.join('.')] === undefined));
  const unreadableIssues = Object.entries(unreadable).map(([path, words]) => `${fieldLabel(path)}: ${words}`);
  const issues = [...filterProblems.map((p) => `Filter: ${p}`), ...unreadableIssues, ...otherIssues];
  const ready = checked.success && filterProblems.length === 0 && unreadableIssues.length === 0;
  /** A guardrail's amount in words, or a mark while its field does not read (its stale figure is not what was typed). */
  const railAmount = (key: keyof Guardrails) => (unreadable[railPath(key)] === undefined ? formatCents(rails[key]) : '…');

  const save = async () => {
    if (!ready) return;
    setSaving(true);
    setProblem(null);
    try {
      const saved = watchlist
        ? await call('updateWatchlist', { id: watchlist.id, watchlist: draft })
        : await call('createWatchlist', {
            filter: draft.filter,
            name: draft.name,
            price: draft.price,
            watchlist: { alerts: draft.alerts, auto_buy: draft.auto_buy },
          });
      onSaved(saved);
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setSaving(false);
    }
  };

  // $0.00 is shown as such: no minimum balance is a figure typed, never an empty field
  const rail = (key: keyof Guardrails, label: string, cents: boolean, hint: string) =>
    cents ? (
      <CentsInput
        label={label}
        description={hint}
        cents={unreadable[railPath(key)] === undefined ? rails[key] : null}
        onCents={(c, problem) => {
          if (c !== null) setRails((r) => ({ ...r, [key]: c }));
          noteAmount(railPath(key), c, problem);
        }}
        error={unreadable[railPath(key)]}
        data-testid={`rail-${key}`}
      />
    ) : (
      <NumberInput label={label} description={hint} min={1} max={1_000} value={rails[key]} onChange={(v) => setRails((r) => ({ ...r, [key]: Number(v) || 0 }))} data-testid={`rail-${key}`} />
    );

  return (
    <Modal opened onClose={onClose} title={watchlist ? `Edit “${watchlist.name}”` : 'New watchlist'} size="xl" data-testid="watchlist-dialog">
      <Group align="flex-start" gap="md" wrap="nowrap">
        <Stack gap={6} w={260} style={{ flex: 'none' }}>
          {/* the name is the book's search box, outside its filter panel: here it needs a field of its own */}
          <TextInput
            label="Item name contains"
            placeholder="any item"
            maxLength={NAME_MAX}
            value={(shown?.filter ?? filter).name ?? ''}
            onChange={(e) => {
              const text = e.currentTarget.value;
              setFilter(({ name: _previous, ...rest }) => (text.trim() === '' ? rest : { ...rest, name: text }));
            }}
            data-testid="watchlist-item-name"
          />
          <ScrollArea h={464} style={{ border: '1px solid var(--sd-border)', borderRadius: 4 }}>
            <FilterPanel filter={filter} onChange={setFilter} onDraft={setShown} />
          </ScrollArea>
        </Stack>
        <Stack gap="sm" style={{ flex: 1 }}>
          <TextInput
            label="Name"
            placeholder="e.g. AK-47 Redline under 0.16"
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameEdited(true);
            }}
            error={nameEdited ? nameProblem : null}
            data-autofocus={watchlist === null || undefined}
            data-testid="watchlist-name"
          />
          <div>
            <Text size="sm" fw={500} mb={4}>
              Price
            </Text>
            <SegmentedControl
              size="xs"
              value={price.kind}
              onChange={(kind) => {
                setPrice(kind === 'ceiling' ? { kind: 'ceiling', max_price: 1_000 } : { kind: 'below', reference: 'average_30d', percent: 10 });
                forgetUnreadable(CEILING_PATH);
              }}
              data={[
                { value: 'ceiling', label: 'At most' },
                { value: 'below', label: '% below a reference' },
              ]}
            />
            <Group gap="xs" mt={6} align="flex-end">
              {price.kind === 'ceiling' ? (
                <CentsInput
                  label="Highest price per copy"
                  cents={unreadable[CEILING_PATH] === undefined ? price.max_price : null}
                  onCents={(c, problem) => {
                    if (c !== null) setPrice({ kind: 'ceiling', max_price: c });
                    noteAmount(CEILING_PATH, c, problem);
                  }}
                  error={unreadable[CEILING_PATH]}
                  w={180}
                  data-testid="price-ceiling"
                />
              ) : (
                <>
                  <NumberInput
                    label="Percent below"
                    suffix=" %"
                    decimalScale={2}
                    min={0.01}
                    max={99.99}
                    // kept as typed: 150 quietly becoming 99.99 on leaving the field would watch for a price the
                    // trader never asked for; the form's check says what is wrong and keeps Save off instead
                    clampBehavior="none"
                    value={price.percent} onChange={(v) => setPrice({ ...price, percent: Number(v) || 0 })} w={130} />
                  <Select
                    label="Reference"
                    value={price.reference}
                    onChange={(v) => v && setPrice({ ...price, reference: v as (typeof PRICE_REFERENCES)[number] })}
                    data={PRICE_REFERENCES.map((r) => ({ value: r, label: REFERENCE_LABELS[r] }))}
                    w={260}
                    allowDeselect={false}
                  />
                </>
              )}
            </Group>
          </div>
          <Group gap="lg">
            <Switch label="OS notification" checked={notify} onChange={(e) => setNotify(e.currentTarget.checked)} />
            <Switch label="Sound" checked={sound} onChange={(e) => setSound(e.currentTarget.checked)} />
          </Group>
          <AlertWebhookField value={webhook} onChange={setWebhook} />
          <Divider label="Auto-buy" labelPosition="left" />
          <SegmentedControl
            value={mode}
            onChange={(m) => {
              setMode(m as Mode);
              if (m === 'off') forgetUnreadable(RAILS_PATH);
            }}
            data={[
              { value: 'off', label: 'Off (alerts only)' },
              { value: 'confirm', label: 'Confirm first (one key)' },
              { value: 'auto', label: 'Automatic' },
            ]}
            data-testid="autobuy-mode"
          />
          {mode !== 'off' && (
            <>
              <Text size="xs" c="dimmed">
                Checked before anything is sent; the purchase pays at most the price seen in the alert. Nothing is bought while the book is resyncing or offline, nor while the kill switch is engaged.
              </Text>
              <Group grow align="flex-start">
                {rail('max_price', 'Max price per item', true, 'never pays more per copy')}
                {rail('total_budget', 'Total budget', true, 'spent by this watchlist, ever')}
                {rail('daily_cap', 'Daily cap', true, 'in any 24 hours')}
              </Group>
              <Group grow align="flex-start">
                {rail('max_per_hour', 'Purchases per hour', false, 'at most, in any hour')}
                {rail('min_balance', 'Minimum balance left', true, 'after the purchase')}
                <CopiesInput label="Copies" description="of a commodity listing" min={1} max={1_000} copies={copies} onCopies={setCopies} data-testid="autobuy-copies" />
              </Group>
              {mode === 'auto' && (
                <Alert color="yellow" variant="light" py={6}>
                  <Text size="xs">
                    Automatic: every new match is bought at once, up to {railAmount('max_price')} per copy and {railAmount('daily_cap')} a day.
                  </Text>
                </Alert>
              )}
            </>
          )}
          {issues.length > 0 && (
            <Alert color="orange" variant="light" py={6} data-testid="watchlist-issues">
              {issues.map((i) => (
                <Text key={i} size="xs">
                  {i}
                </Text>
              ))}
            </Alert>
          )}
          {problem && (
            <Alert color="red" variant="light" py={6}>
              <Text size="xs">{problem}</Text>
            </Alert>
          )}
          <Group justify="flex-end">
            {nameProblem !== null && !nameEdited && (
              <Text size="xs" c="dimmed" data-testid="watchlist-unnamed">
                Name the watchlist to save it.
              </Text>
            )}
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => void save()} disabled={!ready} loading={saving} data-testid="watchlist-save">
              Save
            </Button>
          </Group>
        </Stack>
      </Group>
    </Modal>
  );
}
