/**
 * One export to a file the user picks: the save dialog, progress pushed while it writes (exportProgress),
 * and the outcome in plain words. A disk problem is the user's to fix (REFUSED, with the reason); any
 * other failure removed the partial file and is rethrown as it is.
 */
import { randomUUID } from 'node:crypto';
import type { ExportProgress, IpcPushName, IpcPushPayload } from '../../../shared/ipc/index.ts';
import { SkindeskError } from '../../../shared/ipc/index.ts';
import { ExportFileError } from '../../export/file-in-place.ts';
import type { AppPlatform, SaveFileRequest } from '../platform.ts';

export interface ExportHost {
  platform: AppPlatform;
  publish: <P extends IpcPushName>(name: P, payload: IpcPushPayload<P>) => void;
}

export type ExportOutcome =
  { saved: false } | { saved: true; exportId: string; file: string; rows: number; bytes: number };

type Progress = Omit<ExportProgress, 'exportId' | 'state' | 'problem'>;

export async function runFileExport(
  host: ExportHost,
  dialog: SaveFileRequest,
  write: (
    file: string,
    progress: (p: Progress) => void,
  ) => Promise<{ file: string; rows: number; bytes: number }>,
): Promise<ExportOutcome> {
  const file = await host.platform.chooseSaveFile(dialog);
  if (file === null) return { saved: false };
  const exportId = randomUUID();
  const publish = (p: Omit<ExportProgress, 'exportId'>) => host.publish('exportProgress', { exportId, ...p });
  publish({ state: 'running', bytes: 0, totalBytes: null, rows: 0, problem: null });
  try {
    const result = await write(file, (p) => publish({ state: 'running', ...p, problem: null }));
    publish({
      state: 'done',
      bytes: result.bytes,
      totalBytes: result.bytes,
      rows: result.rows,
      problem: null,
    });
    return { saved: true, exportId, file: result.file, rows: result.rows, bytes: result.bytes };
  } catch (err) {
    const problem =
      err instanceof ExportFileError
        ? `The file could not be written: ${err.message}`
        : 'The export stopped; the partial file was removed.';
    publish({ state: 'failed', bytes: 0, totalBytes: null, rows: 0, problem });
    if (err instanceof ExportFileError) throw new SkindeskError({ code: 'REFUSED', message: problem });
    throw err;
  }
}
