/** What an export to a file answers: canceled in the save dialog, or saved with its size. */
import { z } from 'zod';

export const savedExport = z.discriminatedUnion('saved', [
  z.strictObject({ saved: z.literal(false) }),
  z.strictObject({
    saved: z.literal(true),
    /** The id its exportProgress pushes carried. */
    exportId: z.string(),
    file: z.string(),
    rows: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
  }),
]);
export type SavedExport = z.infer<typeof savedExport>;
