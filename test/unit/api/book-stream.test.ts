import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.ts';
import { BookBodyScanner } from '../../../src/core/api/book-scanner.ts';
import { ManualClock } from '../../../src/core/api/clock.ts';
import { BookBodyError, readBookBody } from '../../../src/core/api/book-stream.ts';
import { ListingColumns } from '../../../src/core/api/listing-columns.ts';
import { apiSources } from '../../../src/core/sync/sources.ts';
import { failure, leanRow as lean, sendJson, serverAndClientForEachTest, startFakeServer, TEST_KEY as KEY, TS, type FakeServer } from './fake-server.ts';

const encoder = new TextEncoder();


/** Names that break naive scanners: quotes, brackets, braces, the cut pattern itself, escapes, unicode. */
const TRICKY_NAMES = [
  'plain',
  'a "quoted" name',
  'brackets ] [ and } { braces',
  'the cut itself: },{"id":99,"app_id":730}',
  'spaced cut } , {',
  'backslash at the end \\',
  'escaped backslash then quote \\"',
  '★ StatTrak™ Karambit | Doppler (Factory New) ★',
  'emoji 🔥 and CJK 龍 and accents éàü',
  '\u0000 control \n\t characters',
];

const tricky = () => TRICKY_NAMES.map((name, i) => lean(i + 1, { market_hash_name: name, created_at: `2026-0${(i % 9) + 1}-15T1${i % 10}:30:0${i % 10}.${i}${i}${i}Z` }));

/** The lean fields only, as ListingColumns gives them back. */
const leanFields = (rows: Record<string, unknown>[]) =>
  rows.map(({ id, app_id, market_hash_name, price, amount, commodity, created_at }) => ({ id, app_id, market_hash_name, price, amount, commodity, created_at }));

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++] as Uint8Array);
      else controller.close();
    },
  });
}

/** Reads `bytes` cut at each of `cuts`, with pieces of `pieceBytes`. */
function read(bytes: Uint8Array, cuts: number[] = [], pieceBytes?: number) {
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const cut of cuts) {
    chunks.push(bytes.slice(from, cut));
    from = cut;
  }
  chunks.push(bytes.slice(from));
  return readBookBody(streamOf(chunks), pieceBytes);
}

async function readError(bytes: Uint8Array, cuts: number[] = [], pieceBytes?: number): Promise<BookBodyError> {
  try {
    await read(bytes, cuts, pieceBytes);
  } catch (err) {
    expect(err).toBeInstanceOf(BookBodyError);
    return err as BookBodyError;
  }
  throw new Error('expected the body to be refused');
}

describe('how far a /book read has come', () => {
  it('tells the listings checked and the bytes received as the body arrives, up to all of both', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => lean(i + 1));
    const bytes = encoder.encode(`{"seq":7,"listings":${JSON.stringify(rows)}}`);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 4096) }, (_, i) => bytes.slice(i * 4096, (i + 1) * 4096));
    const seen: { rows: number; bytes: number }[] = [];
    const book = await readBookBody(streamOf(chunks), 2048, (progress) => seen.push(progress));
    // one report per chunk received, and the last once the final piece is checked
    expect(seen).toHaveLength(chunks.length + 1);
    expect(seen.at(-1)).toEqual({ rows: 300, bytes: bytes.length });
    expect(seen.slice(0, -1).map((p) => p.bytes)).toEqual(chunks.map((_, i) => Math.min((i + 1) * 4096, bytes.length)));
    // the listings are counted as their pieces are checked, so the count climbs before the end
    expect(seen.some((p) => p.rows > 0 && p.rows < 300)).toBe(true);
    expect(book.listings.length).toBe(300);
  });
});

