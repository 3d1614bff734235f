/**
 * stdout (and stderr) as the scripts that read the CLI see them. A reader that goes away (`| head -1`, a
 * closed pipe) ends the output quietly; any other failure to write (a full disk: `book > book.csv`) is told in one
 * line by main, with exit code 1. One listener for the whole process, installed before anything is
 * written: without it, the stream's 'error' event ended the process with a stack trace.
 */
import { once } from 'node:events';

let installed = false;
let readerGone = false;
let failure: NodeJS.ErrnoException | null = null;
const whenGone = new Set<() => void>();

export function guardStdout(): void {
  if (installed) return;
  installed = true;
  // stderr carries progress and warnings only: a reader that leaves it (`2>&1 | head`, a log pipe that
  // died) must not end a sync or a watch with an unhandled 'error' event. Later lines are lost, as they
  // would be on a closed terminal; the command runs on and says what it has to on stdout.
  process.stderr.on('error', () => {});
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    const first = !stdoutGone();
    if (err.code === 'EPIPE') readerGone = true;
    else failure ??= err;
    if (first) for (const listener of whenGone) listener();
  });
}

/** Nothing more can be written: the reader went away, or writing failed. */
export function stdoutGone(): boolean {
  return readerGone || failure !== null;
}

/** Calls `listener` once stdout is gone (a command that runs until stopped stops then); returns the undo. */
export function onStdoutGone(listener: () => void): () => void {
  whenGone.add(listener);
  return () => whenGone.delete(listener);
}

/** Why the output could not be written, in words; null when it could (or the reader merely left). */
export function stdoutFailureText(): string | null {
  if (failure === null) return null;
  const why = failure.code === 'ENOSPC' ? 'no space left on the device' : failure.message;
  return `could not write the output (${why})`;
}

/** Writes `text` unless stdout is gone, honouring back-pressure. */
export async function writeOut(text: string): Promise<void> {
  if (stdoutGone() || text === '') return;
  // a reader that leaves while we wait rejects the wait for 'drain' (and the listener above records it)
  if (!process.stdout.write(text)) await once(process.stdout, 'drain').catch(() => {});
}

/**
 * Resolves once what was written has reached the file or pipe (or failed): a failure of the last small
 * write (`status > full-disk-file`) shows only after the command returned.
 */
export async function flushStdout(): Promise<void> {
  if (!stdoutGone()) await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  await new Promise((resolve) => setImmediate(resolve));
}

/** One line, without waiting (a JSON line of `watch` or `buy`); nothing once stdout is gone. */
export function writeLine(text: string): void {
  if (!stdoutGone()) process.stdout.write(`${text}\n`);
}
