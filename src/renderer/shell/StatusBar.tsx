/**
 * The status bar: the state of the book (live / resyncing / offline with "book as of"), the last seq,
 * events per second, detail backfill, rate-limit headroom, which market, and the balance. Fixed-width
 * numbers, so the bar never shifts as values change.
 */
import { Badge, Group, Tooltip } from '@mantine/core';
import { describeBookRead } from '../../shared/book-read.ts';
import { inLine } from '../../shared/sentence.ts';
import type { BackfillProgress, SyncStatus } from '../../shared/ipc/index.ts';
import { formatAsOf, formatCents, formatClock, formatCount, formatWait } from '../format/numbers.ts';
import { hotkeyLabel } from './commands.ts';
import { navigate } from './navigation.ts';
import { backfillStore, balanceStore, rateLimitStore, syncStatusStore, useLive } from './app-state.ts';
import { AutoBuyKillSwitch } from '../screens/watchlists/AutoBuyKillSwitch.tsx';

const STATE_WORDS: Record<SyncStatus['state'], { label: string; color: string }> = {
  opening: { label: 'Opening', color: 'gray' },
  connecting: { label: 'Connecting', color: 'yellow' },
  live: { label: 'Live', color: 'teal' },
  resyncing: { label: 'Resyncing', color: 'orange' },
  offline: { label: 'Offline', color: 'red' },
  stopped: { label: 'Stopped', color: 'gray' },
};

/** The endpoint whose headroom matters most to a trader: purchases. */
const PURCHASE_KEY = 'POST /public/v1/purchase';

/** The badge's tooltip: why the state is what it is, and, while resyncing, what the book does meanwhile. */
function syncBadgeTip(status: SyncStatus): string {
  const why = status.problem ?? `${STATE_WORDS[status.state].label} since ${formatClock(status.since)}`;
  if (status.state !== 'resyncing') return why;
  return `${why}\nThe book keeps following the feed; what changed while disconnected arrives with the book read.`;
}

/**
 * What the badge says: the state; while offline, how old the book is; while opening with something to
 * say (the sync upgrading the book file, seconds on a large book), what it does, before the colon.
 */
function syncBadgeText(status: SyncStatus): string {
  if (status.state === 'offline') return `offline · ${status.bookAsOf ? `book as of ${formatAsOf(status.bookAsOf)}` : 'no book yet'}`;
  if (status.state === 'opening' && status.problem) return inLine(status.problem.split(':')[0] ?? status.problem);
  return status.state;
}

export function SyncBadge() {
  const status = useLive(syncStatusStore);
  if (!status) return null;
  const words = STATE_WORDS[status.state];
  return (
    <Tooltip label={syncBadgeTip(status)} multiline maw={360} style={{ whiteSpace: 'pre-line' }}>
      <Badge data-testid="sync-badge" data-state={status.state} color={words.color} variant="dot" radius="sm">
        {syncBadgeText(status)}
      </Badge>
    </Tooltip>
  );
}

export function MarketBadge() {
  const status = useLive(syncStatusStore);
  if (!status) return null;
  const demo = status.market.mode === 'demo';
  return (
    <Tooltip label={`${status.market.baseUrl ?? 'not connected yet'} · Settings (${hotkeyLabel('mod+,').join('+')})`}>
      <Badge
        data-testid="market-badge"
        color={demo ? 'violet' : 'blue'}
        variant="light"
        component="button"
        onClick={() => navigate('settings')}
        style={{ cursor: 'pointer', border: 0 }}
      >
        {demo ? 'Demo market' : 'Real market'}
      </Badge>
    </Tooltip>
  );
}

