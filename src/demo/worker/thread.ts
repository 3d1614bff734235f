/**
 * The demo market in a worker thread: the Electron app embeds the demo this way, so its simulated
 * activity, HTTP and WebSocket serving never run on the app's main thread. Started by ./host.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startDemoMarket } from '../index.ts';
import type { DemoThreadData, DemoThreadMessage, DemoThreadRequest } from './protocol.ts';

const port = parentPort;
if (!port) throw new Error('demo/worker/thread.ts runs only as a worker thread');
const post = (message: DemoThreadMessage) => port.postMessage(message);
const data = workerData as DemoThreadData;

try {
  const demo = await startDemoMarket(data.options);
  port.on('message', (request: DemoThreadRequest) => {
    if (request.type === 'setWebhookUrl') {
      demo.setWebhookUrl(request.url).then(
        () => post({ type: 'answer', requestId: request.requestId, error: null }),
        (err: unknown) => post({ type: 'answer', requestId: request.requestId, error: (err as Error).message }),
      );
    } else {
      void demo.close().finally(() => post({ type: 'closed' }));
    }
  });
  post({ type: 'ready', baseUrl: demo.baseUrl, wsUrl: demo.wsUrl, apiKey: demo.apiKey, webhookSecret: demo.webhookSecret });
} catch (err) {
  post({ type: 'failed', message: (err as Error).message });
}
