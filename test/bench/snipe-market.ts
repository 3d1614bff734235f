/**
 * The demo market of the snipe benchmark, in its own process (so its 5,000 events/s are not measured as
 * the client's latency): started with the options given in argv[2] (JSON), it reports its address to the
 * parent, then creates the target listings the parent asks for through the harness hooks.
 */
import { startDemoMarket } from '../../src/demo/index.ts';

export type SnipeMarketRequest = { type: 'create'; name: string; price: number } | { type: 'stop' };
export type SnipeMarketMessage =
  | { type: 'ready'; baseUrl: string; wsUrl: string; apiKey: string; names: { name: string; price: number }[] }
  | { type: 'created'; id: number; seq: string }
  | { type: 'error'; message: string };

const send = (m: SnipeMarketMessage) => process.send?.(m);

const options = JSON.parse(process.argv[2] ?? '{}') as { rate: number; listings: number; seed: number };
// The purchase limit (30/min) is lifted so one run collects a few hundred samples: no 429s, and
// rate-limit headers counted over windows 60,000 times shorter (a millisecond for 30 a minute).
const demo = await startDemoMarket({ port: 0, rateLimits: false, rateLimitScale: 60_000, reorder: 0, duplicate: 0, ...options });

// Expensive single-copy items: the background never prices one far below its usual price, so only the
// benchmark's own listings match the watchlist.
const byName = new Map<string, number>();
for (const l of demo.state.book().listings) {
  if (!l.commodity && l.price >= 20_000 && !byName.has(l.market_hash_name)) byName.set(l.market_hash_name, l.price);
}
const names = [...byName].slice(0, 20).map(([name, price]) => ({ name, price }));
send({ type: 'ready', baseUrl: demo.baseUrl, wsUrl: demo.wsUrl, apiKey: demo.apiKey, names });

process.on('message', (m: SnipeMarketRequest) => {
  if (m.type === 'stop') {
    void demo.close().then(() => process.exit(0));
    return;
  }
  try {
    const created = demo.createListing({ name: m.name, price: m.price });
    send({ type: 'created', id: created.listing.id, seq: demo.state.seq().toString() });
  } catch (err) {
    send({ type: 'error', message: (err as Error).message });
  }
});
process.on('disconnect', () => void demo.close().then(() => process.exit(0)));
