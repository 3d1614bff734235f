import { z } from 'zod';

/** Games by `app_id` (spec §1). */
export const APP_IDS = [730, 252490, 570, 440] as const;
export type AppId = (typeof APP_IDS)[number];
export const GAME_NAMES: Record<AppId, string> = {
  730: 'Counter-Strike 2',
  252490: 'Rust',
  570: 'Dota 2',
  440: 'Team Fortress 2',
};
export const GAME_PREFIX: Record<AppId, 'cs' | 'rust' | 'dota' | 'tf2'> = {
  730: 'cs',
  252490: 'rust',
  570: 'dota',
  440: 'tf2',
};
export function isAppId(value: number): value is AppId {
  return (APP_IDS as readonly number[]).includes(value);
}

/** Service ids and counts: integers (spec §1.3). */
export const int = z.number().int();
export const id = z.number().int().positive();
export const nonNegativeInt = z.number().int().nonnegative();
/** Money is integer cents everywhere (spec §1.2). */
export const cents = z.number().int().nonnegative();
export const positiveCents = z.number().int().positive();
/** ISO 8601 timestamps on REST and WebSocket (spec §1.4). */
export const timestamp = z.iso.datetime({ offset: true });
export const appId = z.number().int().refine(isAppId, { message: 'unknown app_id' });

/** Integer-valued query filters must match ^[1-9]\d*$ (spec §1.6). */
export const INT_QUERY_PATTERN = /^[1-9]\d*$/;
export const intQuery = z.string().regex(INT_QUERY_PATTERN, 'must be a positive integer without sign or leading zeros');
export const appIdQuery = intQuery.refine((v) => isAppId(Number(v)), { message: 'app_id must be 730, 252490, 570 or 440' });
/** Allowed `limit` values (spec §4, §8). */
export const PAGE_LIMITS = ['5', '10', '25', '30', '50', '100'] as const;
export const BULK_PAGE_LIMITS = ['500', '1000'] as const;
export const pageLimitQuery = z.enum(PAGE_LIMITS);
export const bulkPageLimitQuery = z.enum(BULK_PAGE_LIMITS);

/**
 * `seq` is a signed 64-bit integer (spec §6.1). It is carried as bigint in the contract: a JavaScript
 * number loses precision above 2^53 (near 1.9e18 neighbouring doubles are 256 apart).
 */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const seq = z.bigint().min(INT64_MIN).max(INT64_MAX);
/** The decimal-string form of a seq, for places that cannot carry bigint (IPC, CLI output, SQLite text). */
export const seqString = z.string().regex(/^-?\d{1,19}$/);

/** Offset-paging metadata (spec §2.1). */
export const metadata = z.looseObject({
  total_pages: nonNegativeInt,
  total_items: nonNegativeInt,
  current_page: nonNegativeInt,
  current_limit: nonNegativeInt,
});
export type Metadata = z.infer<typeof metadata>;
