/**
 * The item detail beside the grid: what the listing is (every field of its game), where its float sits
 * in the wear bands, its stickers and keychains with their scrape, what it is worth (market and
 * recommended price, lowest listing, 30-day average) and what this item sold for lately.
 */
import { Alert, Badge, Button, CloseButton, Group, Loader, ScrollArea, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconEye, IconShoppingCartPlus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import type { AppId, FullListing, Sticker } from '../../../../shared/api/index.ts';
import { GAME_PREFIX } from '../../../../shared/api/index.ts';
import type { BookRow } from '../../../../shared/ipc/index.ts';
import type { PriceContext } from '../../../../shared/ipc/calls-market.ts';
import { phaseOfPaintIndex, phaseTag } from '../../../../shared/phases.ts';
import { scrapePercent, wearBandOf } from '../../../../shared/wear.ts';
import { call, useCall, usePush } from '../../../bridge/index.ts';
import { formatAge, formatCents, formatCount, formatDelta, formatFloat, formatPercent, plural, formatWait } from '../../../format/numbers.ts';
import { useTradingState } from '../../../shell/app-state.ts';
import { Keys } from '../../../shell/HelpOverlay.tsx';
import { formatDateTime, gameShort } from '../../account/ui/format.ts';
import { useNow } from '../../account/ui/hooks.ts';
import { showItemSales } from '../../sales/tape-filter.ts';
import { ItemImage } from '../parts/item-image.tsx';
import { PHASE_COLORS } from '../parts/phase.tsx';
import { FloatBar } from '../parts/wear.tsx';
import { PriceChart } from './PriceChart.tsx';

export interface DetailPanelProps {
  /** The grid's row: shown at once while the full listing loads. */
  row: BookRow;
  onClose(): void;
  onBuy(row: BookRow): void;
  onAddToCart(row: BookRow): void;
}

function Section({ title, children, right }: { title: string; children: React.ReactNode; right?: React.ReactNode }) {
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: '0.05em' }}>
          {title}
        </Text>
        {right}
      </Group>
      {children}
    </Stack>
  );
}

