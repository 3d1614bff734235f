/**
 * Starts the demo market in a worker thread (./thread.ts) and hands back what a client needs of it: its
 * addresses, the demo account's key and webhook secret, the webhook registration, and close.
 */
import { Worker } from 'node:worker_threads';
import type { RunningDemoMarket } from '../../shared/demo-market.ts';
import type { DemoThreadData, DemoThreadMessage, DemoThreadRequest } from './protocol.ts';

export type DemoMarketThread = RunningDemoMarket;

/**
 * The thread's young generation at most (MB). Uncapped, V8 left ~150 MB committed after building the
 * opening book (200 MB for a million listings) around 60–75 MB of live objects, for a minute or more;
 * capped, 76–88 MB, and the market was ready as soon.
 */
const DEMO_THREAD_YOUNG_GENERATION_MB = 16;

export interface DemoThreadOptions extends DemoThreadData {
  /** The thread's script: the source file by default; the Electron build passes its bundled one. */
  workerFile?: URL;
  /** How long close() waits for a clean stop before terminating the thread. */
  closeTimeoutMs?: number;
}

export function startDemoMarketThread(o: DemoThreadOptions): Promise<DemoMarketThread> {
  const worker = new Worker(o.workerFile ?? new URL('./thread.ts', import.meta.url), {
    workerData: { options: o.options } satisfies DemoThreadData,
    resourceLimits: { maxYoungGenerationSizeMb: DEMO_THREAD_YOUNG_GENERATION_MB },
  });
  const pending = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let nextRequest = 1;
  let closing: Promise<void> | null = null;
  const send = (request: DemoThreadRequest) => worker.postMessage(request);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => {
    for (const p of pending.values()) p.reject(new Error('the demo market stopped'));
    pending.clear();
  });

  return new Promise((resolve, reject) => {
    const onEarlyExit = (code: number) => reject(new Error(`the demo market thread exited before it was ready (code ${code})`));
    worker.once('exit', onEarlyExit);
    worker.once('error', reject);
    worker.on('message', (m: DemoThreadMessage) => {
      switch (m.type) {
        case 'ready':
          worker.off('exit', onEarlyExit);
          resolve({
            baseUrl: m.baseUrl,
            wsUrl: m.wsUrl,
            apiKey: m.apiKey,
            webhookSecret: m.webhookSecret,
            stopped: exited,
            setWebhookUrl: (url) =>
              new Promise<void>((done, fail) => {
                const requestId = nextRequest++;
                pending.set(requestId, { resolve: done, reject: fail });
                send({ type: 'setWebhookUrl', requestId, url });
              }),
            close: () => {
              closing ??= (async () => {
                const timer = setTimeout(() => void worker.terminate(), o.closeTimeoutMs ?? 5_000);
                send({ type: 'close' });
                await exited;
                clearTimeout(timer);
              })();
              return closing;
            },
          });
          break;
        case 'failed':
          reject(new Error(`the demo market could not start: ${m.message}`));
          void worker.terminate();
          break;
        case 'answer': {
          const p = pending.get(m.requestId);
          pending.delete(m.requestId);
          if (m.error === null) p?.resolve();
          else p?.reject(new Error(m.error));
          break;
        }
        case 'closed':
          void worker.terminate();
          break;
      }
    });
  });
}