describe('the /book scanner: any cut of the body, any piece size, reads the same book', () => {
  const rows = tricky();
  const bodies = {
    'seq first': `{"seq":9007199254740993,"listings":${JSON.stringify(rows)}}`,
    'seq last, whitespace everywhere': ` \n{ "listings" :\n [ ${rows.map((r) => JSON.stringify(r, null, 1)).join(' ,\n ')} ] ,\t"seq" : 9223372036854775807 }\n`,
    'unknown members around, nested values with the cut pattern': `{"note":{"a":[{"x":1},{"y":"},{"}]},"listings":${JSON.stringify(rows)},"extra":[{"b":2},{"c":[]}],"seq":42}`,
  };
  const seqs: Record<keyof typeof bodies, bigint> = {
    'seq first': 9007199254740993n,
    'seq last, whitespace everywhere': 2n ** 63n - 1n,
    'unknown members around, nested values with the cut pattern': 42n,
  };

  for (const [label, text] of Object.entries(bodies) as [keyof typeof bodies, string][]) {
    it(`${label}: cut at every byte, pieces of 1 byte, 400 bytes and 48 KiB`, async () => {
      const bytes = encoder.encode(text);
      // Compared as text: a deep equality per cut would cost more than the reads themselves.
      const expected = JSON.stringify(leanFields(rows));
      expect(JSON.parse(expected)).toEqual(rows);
      for (const pieceBytes of [1, 400, 48 * 1024]) {
        for (let cut = 0; cut <= bytes.length; cut++) {
          const book = await read(bytes, [cut], pieceBytes);
          expect(book.seq).toBe(seqs[label]);
          expect(JSON.stringify(book.listings.toArray())).toBe(expected);
        }
      }
    });
  }

  it('cuts by guess where it can, and by the exact scan where a name holds the cut pattern', () => {
    const many = Array.from({ length: 200 }, (_, i) => lean(i + 1, { market_hash_name: TRICKY_NAMES[i % TRICKY_NAMES.length] }));
    const bytes = encoder.encode(`{"seq":1,"listings":${JSON.stringify(many)}}`);
    const ids: number[] = [];
    const scanner = new BookBodyScanner({ listings: (values) => ids.push(...values.map((v) => (v as { id: number }).id)) }, 700);
    for (let i = 0; i < bytes.length; i += 512) scanner.push(bytes.subarray(i, i + 512));
    expect(scanner.finish()).toMatchObject({ seq: 1n, listingsArray: true, count: 200 });
    expect(ids).toEqual(many.map((l) => l.id));
    expect(scanner.pieces.guessed).toBeGreaterThan(10);
    expect(scanner.pieces.exact).toBeGreaterThan(0);
  });

  it('byte by byte, every multi-byte character split across chunks', async () => {
    const bytes = encoder.encode(bodies['seq first']);
    const book = await read(bytes, Array.from({ length: bytes.length - 1 }, (_, i) => i + 1), 8);
    expect(book.listings.toArray()).toEqual(leanFields(rows));
  });

  it('many listings in many pieces keep their order; the seq is exact beyond 2^53', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => lean(i + 1, { price: 100 + i, market_hash_name: TRICKY_NAMES[i % TRICKY_NAMES.length] }));
    const bytes = encoder.encode(`{"listings":${JSON.stringify(many)},"seq":1900000000000000123}`);
    const cuts = Array.from({ length: Math.floor(bytes.length / 4093) }, (_, i) => (i + 1) * 4093);
    const book = await read(bytes, cuts, 2048);
    expect(book.seq).toBe(1900000000000000123n);
    expect(book.listings.length).toBe(3000);
    expect(book.listings.toArray()).toEqual(leanFields(many));
  });

  it('an empty book, however it is spaced', async () => {
    for (const text of ['{"seq":5,"listings":[]}', '{ "listings" : [ ] , "seq" : 5 }', '\ufeff{"seq":5,"listings":[\n]}']) {
      const book = await read(encoder.encode(text));
      expect(book.seq).toBe(5n);
      expect(book.listings.length).toBe(0);
    }
  });

  it('integer-valued seq written as a double is read as its integer; keys may be escaped', async () => {
    expect((await read(encoder.encode('{"seq":1e3,"listings":[]}'))).seq).toBe(1000n);
    expect((await read(encoder.encode('{"s\\u0065q":7,"listings":[]}'))).seq).toBe(7n);
  });
});