function Kv({ items }: { items: [string, React.ReactNode][] }) {
  return (
    <dl className="sd-kv">
      {items.map(([k, v]) => (
        <div key={k} style={{ display: 'contents' }}>
          <dt>{k}</dt>
          <dd className="sd-num">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The stickers' worth at their market prices, and "SP": what the listing asks above the item's own market
 * price as a share of that worth — how much of the stickers the seller wants paid (negative: below market).
 */
function StickerWorth({ context, price, count }: { context: PriceContext | undefined; price: number; count: number }) {
  const priced = context?.stickers.filter((s) => s.market_price !== null) ?? [];
  if (priced.length === 0) return null;
  const value = priced.reduce((sum, s) => sum + (s.market_price ?? 0), 0);
  const market = context?.market_price ?? null;
  const sp = market !== null && value > 0 ? Math.round(((price - market) / value) * 100) : null;
  const coverage = priced.length < count ? ` (${priced.length} of ${count} priced)` : '';
  return (
    <Tooltip
      multiline
      w={300}
      label={`The stickers at their market prices, scrape not counted: ${formatCents(value)}${coverage}. SP: what this listing asks above the item's market price, as a share of that value.`}
    >
      <Text size="xs" c="dimmed" className="sd-num" data-testid="sticker-worth">
        {formatCents(value)}
        {coverage}
        {sp !== null && (
          <Text span size="xs" c={sp <= 10 ? 'teal' : 'dimmed'}>
            {/* no space before the % sign: the shared formatters and the book write "+3.4%", "fade 80%" */}
            {` · SP ${sp < 0 ? `−${-sp}` : sp}%`}
          </Text>
        )}
      </Text>
    </Tooltip>
  );
}

function Attachments({ title, items, kind, right }: { title: string; items: Sticker[]; kind: 'sticker' | 'keychain'; right?: React.ReactNode }) {
  if (items.length === 0) return null;
  return (
    <Section title={title} right={right}>
      <Stack gap={4} data-testid={`detail-${kind}s`}>
        {[...items]
          .sort((a, b) => a.slot - b.slot)
          .map((s) => (
            <Group key={`${s.slot}-${s.sticker_id}`} gap={8} wrap="nowrap" data-testid={`detail-${kind}`} data-slot={s.slot}>
              <ItemImage src={s.image} alt={s.name} size={36} testId={`${kind}-image`} />
              <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
                <Text size="sm" truncate="end" title={s.name}>
                  {s.name}
                </Text>
                <Text size="xs" c="dimmed" className="sd-num">
                  slot {s.slot + 1}
                  {kind === 'sticker' ? ` · scrape ${scrapePercent(s.wear)}` : s.pattern === null ? '' : ` · pattern ${s.pattern}`}
                </Text>
              </Stack>
              {kind === 'sticker' && (
                <div title={`scraped ${scrapePercent(s.wear)}`} style={{ width: 40, height: 4, borderRadius: 2, background: 'var(--sd-border)', overflow: 'hidden' }}>
                  <div style={{ width: `${100 - Math.round((s.wear ?? 0) * 100)}%`, height: '100%', background: 'var(--mantine-color-yellow-5)' }} />
                </div>
              )}
            </Group>
          ))}
      </Stack>
    </Section>
  );
}

const FIELD_NAMES: Record<string, string> = {
  steam_asset_id: 'Asset id',
  trade_locked_until: 'Trade lock until',
  cs_is_stattrak: 'StatTrak',
  cs_is_souvenir: 'Souvenir',
  cs_is_highlight: 'Highlight',
  cs_paint_wear: 'Float',
  cs_paint_seed: 'Paint seed',
  cs_paint_index: 'Paint index',
  cs_fade_percentage: 'Fade',
  cs_blue_percentage: 'Blue',
  tf2_classes: 'Classes',
  tf2_spells: 'Spells',
  tf2_attributes: 'Attributes',
};

const SKIPPED = new Set(['cs_stickers', 'cs_keychains', 'cs_inspect_link', 'tf2_inspect_link', 'tf2_wiki_link', 'icon_url']);

/** Every non-empty field of the listing's game (and the general ones), in the spec's order. */
export function gameFields(listing: FullListing): [string, string][] {
  const prefix = GAME_PREFIX[listing.app_id as AppId];
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(listing)) {
    // an empty list (a TF2 item without spells) is an empty field too: shown, it was a label with nothing beside it
    if (SKIPPED.has(key) || value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    const general = key === 'steam_asset_id' || key === 'trade_locked_until';
    if (!general && !key.startsWith(`${prefix}_`)) continue;
    const label = FIELD_NAMES[key] ?? key.replace(/^(cs|rust|dota|tf2)_/, '').replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
    let text: string;
    if (typeof value === 'boolean') text = value ? 'yes' : 'no';
    else if (Array.isArray(value)) text = value.join(', ');
    else if (typeof value === 'object')
      text = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v === true)
        .map(([k]) => k.replace(/_/g, ' '))
        .join(', ') || '–';
    else if (key === 'cs_paint_wear') text = formatFloat(value as number, 10);
    else if (key === 'cs_fade_percentage' || key === 'cs_blue_percentage') text = formatPercent(value as number);
    // the app's one date format, not the system locale's ("11/24/2026, 8:30:00 AM" on an American system)
    else if (key === 'trade_locked_until') text = formatDateTime(value as string);
    else if (key === 'cs_paint_index') text = [String(value), phaseOfPaintIndex(value as number)].filter(Boolean).join(' · ');
    else text = String(value);
    out.push([label, text]);
  }
  return out;
}

/** A Doppler's own phase: prices per name mix a Ruby with a Phase 3, these rows do not. */
function phaseRows(phase: PriceContext['phase'], money: (c: number | null) => string, vs: (base: number | null) => ReactNode): [string, ReactNode][] {
  if (phase === null) return [];
  const tag = phaseTag(phase.name);
  return [
    [
      `Lowest ${tag} in book`,
      <span key="book" data-testid="phase-lowest">
        {money(phase.lowest_in_book)}
        {phase.listings_in_book > 1 ? <Text span size="xs" c="dimmed"> of {phase.listings_in_book}</Text> : null}
      </span>,
    ],
    [
      `${tag} sales seen, 30 d`,
      <span key="sales" data-testid="phase-sales">
        {phase.sales_30d === 0 ? 'none' : <>{formatCount(phase.sales_30d)} · avg {money(phase.average_30d)}{vs(phase.average_30d)}</>}
      </span>,
    ],
  ];
}

function PriceContextView({ context, price }: { context: PriceContext; price: number }) {
  const money = (c: number | null) => (c === null ? '–' : formatCents(c));
  const vs = (base: number | null) =>
    base === null ? null : (
      <Text span size="xs" c={price > base ? 'red.4' : price < base ? 'teal.4' : 'dimmed'} className="sd-num">
        {' '}
        {formatDelta(price - base, base)}
      </Text>
    );
  // A Doppler's market price and 30-day average are the name's, every phase mixed (a Ruby with a Phase 3):
  // a gain or loss against them would be no figure to act on (the grid shows none either). Its own
  // phase's rows below compare.
  const vsName = (base: number | null) => (context.phase === null ? vs(base) : null);
  return (
    <Kv
      items={[
        ['Market price', <>{money(context.market_price)}{vsName(context.market_price)}</>],
        ['Recommended', money(context.recommended_price)],
        ['Lowest listing', money(context.lowest_listing_price)],
        ['Lowest in book', <>{money(context.lowest_in_book)}{context.listings_in_book > 1 ? <Text span size="xs" c="dimmed"> of {context.listings_in_book}</Text> : null}</>],
        [
          '30-day average',
          <>
            {money(context.average_30d)}
            {vsName(context.average_30d)}
          </>,
        ],
        ['30-day sales', context.sales_30d === null ? '–' : `${formatCount(context.sales_30d)} (${plural(context.volume_30d ?? 0, 'copy', 'copies')})`],
        [
          'Time to sell',
          context.time_to_sell === null ? (
            '–'
          ) : (
            <span data-testid="time-to-sell" title="How long the last sales the feed showed had been listed before they sold (median)">
              {formatWait(context.time_to_sell.median_ms)}
              <Text span size="xs" c="dimmed">
                {' '}
                median of {plural(context.time_to_sell.sales, 'sale')}
              </Text>
            </span>
          ),
        ],
        ...phaseRows(context.phase, money, vs),
      ]}
    />
  );
}

/**
 * How long the listing has been up, ticking as the grid's age column does: read once, it stayed "0s" on a
 * listing open for minutes while the row beside it said "4m". Its own component, so only it re-renders.
 */
function ListedAge({ createdAt }: { createdAt: string }) {
  const now = useNow(1_000);
  return <span className="sd-num">{formatAge(createdAt, now)}</span>;
}

export function DetailPanel({ row, onClose, onBuy, onAddToCart }: DetailPanelProps) {
  const trading = useTradingState();
  const item = { app_id: row.app_id, market_hash_name: row.market_hash_name };
  const detail = useCall('getListing', { id: row.id }, `listing-${row.id}`);
  // the listing sold, was bought or delisted while shown: read again, so it says so and Buy goes off
  usePush('bookChanged', (change) => {
    if (change.reset || change.idsTruncated || change.ids.includes(row.id)) detail.reload();
  });
  // each read only for the listing (and item) it was made for: moving the selection must never show the
  // last listing's fields, market figures or sales under the new one's name while its own are read
  const listing = detail.current?.listing ?? null;
  // the row's stickers and paint index are known before the listing's own read: the stickers' worth and a
  // Doppler's phase are asked at once. A row without its details (an alert's, or one the backfill has not
  // reached) takes them from the listing once read, or its stickers would go unpriced and a Doppler be
  // compared with every phase's price.
  const stickerNames = (row.stickers ?? listing?.cs_stickers ?? []).map((s) => s.name);
  const paintIndex = row.paint_index ?? listing?.cs_paint_index ?? null;
  const context = useCall(
    'getPriceContext',
    { ...item, stickers: stickerNames, paint_index: paintIndex },
    `ctx-${row.app_id}-${row.market_hash_name}-${stickerNames.join('|')}-${paintIndex ?? ''}`,
  );
  const sales = useCall('getSalesHistory', item, `sales-${row.app_id}-${row.market_hash_name}`);
  const [inspectProblem, setInspectProblem] = useState<string | null>(null);
  const gone = detail.current !== undefined && !detail.current.alive;
  const float = listing?.cs_paint_wear ?? row.paint_wear;
  const rank = detail.current?.floatRank ?? null;
  const phase = phaseOfPaintIndex(listing?.cs_paint_index ?? row.paint_index);
  const inspectable = Boolean(listing?.cs_inspect_link ?? listing?.tf2_inspect_link);

  const inspect = () => {
    setInspectProblem(null);
    call('openInspectLink', { listingId: row.id }).catch((err: unknown) => setInspectProblem(err instanceof Error ? err.message : String(err)));
  };

  return (
    <Stack gap={0} h="100%" data-testid="detail-panel" data-listing-id-detail={row.id} style={{ borderLeft: '1px solid var(--sd-border)', minWidth: 0 }}>
      <Group px="sm" py={6} gap="xs" wrap="nowrap" align="flex-start" style={{ borderBottom: '1px solid var(--sd-border)' }}>
        <ItemImage src={listing?.icon_url} alt={row.market_hash_name} size={56} testId="item-image" />
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Title order={2} fz={13} lh={1.3} data-testid="detail-name" style={{ wordBreak: 'break-word' }}>
            {row.market_hash_name}
          </Title>
          <Group gap={4}>
            <Badge variant="outline" color="gray" size="xs">
              {gameShort(row.app_id)}
            </Badge>
            {row.stattrak && (
              <Badge color="orange" variant="light" size="xs">
                StatTrak™
              </Badge>
            )}
            {row.souvenir && (
              <Badge color="yellow" variant="light" size="xs">
                Souvenir
              </Badge>
            )}
            {phase && (
              <Badge color={PHASE_COLORS[phase]} variant="light" size="xs" data-testid="detail-phase">
                {phase}
              </Badge>
            )}
            {row.commodity && (
              <Badge color="gray" variant="light" size="xs">
                ×{row.amount}
              </Badge>
            )}
            <Text size="xs" c="dimmed">
              listed <ListedAge createdAt={row.created_at} /> ago · #{row.id}
            </Text>
          </Group>
        </Stack>
        <CloseButton size="sm" onClick={onClose} aria-label="Close detail (Esc)" />
      </Group>

      <ScrollArea style={{ flex: 1 }} type="auto" offsetScrollbars>
        <Stack gap="md" p="sm">
          {gone && (
            <Alert color="red" p="xs" data-testid="detail-gone">
              This listing left the book (sold or delisted).
            </Alert>
          )}
          <Group justify="space-between" align="flex-end" wrap="nowrap">
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                Price
              </Text>
              <Text fz={22} fw={600} className="sd-num" lh={1.1} data-testid="detail-price">
                {formatCents(row.price)}
              </Text>
            </Stack>
            <Group gap={6} wrap="nowrap">
              <Tooltip label={trading.reason ?? 'Buy (B)'} disabled={trading.allowed && !gone}>
                <Button onClick={() => onBuy(row)} disabled={!trading.allowed || gone} data-testid="detail-buy" rightSection={<Keys hotkey="b" />}>
                  Buy
                </Button>
              </Tooltip>
              <Tooltip label="Add to cart (A)">
                <Button variant="default" onClick={() => onAddToCart(row)} disabled={gone} aria-label="Add to cart" px={8}>
                  <IconShoppingCartPlus size={16} />
                </Button>
              </Tooltip>
              {inspectable && (
                <Tooltip label="Inspect in game (I)">
                  <Button variant="default" onClick={inspect} aria-label="Inspect in game" px={8} data-testid="inspect">
                    <IconEye size={16} />
                  </Button>
                </Tooltip>
              )}
            </Group>
          </Group>
          {inspectProblem && (
            <Text size="xs" c="red.5">
              {inspectProblem}
            </Text>
          )}

          {row.app_id === 730 && float !== null && (
            <Section
              title="Float"
              right={
                <Text size="xs" c="dimmed">
                  {wearBandOf(float).name}
                  {rank && rank.of > 1 && (
                    <Tooltip label="Among the live listings of this item in the book whose float is known (1 = lowest)">
                      <Text span size="xs" c={rank.rank <= 3 ? 'teal' : 'dimmed'} className="sd-num" data-testid="float-rank">
                        {' · '}#{formatCount(rank.rank)} lowest of {formatCount(rank.of)}
                      </Text>
                    </Tooltip>
                  )}
                </Text>
              }
            >
              <FloatBar value={float} />
            </Section>
          )}

          {detail.current === undefined && !detail.error && (
            <Group gap={6}>
              <Loader size="xs" />
              <Text size="xs" c="dimmed">
                Reading the listing’s details…
              </Text>
            </Group>
          )}
          {detail.error && (
            <Text size="xs" c={trading.allowed ? 'red.5' : 'dimmed'} data-testid="detail-unavailable">
              {trading.allowed
                ? `The listing's details could not be read: ${detail.error.message}`
                : "This listing's details (float, stickers, fields) are not in the cache yet; they load when the market is reachable."}
            </Text>
          )}
          {listing && (
            <Attachments
              title="Stickers"
              items={listing.cs_stickers ?? []}
              kind="sticker"
              right={<StickerWorth context={context.current} price={row.price} count={stickerNames.length} />}
            />
          )}
          {listing && <Attachments title="Keychains" items={listing.cs_keychains ?? []} kind="keychain" />}

          <Section title="Price context" right={context.current === undefined && !context.error ? <Loader size={10} /> : undefined}>
            {context.current ? <PriceContextView context={context.current} price={row.price} /> : <Text size="xs" c="dimmed">…</Text>}
            {context.current?.problem && (
              <Text size="xs" c="yellow.5">
                {context.current.problem}
              </Text>
            )}
          </Section>

          <Section
            title="Sales of this item"
            right={
              <Button variant="subtle" size="compact-xs" onClick={() => showItemSales(row.app_id, row.market_hash_name)} data-testid="detail-all-sales">
                All sales on the tape →
              </Button>
            }
          >
            {sales.current ? <PriceChart sales={sales.current.sales} listingPrice={row.price} /> : <div style={{ height: 150 }} data-testid="price-chart-reading" />}
            {sales.current?.problem && (
              <Text size="xs" c="yellow.5">
                {sales.current.problem}
              </Text>
            )}
          </Section>

          {listing && (
            <Section title="All fields">
              <Kv items={[['Listing id', String(listing.id)], ['Amount', String(listing.amount)], ['Commodity', listing.commodity ? 'yes' : 'no'], ...gameFields(listing)]} />
            </Section>
          )}
        </Stack>
      </ScrollArea>
    </Stack>
  );
}
