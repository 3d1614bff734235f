/**
 * The demo market in a worker thread (how the Electron app embeds it): it serves the spec from the
 * thread, takes a webhook registration, closes, and tells its host when it ends on its own; the bundled
 * script of the Electron build (out/main/demo-worker.js, made by `npm run build`, which npm test runs
 * first) does the same.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type DemoMarketThread, startDemoMarketThread } from '../../../src/demo/index.ts';

const BUNDLED = join(import.meta.dirname, '../../../out/main/demo-worker.js');

let demo: DemoMarketThread | null = null;
afterEach(async () => {
  await demo?.close();
  demo = null;
});

async function exercise(thread: DemoMarketThread): Promise<void> {
  const auth = { authorization: `Bearer ${thread.apiKey}` };
  const book = (await (await fetch(`${thread.baseUrl}/public/v1/book`, { headers: auth })).json()) as { seq: unknown; listings: unknown[] };
  expect(book.listings.length).toBeGreaterThanOrEqual(300);
  expect(thread.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\//);
  expect(thread.webhookSecret.length).toBeGreaterThan(10);
  await thread.setWebhookUrl('http://127.0.0.1:9/hooks');
  await expect(thread.setWebhookUrl('not a url')).rejects.toThrow();
  await thread.close();
  await thread.stopped;
  await expect(fetch(`${thread.baseUrl}/public/v1/book`, { headers: auth })).rejects.toThrow();
}

describe('the demo market in a worker thread', () => {
  it('serves, takes a webhook URL and closes', async () => {
    demo = await startDemoMarketThread({ options: { port: 0, host: '127.0.0.1', listings: 300, rate: 0, seed: 2 } });
    await exercise(demo);
  });

  it('runs the same from the bundled script of the Electron build', async () => {
    expect(existsSync(BUNDLED), `${BUNDLED} is missing: run \`npm run build\` first`).toBe(true);
    demo = await startDemoMarketThread({
      options: { port: 0, host: '127.0.0.1', listings: 300, rate: 0, seed: 2 },
      workerFile: pathToFileURL(BUNDLED),
    });
    await exercise(demo);
  });

  it('tells its host when the thread ends on its own', async () => {
    demo = await startDemoMarketThread({
      options: { port: 0, host: '127.0.0.1' },
      workerFile: new URL('./fixtures/dying-demo-thread.mjs', import.meta.url),
    });
    let stopped = false;
    void demo.stopped.then(() => (stopped = true));
    await vi.waitFor(() => expect(stopped).toBe(true), { timeout: 5_000 });
  });

  it('reports a market that cannot start', async () => {
    await expect(startDemoMarketThread({ options: { port: 0, host: '127.0.0.1', listings: -5 } })).rejects.toThrow(/could not start/);
  });
});