describe('malformed, truncated or contract-breaking bodies are refused whole', () => {
  const good = `{"seq":12,"listings":${JSON.stringify(tricky())}}`;

  it('every truncation of a valid body is refused', async () => {
    const bytes = encoder.encode(good);
    for (let end = 0; end < bytes.length; end++) {
      const error = await readError(bytes.slice(0, end), [Math.floor(end / 2)], 40);
      expect(error.message).toMatch(/not valid JSON|ends early|not a JSON object/);
    }
  });

  it.each([
    ['not an object', '[1,2]'],
    ['html', '<html>busy</html>'],
    ['trailing comma in listings', '{"seq":1,"listings":[{"id":1},]}'],
    ['missing comma between listings', '{"seq":1,"listings":[{"id":1} {"id":2}]}'],
    ['missing comma between members', '{"seq":1 "listings":[]}'],
    ['bad literal', '{"seq":1,"listings":[tru]}'],
    ['unterminated string', '{"seq":1,"listings":[{"market_hash_name":"abc}]}'],
    ['mismatched brackets', '{"seq":1,"listings":[{"id":1]]}'],
    ['data after the object', '{"seq":1,"listings":[]} {}'],
    ['two listings members', '{"seq":1,"listings":[],"listings":[]}'],
  ])('%s', async (_label, text) => {
    const error = await readError(encoder.encode(text), [], 4);
    expect(error.message).not.toContain('{');
  });

  it('a listing that breaks the contract in a middle piece refuses the snapshot, naming the row', async () => {
    const many = Array.from({ length: 2000 }, (_, i) => lean(i + 1));
    many[1234] = lean(1235, { price: '12.50' });
    const error = await readError(encoder.encode(`{"seq":3,"listings":${JSON.stringify(many)}}`), [], 4096);
    expect(error.message).toContain('listings.1234.price');
  });

  it('seq missing, out of int64, or not an integer breaks the contract', async () => {
    for (const seq of ['', '"seq":9223372036854775808,', '"seq":1.5,', '"seq":"12",']) {
      const error = await readError(encoder.encode(`{${seq}"listings":[]}`));
      expect(error.message).toContain('seq');
    }
    expect((await readError(encoder.encode('{"seq":1,"listings":null}'))).message).toContain('listings');
    expect((await readError(encoder.encode('{"seq":1}'))).message).toContain('listings');
  });
});

describe('ListingColumns', () => {
  it('gives back every lean field exactly, including timestamps that are not in the canonical form', () => {
    const times = [TS, '2024-02-29T23:59:59.999Z', '2026-11-21T09:00:00Z', '2026-11-21T11:00:00.000+02:00', '2026-11-21T09:00:00.5Z', '1969-12-31T23:59:59.999Z'];
    const rows = times.map((created_at, i) => lean(i + 1, { created_at, commodity: i % 2 === 0, amount: 2 ** 40 + i, price: 2 ** 50 + i }));
    const columns = ListingColumns.from(rows);
    expect(columns.toArray()).toEqual(leanFields(rows));
    expect(columns.at(3).created_at).toBe('2026-11-21T11:00:00.000+02:00');
  });

  it('crosses block boundaries and counts its memory', () => {
    const rows = Array.from({ length: 70_000 }, (_, i) => lean(i + 1, { market_hash_name: `item ${i % 500}` }));
    const columns = ListingColumns.from(rows);
    expect(columns.length).toBe(70_000);
    expect(columns.at(69_999)).toEqual(leanFields([rows[69_999] as Record<string, unknown>])[0]);
    expect(columns.bytes).toBeGreaterThan(2 * 65_536 * 41);
    expect(columns.bytes).toBeLessThan(8 * 1024 * 1024);
  });
});

/** client.book() as the sync engine's source calls it, with its progress listener. */
async function apiSourcesBook(client: ApiClient, onProgress: (progress: { rows: number; bytes: number }) => void) {
  const answer = await apiSources(client).fetchBook(undefined, new AbortController().signal, onProgress);
  return { snapshot: { seq: answer.seq, listings: answer.listings as ListingColumns }, fromCache: answer.fromCache, etag: answer.etag };
}

