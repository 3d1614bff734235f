/** Money is integer cents end to end; only display converts, through Intl.NumberFormat. */
const formatters = new Map<string, Intl.NumberFormat>();

export function formatCents(cents: number, currency = 'USD', locale?: string): string {
  const key = `${locale ?? ''}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    formatters.set(key, f);
  }
  return f.format(cents / 100);
}

/**
 * Parses a price typed by a person ("12", "12.3", "12.34", "$1,234.50") into integer cents, exactly:
 * string arithmetic, never float multiplication (0.29 * 100 = 28.999999999999996). Null when invalid.
 */
export function parseCents(text: string): number | null {
  const m = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(typedFigure(text));
  if (!m || m[1] === undefined) return null;
  const whole = Number(m[1]);
  const frac = m[2] === undefined ? 0 : Number(m[2].padEnd(2, '0'));
  const cents = whole * 100 + frac;
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * Whether `text` is a figure parseCents refuses only for its size: more than its 10 whole digits (a
 * price past any the app sends, not a typo).
 */
export function pastTenWholeDigits(text: string): boolean {
  return /^\d{11,}(?:\.\d*)?$/.test(typedFigure(text));
}

/** A typed amount without its blanks, dollar sign and thousands separators. */
function typedFigure(text: string): string {
  return text.trim().replace(/^\$/, '').replace(/,/g, '');
}

/** Basis-point share of an amount, rounded half up, in integer arithmetic. */
export function bpsOf(cents: number, bps: number): number {
  return Math.floor((cents * bps + 5_000) / 10_000);
}
