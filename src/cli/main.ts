// Only light modules here: the commands (and the core under them) load after the stop handling is in
// place, see main() below.
import { UsageError } from './args.ts';
import type { CliCommand } from './command.ts';
import { flushStdout, guardStdout, stdoutFailureText } from './stdout.ts';
import { installStopHandling, stopsOnSignal } from './stop-request.mjs';

const VERSION = '0.1.0';

const loadCommands = async (): Promise<CliCommand[]> => (await import('./commands/index.ts')).COMMANDS;

function help(COMMANDS: CliCommand[]): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length), 4);
  return [
    'skindesk — the Skindesk core without a window',
    '',
    'Usage: skindesk <command> [flags]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `skindesk <command> --help` for its flags. The API key comes from SKINDESK_API_KEY or the OS keychain.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  // Before the command's modules load (bin/skindesk.mjs did it already, before the TypeScript): for
  // sync, watch and demo a signal in that time is a stop request the command honours when it starts
  // (exit 0), not the default death by signal (exit 130/143).
  const stoppable = stopsOnSignal(argv);
  if (stoppable) installStopHandling();
  guardStdout();
  if (name === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const COMMANDS = await loadCommands();
  // usage asked for goes to stdout (exit 0); usage because of a mistake (no command) to stderr (exit 2)
  if (!name) {
    process.stderr.write(`skindesk: no command given\n\n${help(COMMANDS)}\n`);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${help(COMMANDS)}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`skindesk: unknown command '${name}'\n\n${help(COMMANDS)}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  // let a signal that came while the modules loaded reach its handler before the command starts
  if (stoppable) await new Promise((resolve) => setImmediate(resolve));
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`skindesk ${name}: ${err.message}\n\n${command.usage}\n`);
      return 2;
    }
    const { failureText } = await import('./mirror-output.ts');
    process.stderr.write(`skindesk ${name}: ${failureText(name, err)}\n`);
    return 1;
  }
}

/** The command's exit code, unless its output could not be written: then 1, with the reason in one line. */
async function runAndCheckOutput(argv: string[]): Promise<number> {
  const code = await main(argv);
  await flushStdout();
  const failure = stdoutFailureText();
  if (failure === null) return code;
  process.stderr.write(`skindesk${argv[0] ? ` ${argv[0]}` : ''}: ${failure}\n`);
  return code === 0 ? 1 : code;
}

process.exitCode = await runAndCheckOutput(process.argv.slice(2));
