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
 * Parses a price typed by a person ("12", "12.3", ".5", "12.34", "$1,234.50") into integer cents, exactly:
 * string arithmetic, never float multiplication (0.29 * 100 = 28.999999999999996). Null when invalid.
 * A comma is a thousands separator only where one belongs: "1,000" is a thousand dollars, "1,5" is not
 * a price at all (read as 1.5 or 15, either would be a wrong price sent with confidence).
 */
export function parseCents(text: string): number | null {
  const figure = typedFigure(text);
  const m = figure === null ? null : /^(\d{0,10})(?:\.(\d{0,2}))?$/.exec(figure);
  if (!m || !/\d/.test(figure ?? '')) return null;
  const whole = Number(m[1] || '0');
  const frac = m[2] === undefined ? 0 : Number(m[2].padEnd(2, '0'));
  const cents = whole * 100 + frac;
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * Whether `text` is a figure parseCents refuses only for its size: more than its 10 whole digits (a
 * price past any the app sends, not a typo).
 */
export function pastTenWholeDigits(text: string): boolean {
  return /^\d{11,}(?:\.\d*)?$/.test(typedFigure(text) ?? '');
}

/**
 * Why a typed amount is not one, in plain words (null when parseCents reads it, or it is empty): the
 * field says what to change instead of going quiet.
 */
export function typedCentsProblem(text: string): string | null {
  if (text.trim() === '' || parseCents(text) !== null) return null;
  const bare = text.trim().replace(/^\$\s*/, '');
  if (bare.includes(',') && typedFigure(text) === null) {
    return 'Use a point for cents (12.50); a comma only separates thousands (1,250.00).';
  }
  if (/^-/.test(bare)) return 'An amount is never below zero.';
  if (/\.\d{3,}$/.test(bare.replace(/,/g, ''))) return 'At most two decimals: dollars and cents.';
  if (pastTenWholeDigits(text)) return 'At most 10 digits before the point.';
  return 'Not an amount: type dollars and cents, like 12.50.';
}

/** A typed amount without its blanks and dollar sign, thousands separators taken out; null when a comma is misplaced. */
function typedFigure(text: string): string | null {
  const bare = text.trim().replace(/^\$\s*/, '');
  if (!bare.includes(',')) return bare;
  return /^\d{1,3}(?:,\d{3})+(?:\.\d*)?$/.test(bare) ? bare.replace(/,/g, '') : null;
}

/** Basis-point share of an amount, rounded half up, in integer arithmetic. */
export function bpsOf(cents: number, bps: number): number {
  return Math.floor((cents * bps + 5_000) / 10_000);
}
