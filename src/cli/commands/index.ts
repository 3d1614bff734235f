import type { CliCommand } from '../command.ts';
import { buyCommand } from './buy.ts';
import { demoCommand } from './demo.ts';

/** Every command of the CLI; each lives in its own module. */
export const COMMANDS: CliCommand[] = [buyCommand, demoCommand];
