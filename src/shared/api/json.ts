/**
 * Lossless JSON for int64 fields. JSON.parse turns 9007199254740993 into 9007199254740992, so every
 * int64 key named by the caller is re-read from the source text as a bigint.
 *
 * Fast path: plain JSON.parse, then a targeted scan of the text for the named keys. A key can only
 * appear unquoted-and-followed-by-colon where it is a key (quotes inside strings are escaped), so when a
 * key occurs exactly once in the text the scan is exact. Otherwise fall back to a reviver with source
 * text access (V8 ≥ 11.4: Node 22+, Chromium 114+), which is exact but slower.
 */
type ReviverContext = { source?: string };
type SourceReviver = (this: unknown, key: string, value: unknown, context?: ReviverContext) => unknown;

const INTEGER_TEXT = /^-?\d+$/;
const KEY_SCANNERS = new Map<string, RegExp>();
function scannerFor(key: string): RegExp {
  let re = KEY_SCANNERS.get(key);
  if (!re) {
    // The whole number token: a fraction or an exponent must not be cut down to its leading digits.
    re = new RegExp(`"${key}"\\s*:\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`, 'g');
    KEY_SCANNERS.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}

export function parseJsonWithInt64(text: string, int64Keys: readonly string[]): unknown {
  const parsed: unknown = JSON.parse(text);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return parsed;
  const top = parsed as Record<string, unknown>;
  for (const key of int64Keys) {
    const value = top[key];
    if (typeof value !== 'number') continue;
    if (Number.isSafeInteger(value)) {
      top[key] = BigInt(value);
      continue;
    }
    const re = scannerFor(key);
    const first = re.exec(text);
    const second = first ? re.exec(text) : null;
    if (first && !second && first[1] !== undefined) {
      // Not an integer in the text (1.5, 1e19): left as the number it is, for the schema to reject.
      if (INTEGER_TEXT.test(first[1])) top[key] = BigInt(first[1]);
    } else {
      return parseJsonWithInt64Slow(text, int64Keys);
    }
  }
  return parsed;
}

function parseJsonWithInt64Slow(text: string, int64Keys: readonly string[]): unknown {
  const keys = new Set(int64Keys);
  const reviver: SourceReviver = function (this: unknown, key, value, context) {
    if (keys.has(key) && typeof value === 'number' && context?.source !== undefined && INTEGER_TEXT.test(context.source)) {
      return BigInt(context.source);
    }
    return value;
  };
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
}

type RawJsonCapable = typeof JSON & { rawJSON?: (text: string) => unknown };
const rawJSON = (JSON as RawJsonCapable).rawJSON;

/** JSON.stringify that writes bigint values as plain JSON integers (never strings, never rounded). */
export function stringifyJson(value: unknown): string {
  if (!rawJSON) throw new Error('JSON.rawJSON is required (Node 22+ / Chromium 114+)');
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? rawJSON(v.toString()) : v));
}