describe('ApiClient.book() streams the body', () => {
  let server: FakeServer;
  let client: ApiClient;
  serverAndClientForEachTest((made) => {
    ({ server, client } = made);
  });

  it('reads a body sent in small writes, seq after the listings', async () => {
    const rows = tricky();
    const text = `{"listings":${JSON.stringify(rows)},"seq":1900000000000000123}`;
    server.on('book', async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', etag: '"v1"' });
      const bytes = Buffer.from(text);
      for (let i = 0; i < bytes.length; i += 97) {
        res.write(bytes.subarray(i, i + 97));
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    });
    const progress: { rows: number; bytes: number }[] = [];
    const { snapshot, fromCache, etag } = await apiSourcesBook(client, (p) => progress.push(p));
    expect(fromCache).toBe(false);
    expect(etag).toBe('"v1"');
    expect(snapshot.seq).toBe(1900000000000000123n);
    expect(snapshot.listings.toArray()).toEqual(leanFields(rows));
    // the engine's source hears the read move on, to the whole body
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toEqual({ rows: rows.length, bytes: Buffer.byteLength(text) });
  });

  it('a contract break in a middle piece is invalid_response in plain words, and the engine gets no rows', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => lean(i + 1));
    many[2500] = lean(2501, { app_id: 1 });
    server.on('book', (_req, res) => sendJson(res, 200, `{"seq":7,"listings":${JSON.stringify(many)}}`));
    const error = await failure(apiSources(client).fetchBook(undefined, new AbortController().signal));
    expect(error).toMatchObject({ kind: 'invalid_response', route: 'GET /public/v1/book', status: 200 });
    expect(error.message).toContain('listings.2500.app_id');
    expect(error.message).not.toContain(KEY);
  });

  it('a body cut short by the server is refused', async () => {
    server.on('book', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"seq":7,"listings":[${JSON.stringify(lean(1))},`);
    });
    const error = await failure(client.book());
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toContain('ends early');
  });

  it('a body that stalls half way is a timeout', async () => {
    const slow = new ApiClient({ baseUrl: server.baseUrl, apiKey: KEY, timeoutMs: 200 });
    server.on('book', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"seq":7,"listings":[${JSON.stringify(lean(1))},`);
    });
    const error = await failure(slow.book());
    expect(error).toMatchObject({ kind: 'timeout', maybeDelivered: true });
  });

  it('errors keep their kinds: 429 retried, 401 typed', async () => {
    let calls = 0;
    server.on('book', (_req, res) => {
      calls++;
      if (calls === 1) sendJson(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, { 'retry-after': '0' });
      else sendJson(res, 401, { error: { code: 'UNAUTHORIZED', message: 'bad key' } });
    });
    const error = await failure(client.book());
    expect(error).toMatchObject({ kind: 'api', status: 401, code: 'UNAUTHORIZED' });
    expect(calls).toBe(2);
  });
});

/**
 * The client's default limit (10 s) is a limit on silence, not on the whole download: a million-listing
 * book is ~160 MB, minutes on a 100 Mbit/s line. The client runs on a ManualClock the server moves on as
 * it writes, so "16 s of download" takes milliseconds; the client is built as the sync worker builds it
 * (no timeoutMs) and read through the engine's source.
 */
describe('a /book download is limited by silence, not by its total time', () => {
  let server: FakeServer;
  let clock: ManualClock;
  let client: ApiClient;
  beforeEach(async () => {
    server = await startFakeServer();
    clock = new ManualClock();
    client = new ApiClient({ baseUrl: server.baseUrl, apiKey: KEY, clock });
  });
  afterEach(async () => {
    await server.close();
  });

  const rows = Array.from({ length: 40 }, (_, i) => lean(i + 1));
  const text = `{"seq":42,"listings":${JSON.stringify(rows)}}`;
  const pieces = (count: number) => {
    const size = Math.ceil(text.length / count);
    return Array.from({ length: count }, (_, i) => text.slice(i * size, (i + 1) * size));
  };
  /** Lets the client take in what was written before the clock moves on. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('a body that keeps arriving, 2 s between chunks, is read whole although it takes 16 s', async () => {
    const started = clock.now();
    server.on('book', async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (const piece of pieces(8)) {
        await clock.advance(2000);
        res.write(piece);
        await settle();
      }
      res.end();
    });
    const answer = await apiSources(client).fetchBook(undefined, new AbortController().signal);
    expect(answer.seq).toBe(42n);
    expect((answer.listings as ListingColumns).toArray()).toEqual(leanFields(rows));
    expect(clock.now() - started).toBeGreaterThanOrEqual(16_000);
  });

  it('a body that stops arriving is a timeout after 10 s of silence, however long it ran before', async () => {
    server.on('book', async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (const piece of pieces(8).slice(0, 6)) {
        await clock.advance(2000);
        res.write(piece);
        await settle();
      }
      await clock.advance(10_000); // then nothing more
    });
    const progress: { rows: number; bytes: number }[] = [];
    const error = await failure(apiSources(client).fetchBook(undefined, new AbortController().signal, (p) => progress.push(p)));
    expect(error).toMatchObject({ kind: 'timeout', route: 'GET /public/v1/book', maybeDelivered: true });
    expect(error.message).toContain('nothing received for 10000 ms');
    // it had read six pieces (12 s) before the silence
    expect(progress.at(-1)?.bytes).toBe(pieces(8).slice(0, 6).join('').length);
  });

  it('headers that never come are a timeout after 10 s', async () => {
    server.on('book', async () => {
      await settle();
      await clock.advance(10_000);
    });
    const error = await failure(client.book());
    expect(error).toMatchObject({ kind: 'timeout', route: 'GET /public/v1/book' });
    expect(error.message).toContain('no answer within 10000 ms');
  });
});
