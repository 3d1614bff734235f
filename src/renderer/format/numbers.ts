/** Display formats of the market screens; numbers stay raw everywhere else. */
import { formatCents } from '../../shared/money.ts';

export { formatCents };

/**
 * Float (paint wear) the way traders compare them: 6 decimals, a dash when unknown. The digits are cut,
 * never rounded: rounded, 0.06999996 (Factory New) would read 0.070000, the Minimal Wear boundary — and
 * a float just under a band's edge is exactly what a trader pays for. Cut from the float's shortest
 * text, as the marketplace sent it: cut from its binary value, 0.3 would read 0.299999.
 */
export function formatFloat(value: number | null | undefined, digits = 6): string {
  if (value === null || value === undefined) return '–';
  const [whole, fraction = ''] = formatDecimal(value).split('.');
  return `${whole}.${fraction.slice(0, digits).padEnd(digits, '0')}`;
}

/**
 * A number in plain decimals with every digit it carries and no more (the shortest text that reads back
 * as it): 0.0000005, where String gives 5e-7. For bounds a trader typed, shown back or in a chip.
 */
export function formatDecimal(value: number): string {
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 100 });
}

/** Percent with one decimal (fade, blue); a dash when unknown. */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : `${value.toFixed(1)}%`;
}

const integer = new Intl.NumberFormat('en-US');
export function formatCount(value: number): string {
  return integer.format(value);
}

/** A count and its noun: "1 listing", "1,204 listings"; `many` for the irregular ones ("copies"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Age of a listing in the largest unit that fits: 45s, 12m, 3h, 9d. */
export function formatAge(iso: string, now: number = Date.now()): string {
  return formatDuration(now - Date.parse(iso));
}

/** A span of time in the largest unit that fits: 45s, 12m, 3h, 9d (negative spans count as none). */
export function formatDuration(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h`;
  return `${Math.floor(h / 24)}d`;
}

/**
 * A wait (how long items sat on the market before they sold) a trader compares: the two largest units
 * while the first is a single digit ("1h 52m", "3d 4h", "4m 5s"), one unit from 10 up ("14h", "12d"),
 * where the second no longer changes a decision.
 */
export function formatWait(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  const units: [number, string][] = [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'm'],
    [1, 's'],
  ];
  const at = units.findIndex(([size]) => s >= size);
  if (at === -1 || at === units.length - 1) return `${s}s`;
  const [size, unit] = units[at]!;
  const [nextSize, nextUnit] = units[at + 1]!;
  const whole = Math.floor(s / size);
  const rest = Math.floor((s % size) / nextSize);
  return whole >= 10 || rest === 0 ? `${whole}${unit}` : `${whole}${unit} ${rest}${nextUnit}`;
}

/**
 * A price against a reference, in percent ("−12%", "+3.4%", "0%"): one decimal under 10 % either way,
 * where a trader's margin lives, whole percents beyond; null when there is no reference to compare with.
 */
export function formatAgainst(price: number, reference: number | null): string | null {
  if (reference === null || reference <= 0) return null;
  const percent = ((price - reference) / reference) * 100;
  const shown = Math.abs(percent) < 10 ? Math.round(percent * 10) / 10 : Math.round(percent);
  if (shown === 0) return '0%';
  return `${shown < 0 ? '−' : '+'}${Math.abs(shown)}%`;
}

/** Clock time (HH:MM:SS) of a timestamp, for "book as of". */
export function formatClock(iso: string | null): string {
  if (!iso) return '–';
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
}

/**
 * When something stored was current ("book as of"): the clock today, the date and minute on an earlier
 * day — a book cached yesterday evening must not read as minutes old.
 */
export function formatAsOf(iso: string | null, now: number = Date.now()): string {
  if (!iso) return '–';
  const at = new Date(iso);
  if (at.toDateString() === new Date(now).toDateString()) return formatClock(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** Signed difference in cents with its percent, e.g. "+$1.20 (+4.5%)". */
export function formatDelta(cents: number, base: number | null): string {
  const sign = cents > 0 ? '+' : cents < 0 ? '−' : '±';
  const money = `${sign}${formatCents(Math.abs(cents))}`;
  if (!base) return money;
  const pct = (cents / base) * 100;
  return `${money} (${sign}${Math.abs(pct).toFixed(1)}%)`;
}
