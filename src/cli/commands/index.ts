import type { CliCommand } from '../command.ts';

/** Every command of the CLI; each lives in its own module. */
export const COMMANDS: CliCommand[] = [];
