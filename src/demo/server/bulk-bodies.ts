/**
 * The bulk forms of PATCH /list and POST /delist, validated row by row (spec §7: "per-row failures are
 * reported in `results` entries (`ok: false` and `error` holding the code the single form would return)
 * and do not fail the request"; §4.4: "each listing is applied in its own transaction").
 *
 * The contract's schemas (src/shared/api/endpoints.ts) check a bulk body as a whole, which is right for
 * the client (it should never send a bad row) but would make one bad row a 400 for the whole request
 * here. So the server checks only the envelope with these schemas — an object holding an array of 1 to
 * 50 rows, and the single form unchanged — and each row against the single form's own schema, a row
 * that fails it answering VALIDATION_ERROR (the single form's answer) while the others apply.
 */
import { z } from 'zod';
import { LIMITS, id, listingEdit, type BulkResult } from '../../shared/api/index.ts';
import { eachInOwnTransaction } from '../market/listing-management.ts';

const rows = z.array(z.unknown()).min(1).max(LIMITS.bulkEditOrDelist);

/** Body schemas the server uses instead of the contract's, by endpoint. */
export const SERVER_BODIES = {
  editListing: z.union([z.strictObject({ listings: rows }), listingEdit]),
  delist: z.union([z.strictObject({ listing_id: id }), z.strictObject({ listing_ids: rows })]),
};
export type ServerBodies = typeof SERVER_BODIES;

/**
 * Applies `apply` to each row that passes `schema`, each in its own transaction, and reports every row
 * in order; a row failing the schema is `{ ok: false, error: 'VALIDATION_ERROR' }` with its listing id
 * when it has a usable one.
 */
export function eachRowChecked<T extends { listing_id: number } | number>(
  raw: readonly unknown[],
  schema: z.ZodType<T>,
  apply: (row: T) => void,
): BulkResult[] {
  return raw.map((row) => {
    const parsed = schema.safeParse(row);
    if (parsed.success) return eachInOwnTransaction([parsed.data], apply)[0]!;
    const listingId = id.safeParse(typeof row === 'object' && row !== null ? (row as { listing_id?: unknown }).listing_id : row);
    return { ok: false, error: 'VALIDATION_ERROR', ...(listingId.success ? { listing_id: listingId.data } : {}) };
  });
}
