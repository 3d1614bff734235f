/**
 * Demo market at scale (issue 3): a 1,000,000-listing market starts, and GET /book of the whole book is
 * answered — request to last byte, snapshot build included — with the market running. Goal: < 5 s.
 * Prints one JSON line on stdout: demo_startup_1m_ms, demo_book_1m_ms, demo_book_1m_mb.
 */
import { startDemoMarket } from '../../src/demo/index.ts';

const LISTINGS = 1_000_000;
const market = await startDemoMarket({ port: 0, listings: LISTINGS, rate: 0, seed: 1, rateLimits: false });
try {
  market.runActivity(1_000); // the snapshot cache must be rebuilt from a changed book, not served stale
  const started = performance.now();
  const res = await fetch(`${market.baseUrl}/public/v1/book`, { headers: { authorization: `Bearer ${market.apiKey}` } });
  const bytes = await res.arrayBuffer();
  const answeredMs = performance.now() - started;
  if (res.status !== 200) throw new Error(`GET /book answered ${res.status}`);
  process.stdout.write(
    `${JSON.stringify({
      demo_startup_1m_ms: Math.round(market.startupMs),
      demo_book_1m_ms: Math.round(answeredMs),
      demo_book_1m_mb: Math.round(bytes.byteLength / 1e6),
    })}\n`,
  );
} finally {
  await market.close();
}
