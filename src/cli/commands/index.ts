import type { CliCommand } from '../command.ts';
import { buyCommand } from './buy.ts';
import { demoCommand } from './demo.ts';
import { bookCommand } from './book.ts';
import { salesCommand } from './sales.ts';
import { searchCommand } from './search.ts';
import { statusCommand } from './status.ts';
import { syncCommand } from './sync.ts';
import { watchCommand } from './watch.ts';

/** Every command of the CLI; each lives in its own module. */
export const COMMANDS: CliCommand[] = [buyCommand, demoCommand, syncCommand, bookCommand, statusCommand, searchCommand, salesCommand, watchCommand];
