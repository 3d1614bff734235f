/** Display formats of the account screens. Money stays integer cents until shown. */
import { GAME_NAMES, type AppId } from '../../../../shared/api/index.ts';
import { formatCents } from '../../../../shared/money.ts';

export { formatCents };
import { plural } from '../../../format/numbers.ts';

export { plural };

const SHORT_GAME: Record<AppId, string> = { 730: 'CS2', 252490: 'Rust', 570: 'Dota 2', 440: 'TF2' };

export function gameShort(appId: number): string {
  return SHORT_GAME[appId as AppId] ?? String(appId);
}

export function gameName(appId: number): string {
  return GAME_NAMES[appId as AppId] ?? `app ${appId}`;
}

/** Signed money, with an explicit sign for movements: "+$12.00", "−$3.50". */
export function formatSignedCents(cents: number): string {
  if (cents === 0) return formatCents(0);
  return `${cents > 0 ? '+' : '−'}${formatCents(Math.abs(cents))}`;
}

/** "2026-03-04 14:05" in local time: dense and sortable by eye. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "2026-03-04 14:05:09" in local time: formatDateTime to the second, for a step's or a read's instant. */
export function formatDateTimeSeconds(iso: string): string {
  return `${formatDateTime(iso)}:${formatTime(iso).slice(-2)}`;
}

export function formatTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** How long ago, in the largest unit that fits: "12s ago", "5m ago", "3h ago", "2d ago". */
export function formatAgo(iso: string, now: number = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ago`;
  return `${Math.floor(h / 24)}d ago`;
}

/** A countdown as m:ss (or h:mm:ss past an hour); "0:00" once passed. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * Hours as "36 h" or "72 h": in hours, the unit a decay curve is typed in ("Over (hours)", 24–168 h) and
 * its slider counts in; "3 d" beside a field reading 72 was a second unit to convert.
 */
export function formatHours(hours: number): string {
  return `${Math.round(hours * 10) / 10} h`;
}

/** Cents as the text of a price field ("12.50"), for prefilling inputs. */
export function centsToInput(cents: number): string {
  return (cents / 100).toFixed(2);
}

/**
 * What a send dialog's title counts: the copies the send would take, "12 copies", as its footer and
 * fields count them. `copies` is null while a figure typed cannot be sent (above its stack, or none at
 * all): the title then names the one item selected, or says "items", never a figure no send would take
 * ("Withdraw 25 items" of a stack of 12).
 */
export function copiesToSend(copies: number | null, names: readonly string[]): string {
  if (copies !== null && copies > 0) return plural(copies, 'copy', 'copies');
  const distinct = [...new Set(names)];
  return distinct.length === 1 ? distinct[0]! : 'items';
}
