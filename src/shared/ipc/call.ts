/** The shape of one IPC call declaration; the areas' call tables (calls-*.ts) are built with it. */
import type { z } from 'zod';

export interface CallDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
  /** One line: what the call does. */
  summary: string;
  /** A valid input, for the contract tests and as documentation. */
  example: z.input<I>;
  /** The input holds a secret: it is never logged, and errors never quote it. */
  sensitiveInput?: boolean;
}

export function call<I extends z.ZodType, O extends z.ZodType>(def: CallDef<I, O>): CallDef<I, O> {
  return def;
}
