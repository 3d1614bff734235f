/**
 * Every filter of the query engine, grouped the way a trader narrows a search: game and price, float
 * (with the wear presets), pattern (seed, paint index, fade, blue, StatTrak/souvenir), stickers,
 * keychains, and the per-game item fields. Typed edits apply after a short pause; a click (a wear or
 * phase button, a switch, a list's choice, a seed tag) applies at once. A range whose min is above its max
 * is shown and not sent.
 */
import {
  Accordion,
  ActionIcon,
  Button,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { PhaseButtons, WearBandButtons } from './wear-phase-buttons.tsx';
import { boundedSeedPills } from './seed-pills.tsx';
import { type PendingEdits, usePendingEdit } from './pending-edits.ts';
import { APP_IDS, type AppId } from '../../../../shared/api/index.ts';
import { gameShort } from '../../account/ui/format.ts';
import { formatDecimal } from '../../../format/numbers.ts';
import { MAX_ACCOUNT_CENTS } from '../../../../shared/ipc/calls-account.ts';
import { parseCents } from '../../../../shared/money.ts';
import type { BookFilter, GameStringField } from '../../../../shared/query.ts';
import {
  FIELD_LABELS,
  NAME_MAX,
  type Range,
  type RangeField,
  addSeeds,
  cleanFilter,
  fieldsOfGame,
  keychainPatternTooLarge,
  rangeProblems,
  sayRangeProblem,
  withOutsideChanges,
} from './filter-model.ts';

/** The pause after a key typed into a field: the book is not queried for every digit of "0.0712". */
const APPLY_AFTER_MS = 250;

/**
 * How a change is applied. Immediate: a discrete choice, whole once made (a button, a switch, a select):
 * nothing more is coming, and the pause only made each click take 300–600 ms to reach the grid.
 */
interface ApplyTiming {
  immediate?: boolean;
}
const AT_ONCE: ApplyTiming = { immediate: true };

// the games by the short names the sales tape and the account screens give them ("Dota 2")
const GAMES: { label: string; value: string; app?: AppId }[] = [
  { label: 'All', value: 'all' },
  ...APP_IDS.map((app) => ({ label: gameShort(app), value: String(app), app })),
];

const PREFIX: Record<AppId, 'cs' | 'rust' | 'dota' | 'tf2'> = { 730: 'cs', 252490: 'rust', 570: 'dota', 440: 'tf2' };

type Tri = 'any' | 'yes' | 'no';
const toTri = (v: boolean | undefined): Tri => (v === undefined ? 'any' : v ? 'yes' : 'no');
const fromTri = (v: string): boolean | undefined => (v === 'any' ? undefined : v === 'yes');

const num = (v: string | number): number | undefined => {
  if (v === '' || v === null) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/**
 * Dollars typed → integer cents, exactly (string arithmetic, see shared/money.ts). "12." is 12 while the
 * cents are still to be typed: read as nothing, it would empty the field and "12.50" would end as "50".
 * The price fields stop at the ceiling of the app's money calls ($100,000,000.00; the query takes any
 * whole cents, but nothing is listed above it through the app), as the account's price fields do: a key
 * that would pass it is refused as it is typed. Read as nothing, an 11th digit would empty the field
 * and 99999999999999 would end as 999.
 */
const cents = (v: string | number): number | undefined => {
  if (v === '') return undefined;
  const parsed = parseCents(String(v).replace(/^(\d+)\.$/, '$1'));
  return parsed === null ? undefined : Math.min(parsed, MAX_ACCOUNT_CENTS);
};

function RangeInputs(props: {
  label: string;
  range: Range | undefined;
  onChange(range: Range | undefined): void;
  scale?: number;
  /** Decimals a bound takes; none given: as many as are typed (a float, see the float range below). */
  decimals?: number;
  min: number;
  max?: number;
  step?: number;
  suffix?: string;
  prefix?: string;
  toValue?: (v: string | number) => number | undefined;
  /** "strict": a key that would go past max is refused as it is typed (default: clamped when the field is left). */
  clamp?: 'strict';
  /** What keeps this range from being sent, said under its own inputs. */
  problems: readonly string[];
}) {
  const { range, scale = 1 } = props;
  const read = props.toValue ?? num;
  // What was typed in each input, shown as typed while it still reads as the range's bound: shown from
  // the number instead, "0.0000005" came back as 5e-7 and "0.10" as 0.1 under the trader's keys. A bound
  // set from outside (a wear preset, a reset) reads differently and is shown in plain decimals.
  const [typed, setTyped] = useState<Record<'min' | 'max', string>>({ min: '', max: '' });
  const show = (side: 'min' | 'max') => {
    const n = range?.[side];
    if (read(typed[side]) === n) return typed[side];
    return n === undefined ? '' : formatDecimal(n / scale);
  };
  return (
    <div>
      <Group gap={6} wrap="nowrap" align="flex-end">
        {(['min', 'max'] as const).map((side) => (
          <NumberInput
            key={side}
            aria-label={`${side === 'min' ? 'Min' : 'Max'} ${props.label.toLowerCase()}`}
            placeholder={side === 'min' ? 'min' : 'max'}
            value={show(side)}
            onChange={(v) => props.onChange({ ...range, [side]: read(v) })}
            onValueChange={({ value }) => setTyped((t) => ({ ...t, [side]: value }))}
            decimalScale={props.decimals}
            min={props.min}
            max={props.max}
            clampBehavior={props.clamp}
            step={props.step}
            suffix={props.suffix}
            prefix={props.prefix}
            allowNegative={false}
            classNames={{ input: 'sd-num' }}
            style={{ flex: 1 }}
          />
        ))}
      </Group>
      <ProblemLine problems={props.problems} />
    </div>
  );
}

/**
 * Under the field it is about: said at the top of the panel, the line was out of sight for a field
 * scrolled to (the sticker count), and its arrival pushed the field being typed in down a line.
 */
function ProblemLine({ problems }: { problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return (
    <Text size="xs" c="red.5" mt={2} data-testid="filter-problems">
      {problems.join(' · ')}
    </Text>
  );
}

function Label({ children }: { children: React.ReactNode }) {
  return (
    <Text size="xs" c="dimmed" mb={2}>
      {children}
    </Text>
  );
}

export interface FilterPanelProps {
  filter: BookFilter;
  onChange(filter: BookFilter): void;
  /**
   * The filter the panel shows, cleaned, and what keeps it from being sent (the problems shown, [] when
   * none), as they change: onChange comes after a pause in typing (at once after a click) and never with
   * a problem, so a form that saves the filter (a watchlist) saves this one, or nothing while it has
   * problems.
   */
  onDraft?(draft: FilterDraft): void;
  /** Where the panel keeps an edit still in its pause, for the book to send as the window closes. */
  pendingEdits?: PendingEdits;
}

export interface FilterDraft {
  filter: BookFilter;
  problems: string[];
}

export function FilterPanel({ filter, onChange, onDraft, pendingEdits }: FilterPanelProps) {
  // the draft, and whether its last change was a click: sent without the typing pause (see ApplyTiming)
  const [edit, setEdit] = useState<{ draft: BookFilter; immediate: boolean }>({ draft: filter, immediate: false });
  const draft = edit.draft;
  const sent = useRef(JSON.stringify(cleanFilter(filter)));
  // a filter set from outside (a preset, a reset, the name box) replaces what it changed in the draft
  useEffect(() => {
    const incoming = cleanFilter(filter);
    const text = JSON.stringify(incoming);
    if (text !== sent.current) {
      const agreed = JSON.parse(sent.current) as BookFilter;
      sent.current = text;
      setEdit((e) => ({ ...e, draft: withOutsideChanges(e.draft, agreed, incoming) }));
    }
  }, [filter]);
  const problems = rangeProblems(draft);
  /** The problems of one field, said under its inputs. */
  const problemsOf = (field: RangeField) => problems.filter((p) => p.field === field).map(sayRangeProblem);
  // told by value: a new object every render would tell the form on every render
  const shownText = JSON.stringify({ filter: cleanFilter(draft), problems: problems.map(sayRangeProblem) });
  useEffect(() => {
    onDraft?.(JSON.parse(shownText) as FilterDraft);
  }, [shownText, onDraft]);
  const sendDraft = useRef<() => void>(() => undefined);
  useEffect(() => {
    if (problems.length > 0) {
      sendDraft.current = () => undefined;
      return;
    }
    const send = () => {
      const clean = cleanFilter(edit.draft);
      const text = JSON.stringify(clean);
      if (text === sent.current) return;
      sent.current = text;
      onChange(clean);
    };
    sendDraft.current = send;
    if (edit.immediate) {
      send();
      return;
    }
    const timer = setTimeout(send, APPLY_AFTER_MS);
    return () => clearTimeout(timer);
  }, [edit, onChange, problems.length]);
  // An edit still in its pause when the panel goes (another screen, the panel hidden) is sent, not
  // dropped with its timer. A layout cleanup: it runs before the book's own unmount save (passive effects,
  // parents first), so that save has it.
  useLayoutEffect(() => () => sendDraft.current(), []);
  usePendingEdit(pendingEdits, sendDraft);

  const update = (change: (d: BookFilter) => BookFilter, timing?: ApplyTiming) =>
    setEdit((e) => ({ draft: change(e.draft), immediate: timing?.immediate === true }));
  const set = (patch: Partial<BookFilter>, timing?: ApplyTiming) => update((d) => ({ ...d, ...patch }), timing);

  // Paint seeds: what is typed into the tags field (not yet a tag), and what the last entry left out
  const [seedText, setSeedText] = useState('');
  const [seedNote, setSeedNote] = useState<string | null>(null);
  const seedsAdded = (current: readonly number[], text: string) => {
    const { seeds, note } = addSeeds(current, text);
    setSeedNote(note);
    // a tag is whole once entered (Enter, a comma, a paste): the text still being typed is not sent
    set({ paint_seeds: seeds }, AT_ONCE);
  };
  // by sets: with a thousand seeds, matching each tag against each seed was a million comparisons
  const onSeedTags = (tags: string[]) => {
    const current = draft.paint_seeds ?? [];
    const tagged = new Set(tags);
    const had = new Set(current.map(String));
    const kept = current.filter((seed) => tagged.has(String(seed)));
    const added = tags.filter((tag) => !had.has(tag));
    if (added.length === 0) {
      setSeedNote(null);
      set({ paint_seeds: kept }, AT_ONCE);
    } else {
      seedsAdded(kept, added.join(' '));
    }
  };
  const onSeedPaste = (event: React.ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    event.stopPropagation();
    seedsAdded(draft.paint_seeds ?? [], `${seedText} ${event.clipboardData.getData('text/plain')}`);
    setSeedText('');
  };
  const clearSeeds = () => {
    setSeedNote(null);
    set({ paint_seeds: [] }, AT_ONCE);
  };
  const seedTags = (draft.paint_seeds ?? []).map(String);
  const game = draft.app_id;
  const cs = game === undefined || game === 730;
  const stickerRows = draft.stickers?.all ?? [];
  const keychainRows = draft.keychains ?? [];

  const setGame = (value: string) => {
    const app = GAMES.find((g) => g.value === value)?.app;
    update((d) => {
      const next: BookFilter = { ...d, app_id: app };
      if (app !== undefined && app !== 730) {
        // CS-only filters would make every other game's book empty
        for (const key of ['float', 'paint_seeds', 'paint_index', 'phases', 'fade', 'blue', 'stattrak', 'souvenir', 'stickers', 'keychains'] as const) delete next[key];
      }
      if (app !== undefined && next.fields) {
        next.fields = Object.fromEntries(Object.entries(next.fields).filter(([k]) => k.startsWith(`${PREFIX[app]}_`)));
      }
      return next;
    }, AT_ONCE);
  };

  const setField = (field: GameStringField, value: string) => set({ fields: { ...draft.fields, [field]: value } });
  const fieldPrefixes = game === undefined ? (['cs', 'rust', 'dota', 'tf2'] as const) : ([PREFIX[game]] as const);

  return (
    <Stack gap={0} data-testid="filter-panel">
      <Stack gap={6} px="sm" py="xs">
        <SegmentedControl
          fullWidth
          value={game === undefined ? 'all' : String(game)}
          onChange={setGame}
          data={GAMES.map((g) => ({ label: g.label, value: g.value }))}
          aria-label="Game"
        />
        <div>
          <Label>Price ($)</Label>
          <RangeInputs label="Price" range={draft.price} onChange={(price) => set({ price })} scale={100} decimals={2} min={0} max={MAX_ACCOUNT_CENTS / 100} clamp="strict" toValue={cents} problems={problemsOf('Price')} />
        </div>
      </Stack>
      <Accordion multiple defaultValue={['float', 'stickers']} chevronPosition="left" variant="default" styles={{ control: { paddingBlock: 2 }, content: { paddingBlock: 4 }, label: { paddingBlock: 6, fontSize: 12 } }}>
        {cs && (
          <Accordion.Item value="float">
            <Accordion.Control>Float</Accordion.Control>
            <Accordion.Panel>
              <Stack gap={6}>
                <WearBandButtons float={draft.float} onChange={(float) => set({ float }, AT_ONCE)} />
                {/* every decimal typed, as the query and `skindesk search --float-max` take a float: a
                    hunt below 0.0000005 needs more than the grid's 6 (the detail shows 10) */}
                <RangeInputs label="Float" range={draft.float} onChange={(float) => set({ float })} min={0} max={1} step={0.01} problems={problemsOf('Float')} />
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        )}
        {cs && (
          <Accordion.Item value="pattern">
            <Accordion.Control>Pattern, fade, blue</Accordion.Control>
            <Accordion.Panel>
              <Stack gap={6}>
                <TagsInput
                  label="Paint seeds"
                  aria-label="Paint seeds"
                  placeholder="e.g. 661, 555 — Enter after each"
                  value={seedTags}
                  onChange={onSeedTags}
                  renderPill={boundedSeedPills(seedTags, clearSeeds)}
                  searchValue={seedText}
                  onSearchChange={(text) => {
                    setSeedText(text);
                    // the note is about the last entry: a new one being typed takes its place
                    if (text !== '') setSeedNote(null);
                  }}
                  // a paste is read here, whole: a column of seeds (new lines between them) splits, and
                  // thousands of seeds are counted at once rather than matched one by one as tags
                  onPasteCapture={onSeedPaste}
                  error={seedNote}
                  splitChars={[',', ' ', ';']}
                  clearable
                />
                <NumberInput
                  label="Paint index"
                  aria-label="Paint index"
                  placeholder="any"
                  value={draft.paint_index ?? ''}
                  onChange={(v) => set({ paint_index: num(v) })}
                  allowDecimal={false}
                  allowNegative={false}
                  error={problemsOf('Paint index').join(' · ') || undefined}
                />
                <div>
                  <Label>Doppler phase</Label>
                  <PhaseButtons phases={draft.phases} onChange={(phases) => set({ phases }, AT_ONCE)} />
                </div>
                <div>
                  <Label>Fade %</Label>
                  <RangeInputs label="Fade" range={draft.fade} onChange={(fade) => set({ fade })} decimals={1} min={0} max={100} suffix="%" problems={problemsOf('Fade')} />
                </div>
                <div>
                  <Label>Blue %</Label>
                  <RangeInputs label="Blue" range={draft.blue} onChange={(blue) => set({ blue })} decimals={1} min={0} max={100} suffix="%" problems={problemsOf('Blue')} />
                </div>
                <Group grow gap={6}>
                  <div>
                    <Label>StatTrak</Label>
                    <SegmentedControl fullWidth value={toTri(draft.stattrak)} onChange={(v) => set({ stattrak: fromTri(v) }, AT_ONCE)} data={['any', 'yes', 'no']} aria-label="StatTrak" />
                  </div>
                  <div>
                    <Label>Souvenir</Label>
                    <SegmentedControl fullWidth value={toTri(draft.souvenir)} onChange={(v) => set({ souvenir: fromTri(v) }, AT_ONCE)} data={['any', 'yes', 'no']} aria-label="Souvenir" />
                  </div>
                </Group>
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        )}
        {cs && (
          <Accordion.Item value="stickers">
            <Accordion.Control>Stickers</Accordion.Control>
            <Accordion.Panel>
              <Stack gap={6}>
                {stickerRows.map((s, i) => (
                  <Stack key={i} gap={4} p={6} style={{ border: '1px solid var(--sd-border)', borderRadius: 4 }}>
                    <Group gap={4} wrap="nowrap">
                      <TextInput
                        aria-label={`Sticker name ${i + 1}`}
                        placeholder="sticker name contains…"
                        maxLength={NAME_MAX}
                        value={s.name ?? ''}
                        onChange={(e) => set({ stickers: { ...draft.stickers, all: stickerRows.map((x, j) => (j === i ? { ...x, name: e.currentTarget.value } : x)) } })}
                        style={{ flex: 1 }}
                      />
                      <Tooltip label="How many of the item's stickers must match: 4× for a craft of four">
                        <Select
                          aria-label={`Sticker matches ${i + 1}`}
                          value={String(s.min_matches ?? 1)}
                          onChange={(v) => set({ stickers: { ...draft.stickers, all: stickerRows.map((x, j) => (j === i ? { ...x, min_matches: v === null || v === '1' ? undefined : Number(v) } : x)) } }, AT_ONCE)}
                          data={[1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: n === 1 || n === 5 ? `×${n}` : `×${n}+` }))}
                          allowDeselect={false}
                          w={66}
                          style={{ flex: 'none' }}
                        />
                      </Tooltip>
                      <ActionIcon aria-label={`Remove sticker filter ${i + 1}`} onClick={() => set({ stickers: { ...draft.stickers, all: stickerRows.filter((_, j) => j !== i) } }, AT_ONCE)}>
                        <IconX size={14} />
                      </ActionIcon>
                    </Group>
                    <Group gap={4} grow wrap="nowrap">
                      <Select
                        aria-label={`Sticker slot ${i + 1}`}
                        placeholder="any slot"
                        value={s.slot === undefined ? null : String(s.slot)}
                        onChange={(v) => set({ stickers: { ...draft.stickers, all: stickerRows.map((x, j) => (j === i ? { ...x, slot: v === null ? undefined : Number(v) } : x)) } }, AT_ONCE)}
                        data={[0, 1, 2, 3, 4].map((n) => ({ value: String(n), label: `slot ${n + 1}` }))}
                        clearable
                      />
                      <NumberInput
                        aria-label={`Sticker max scrape ${i + 1}`}
                        placeholder="max scrape"
                        suffix="%"
                        min={0}
                        max={100}
                        decimalScale={0}
                        value={s.max_wear === undefined ? '' : Math.round(s.max_wear * 100)}
                        onChange={(v) => {
                          const pct = num(v);
                          set({ stickers: { ...draft.stickers, all: stickerRows.map((x, j) => (j === i ? { ...x, max_wear: pct === undefined ? undefined : Math.min(100, pct) / 100 } : x)) } });
                        }}
                      />
                    </Group>
                  </Stack>
                ))}
                <Button
                  variant="subtle"
                  leftSection={<IconPlus size={12} />}
                  disabled={stickerRows.length >= 5}
                  onClick={() => set({ stickers: { ...draft.stickers, all: [...stickerRows, {}] } }, AT_ONCE)}
                  data-testid="add-sticker-filter"
                  w="fit-content"
                >
                  Sticker filter
                </Button>
                <div>
                  <Label>Number of stickers</Label>
                  <RangeInputs
                    label="Sticker count"
                    range={{ min: draft.stickers?.min_count, max: draft.stickers?.max_count }}
                    onChange={(r) => set({ stickers: { ...draft.stickers, min_count: r?.min, max_count: r?.max } })}
                    decimals={0}
                    min={0}
                    max={6}
                    problems={problemsOf('Sticker count')}
                  />
                </div>
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        )}
        {cs && (
          <Accordion.Item value="keychains">
            <Accordion.Control>Keychains</Accordion.Control>
            <Accordion.Panel>
              <Stack gap={6}>
                {keychainRows.map((k, i) => (
                  <Group key={i} gap={4} wrap="nowrap">
                    <TextInput
                      aria-label={`Keychain name ${i + 1}`}
                      placeholder="charm name contains…"
                      maxLength={NAME_MAX}
                      value={k.name ?? ''}
                      onChange={(e) => set({ keychains: keychainRows.map((x, j) => (j === i ? { ...x, name: e.currentTarget.value } : x)) })}
                      style={{ flex: 1 }}
                    />
                    <NumberInput
                      aria-label={`Keychain pattern ${i + 1}`}
                      placeholder="pattern"
                      w={76}
                      allowDecimal={false}
                      allowNegative={false}
                      value={k.pattern ?? ''}
                      onChange={(v) => set({ keychains: keychainRows.map((x, j) => (j === i ? { ...x, pattern: num(v) } : x)) })}
                      // said under this keychain's own field (its problem keeps the filter from being sent)
                      error={keychainPatternTooLarge(k) ? problemsOf('Keychain pattern').join(' · ') : undefined}
                    />
                    <ActionIcon aria-label={`Remove keychain filter ${i + 1}`} onClick={() => set({ keychains: keychainRows.filter((_, j) => j !== i) }, AT_ONCE)}>
                      <IconX size={14} />
                    </ActionIcon>
                  </Group>
                ))}
                <Button variant="subtle" leftSection={<IconPlus size={12} />} disabled={keychainRows.length >= 2} onClick={() => set({ keychains: [...keychainRows, {}] }, AT_ONCE)} w="fit-content">
                  Keychain
                </Button>
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        )}
        <Accordion.Item value="fields">
          <Accordion.Control>Item fields</Accordion.Control>
          <Accordion.Panel>
            <Stack gap={6}>
              <div>
                <Label>Commodity</Label>
                <SegmentedControl fullWidth value={toTri(draft.commodity)} onChange={(v) => set({ commodity: fromTri(v) }, AT_ONCE)} data={['any', 'yes', 'no']} aria-label="Commodity" />
              </div>
              {/* the engine compares a field whole, in any case (shared/query.ts sameFieldValue) */}
              <Text size="xs" c="dimmed" data-testid="fields-help">
                Each field matches the whole value, in any case: “arcana” finds Arcana, “arc” does not.
              </Text>
              {fieldPrefixes.map((prefix) => (
                <Stack key={prefix} gap={4}>
                  {game === undefined && (
                    <Text size="xs" c="dimmed" tt="uppercase">
                      {prefix === 'cs' ? 'CS2' : prefix}
                    </Text>
                  )}
                  {fieldsOfGame(prefix).map((field) => (
                    <TextInput
                      key={field}
                      aria-label={`${prefix} ${FIELD_LABELS[field]}`}
                      placeholder={`${FIELD_LABELS[field]} (any case)`}
                      maxLength={NAME_MAX}
                      value={draft.fields?.[field] ?? ''}
                      onChange={(e) => setField(field, e.currentTarget.value)}
                    />
                  ))}
                </Stack>
              ))}
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </Stack>
  );
}
