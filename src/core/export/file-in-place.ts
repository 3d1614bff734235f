/**
 * A file written whole or not at all: chunks go to `<file>.partial`, which is renamed into place only
 * once the source has ended; on any failure — the source's (a broken export, a failed read) or the
 * disk's — the partial file is removed. Back-pressure is honoured, so nothing is held in memory.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';

/** The file could not be written (a local problem, not the network's or the server's). */
export class ExportFileError extends Error {
  constructor(file: string, cause: Error) {
    super(`cannot write ${file}: ${cause.message}`, { cause });
    this.name = 'ExportFileError';
  }
}

/** Writes every chunk of `source` to `file`; `onWritten` gets the bytes written so far. Returns the total. */
export async function writeFileInPlace(
  file: string,
  source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  onWritten?: (bytes: number) => void,
): Promise<number> {
  const partial = `${file}.partial`;
  const out = createWriteStream(partial);
  let fileError: ExportFileError | null = null;
  let failFile: (err: ExportFileError) => void = () => {};
  const fileFailed = new Promise<never>((_, reject) => {
    failFile = reject;
  });
  fileFailed.catch(() => undefined);
  // A listener stays attached for the stream's whole life: an 'error' with no listener would crash.
  out.on('error', (err) => {
    fileError ??= new ExportFileError(file, err);
    failFile(fileError);
  });
  const checkFile = () => {
    if (fileError) throw fileError;
  };
  let bytes = 0;
  try {
    for await (const chunk of source) {
      checkFile();
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), fileFailed]);
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
      onWritten?.(bytes);
    }
    checkFile();
    out.end();
    await Promise.race([once(out, 'finish'), fileFailed]);
    try {
      await rename(partial, file);
    } catch (err) {
      throw new ExportFileError(file, err as Error);
    }
    return bytes;
  } catch (err) {
    out.destroy();
    await rm(partial, { force: true });
    throw err;
  }
}
