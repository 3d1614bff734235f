/**
 * Contract validation of a decoded response that never holds the event loop for a whole big array.
 *
 * `prices/all` answers ~26,000 rows (5.5 MB); zod checks them in 24–55 ms, on the app's thread, every few
 * minutes (the book's market-price column, the watchlists' references). A response object whose array
 * field is longer than a slice has that array checked a slice at a time, with a turn of the event loop
 * between slices, and the rest of the object checked on its own: the same result and the same issues
 * (paths included) as checking it whole.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';

/** Rows checked per turn of the event loop (~2–4 ms for a price row). */
export const VALIDATION_SLICE_ROWS = 2_000;

export interface ValidationIssue {
  path: PropertyKey[];
  message: string;
}

export type ValidationResult =
  { success: true; data: unknown } | { success: false; issues: ValidationIssue[] };

const issuesOf = (error: z.ZodError): ValidationIssue[] =>
  error.issues.map((i) => ({ path: [...i.path], message: i.message }));

const plainResult = (result: z.ZodSafeParseResult<unknown>): ValidationResult =>
  result.success ? { success: true, data: result.data } : { success: false, issues: issuesOf(result.error) };

/** The object's array fields long enough to slice, and whose schema checks nothing of the array as a whole. */
function sliceableArrays(schema: z.ZodType, raw: unknown, sliceRows: number): [string, z.ZodType][] {
  if (!(schema instanceof z.ZodObject) || typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return [];
  const found: [string, z.ZodType][] = [];
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const value = (raw as Record<string, unknown>)[key];
    if (!(field instanceof z.ZodArray) || !Array.isArray(value) || value.length <= sliceRows) continue;
    if ((field._zod.def.checks?.length ?? 0) > 0) continue; // a length rule needs the whole array
    found.push([key, field.element as z.ZodType]);
  }
  return found;
}

export async function validateInSlices(
  schema: z.ZodType,
  raw: unknown,
  sliceRows = VALIDATION_SLICE_ROWS,
): Promise<ValidationResult> {
  const arrays = sliceableArrays(schema, raw, sliceRows);
  if (arrays.length === 0) return plainResult(schema.safeParse(raw));
  const object = raw as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const checked = new Map<string, unknown[]>();
  for (const [key, element] of arrays) {
    const rows = object[key] as unknown[];
    const sliceSchema = z.array(element);
    const out: unknown[] = [];
    for (let start = 0; start < rows.length; start += sliceRows) {
      const result = sliceSchema.safeParse(rows.slice(start, start + sliceRows));
      if (result.success) out.push(...result.data);
      else
        for (const i of result.error.issues)
          issues.push({ path: [key, start + Number(i.path[0]), ...i.path.slice(1)], message: i.message });
      await nextTurn();
    }
    checked.set(key, out);
  }
  // the rest of the object, its big arrays standing in empty (they were checked above)
  const rest = schema.safeParse({ ...object, ...Object.fromEntries(arrays.map(([key]) => [key, []])) });
  if (!rest.success) issues.unshift(...issuesOf(rest.error));
  if (issues.length > 0) return { success: false, issues };
  return {
    success: true,
    data: { ...(rest.data as Record<string, unknown>), ...Object.fromEntries(checked) },
  };
}
