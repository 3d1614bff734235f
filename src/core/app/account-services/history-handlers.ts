/**
 * Orders (paged, and exported whole as CSV or JSON through a save dialog, streamed to disk with
 * progress) and the balance ledger with its running balance.
 */
import { randomUUID } from 'node:crypto';
import type { ACCOUNT_CALLS } from '../../../shared/ipc/calls-account.ts';
import { type ExportProgress, type IpcPushName, type IpcPushPayload, SkindeskError } from '../../../shared/ipc/index.ts';
import { ExportFileError } from '../../api/export-stream.ts';
import type { AreaHandlers } from '../handlers/types.ts';
import type { AppPlatform } from '../platform.ts';
import type { AccountRuntime } from './account-runtime.ts';
import { freshnessOf, pageQuery } from './views.ts';

export interface HistoryHost {
  platform: AppPlatform;
  publish: <P extends IpcPushName>(name: P, payload: IpcPushPayload<P>) => void;
}

export function historyHandlers(
  runtime: AccountRuntime,
  host: HistoryHost,
): AreaHandlers<Pick<typeof ACCOUNT_CALLS, 'getOrders' | 'exportOrders' | 'getTransactions'>> {
  return {
    getOrders: async ({ page, limit }) => {
      const read = await runtime.account().reads.orders(pageQuery(page, limit));
      return { orders: read.data.orders, metadata: read.data.metadata, freshness: freshnessOf(read) };
    },

    getTransactions: async ({ page, limit }) => {
      const read = await runtime.account().reads.transactions(pageQuery(page, limit));
      return { transactions: read.data.transactions, metadata: read.data.metadata, freshness: freshnessOf(read) };
    },

    exportOrders: async ({ format, side, appId, from, to }) => {
      const client = runtime.account().client();
      const parts = ['skindesk-orders', side, appId, from && `from-${from}`, to && `to-${to}`].filter(Boolean);
      const file = await host.platform.chooseSaveFile({
        title: 'Export orders',
        defaultName: `${parts.join('-')}.${format}`,
        filters: [format === 'csv' ? { name: 'CSV', extensions: ['csv'] } : { name: 'JSON', extensions: ['json'] }],
      });
      if (file === null) return { saved: false as const };
      const exportId = randomUUID();
      const progress = (p: Omit<ExportProgress, 'exportId'>) => host.publish('exportProgress', { exportId, ...p });
      progress({ state: 'running', bytes: 0, totalBytes: null, rows: 0, problem: null });
      try {
        const result = await client.exportOrders(
          file,
          {
            format,
            ...(side !== null ? { side } : {}),
            ...(appId !== null ? { app_id: String(appId) } : {}),
            ...(from !== null ? { from } : {}),
            ...(to !== null ? { to } : {}),
          },
          (p) => progress({ state: 'running', bytes: p.bytes, totalBytes: p.totalBytes, rows: p.rows, problem: null }),
          { priority: 'interactive' },
        );
        progress({ state: 'done', bytes: result.bytes, totalBytes: result.bytes, rows: result.rows, problem: null });
        return { saved: true as const, exportId, file: result.file, rows: result.rows, bytes: result.bytes };
      } catch (err) {
        const problem =
          err instanceof ExportFileError ? `The file could not be written: ${err.message}` : 'The export stopped; the partial file was removed.';
        progress({ state: 'failed', bytes: 0, totalBytes: null, rows: 0, problem });
        if (err instanceof ExportFileError) throw new SkindeskError({ code: 'REFUSED', message: problem });
        throw err;
      }
    },
  };
}
