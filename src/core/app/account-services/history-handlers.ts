/**
 * Orders (paged, and exported whole as CSV or JSON through a save dialog, streamed to disk with
 * progress) and the balance ledger with its running balance.
 */
import type { ACCOUNT_CALLS } from '../../../shared/ipc/calls-account.ts';
import { type ExportHost, runFileExport } from '../exports/file-export.ts';
import type { AreaHandlers } from '../handlers/types.ts';
import type { AccountRuntime } from './account-runtime.ts';
import { freshnessOf, pageQuery } from './views.ts';

export function historyHandlers(
  runtime: AccountRuntime,
  host: ExportHost,
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
      const dialog = {
        title: 'Export orders',
        defaultName: `${parts.join('-')}.${format}`,
        filters: [format === 'csv' ? { name: 'CSV', extensions: ['csv'] } : { name: 'JSON', extensions: ['json'] }],
      };
      return runFileExport(host, dialog, (file, progress) =>
        client.exportOrders(
          file,
          {
            format,
            ...(side !== null ? { side } : {}),
            ...(appId !== null ? { app_id: String(appId) } : {}),
            ...(from !== null ? { from } : {}),
            ...(to !== null ? { to } : {}),
          },
          (p) => progress({ bytes: p.bytes, totalBytes: p.totalBytes, rows: p.rows }),
          { priority: 'interactive' },
        ),
      );
    },
  };
}
