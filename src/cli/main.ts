import { COMMANDS } from './commands/index.ts';
import { UsageError } from './args.ts';
import { failureText } from './mirror-output.ts';

const VERSION = '0.1.0';

function help(): string {
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
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${help()}\n`);
    return name ? 0 : 2;
  }
  if (name === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`skindesk: unknown command '${name}'\n\n${help()}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`skindesk ${name}: ${err.message}\n\n${command.usage}\n`);
      return 2;
    }
    process.stderr.write(`skindesk ${name}: ${failureText(name, err)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