function RateHeadroom() {
  const limits = useLive(rateLimitStore);
  if (!limits) return <span>buys left –</span>;
  const purchase = limits.endpoints.find((e) => e.key === PURCHASE_KEY);
  const tight = limits.endpoints.filter((e) => e.headroom < e.limit || e.blockedUntil);
  const tip = tight.map((e) => `${e.key}: ${e.headroom}/${e.limit}${e.blockedUntil ? ' (waiting)' : ''}`).join('\n');
  const left = purchase?.headroom ?? 30;
  const of = purchase?.limit ?? 30;
  const color = purchase?.blockedUntil ? 'var(--mantine-color-red-5)' : left <= of / 5 ? 'var(--mantine-color-yellow-5)' : undefined;
  return (
    <Tooltip label={tip || 'Every endpoint has its full budget.'} multiline style={{ whiteSpace: 'pre' }}>
      <span data-testid="rate-headroom">
        buys left{' '}
        <strong className="sd-num" style={{ color }}>
          {left}/{of}
        </strong>
        {limits.queued > 0 ? ` · ${limits.queued} queued` : ''}
      </span>
    </Tooltip>
  );
}

/** How far the details are, and, while they are being read, about how long the rest takes. */
function backfillTip(progress: BackfillProgress): string {
  const done = `${formatCount(progress.detailed)} of ${formatCount(progress.total)} listings have their float, seed and stickers`;
  const left = progress.state === 'running' && progress.etaMs ? `; the rest in about ${formatWait(progress.etaMs)}` : '';
  return `${done}${left}${progress.problem ? ` — ${progress.problem}` : ''}`;
}

function Backfill() {
  const progress = useLive(backfillStore);
  if (!progress || progress.total === 0) return <span>detail –</span>;
  const pct = Math.floor((progress.detailed / progress.total) * 100);
  return (
    <Tooltip label={backfillTip(progress)}>
      <span data-testid="backfill">
        {/* 4ch: "100%" as wide as "99%", so the bar does not shift as new listings wait for their detail */}
        detail{' '}
        <strong className="sd-num" style={{ display: 'inline-block', minWidth: '4ch', textAlign: 'right' }}>
          {pct}%
        </strong>
      </span>
    </Tooltip>
  );
}

export function BalanceValue() {
  const balance = useLive(balanceStore);
  const text = balance?.balance === null || balance === null ? '–' : formatCents(balance.balance);
  const tip = balance?.problem ?? (balance?.asOf ? `as of ${formatClock(balance.asOf)}` : 'not read yet');
  return (
    <Tooltip label={tip}>
      <span>
        balance{' '}
        <strong className="sd-num" data-testid="balance">
          {text}
        </strong>
      </span>
    </Tooltip>
  );
}

export function StatusBar() {
  const status = useLive(syncStatusStore);
  return (
    <div className="sd-statusbar" data-testid="status-bar">
      <SyncBadge />
      <span className="sd-statusbar-give sd-statusbar-give-first" title={status?.lastSeq ? `last seq ${status.lastSeq}` : undefined}>
        seq <strong className="sd-num" data-testid="last-seq">{status?.lastSeq ?? '–'}</strong>
      </span>
      <span className="sd-statusbar-give sd-statusbar-give-first">
        <strong className="sd-num" style={{ display: 'inline-block', minWidth: '4ch', textAlign: 'right' }}>
          {status ? status.eventsPerSecond.toFixed(1) : '–'}
        </strong>{' '}
        ev/s
      </span>
      <span className="sd-statusbar-give sd-statusbar-give-first">
        book <strong className="sd-num">{status ? formatCount(status.rows) : '–'}</strong>
      </span>
      <Backfill />
      <RateHeadroom />
      {status?.bookRead && (
        // last on the left, so nothing before it moves when it comes and goes
        <span data-testid="book-read" className="sd-num sd-statusbar-give" title={describeBookRead(status.bookRead)}>
          {describeBookRead(status.bookRead)}
        </span>
      )}
      <Group gap={8} ml="auto" wrap="nowrap">
        <AutoBuyKillSwitch />
        <BalanceValue />
        <MarketBadge />
      </Group>
    </div>
  );
}
