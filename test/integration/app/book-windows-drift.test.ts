/**
 * The grid's windows after the book changed around the anchors (keyset cursors every 200th row): every
 * listing shown exactly once at its row, whether listings were created ahead of the anchors (newest
 * first, the default sort), removed ahead of them, or both in equal numbers; and the total the last
 * window gives is the view's count. The demo market writes through the app's sync worker, as in the app.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppCore, RecordingPlatform } from '../../../src/core/app/index.ts';
import { BookWindows } from '../../../src/core/app/market-book/book-windows.ts';
import { queryBook } from '../../../src/core/query/index.ts';
import { MemorySecretStore } from '../../../src/core/secrets/index.ts';
import { type DemoMarket, startDemoMarket } from '../../../src/demo/index.ts';
import { until } from './until.ts';

let dataDir: string;
let core: AppCore;
let demo: DemoMarket | null = null;
const market = () => demo as DemoMarket;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'skindesk-windows-'));
  core = await AppCore.start({
    dataDir,
    secrets: new MemorySecretStore(),
    platform: new RecordingPlatform({ saveDir: join(dataDir, 'exports') }),
    startDemoMarket: async ({ seqStart }) => {
      demo = await startDemoMarket({ port: 0, listings: 900, rate: 0, seed: 21, seqStart, rateLimits: false });
      return demo;
    },
    version: '0.0.0-test',
  });
  await core.whenLive(20_000);
}, 60_000);

afterAll(async () => {
  await core?.close();
  await demo?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const view = { filter: {}, sort: { field: 'created_at' as const, dir: 'desc' as const } };
const BLOCK = 100;

/** The view's ids in order, by a plain keyset walk (the truth the windows must match). */
function walkAll(): number[] {
  const ids: number[] = [];
  let after: string | undefined;
  for (;;) {
    const page = queryBook(core.session.db, { ...view, limit: 500, ...(after === undefined ? {} : { after }) });
    ids.push(...page.rows.map((r) => r.id));
    if (!page.next) return ids;
    after = page.next;
  }
}

/** Every block of the grid from the top to the end, as the grid asks them; the ids and the last total. */
async function readGrid(windows: BookWindows, version: number): Promise<{ ids: number[]; total: number }> {
  const ids: number[] = [];
  let total = Number.POSITIVE_INFINITY;
  for (let offset = 0; offset < total; offset += BLOCK) {
    const answer = await windows.window(core.session.db, version, { ...view, offset, limit: BLOCK });
    ids.push(...answer.rows.map((r) => r.id));
    total = answer.total;
  }
  return { ids, total };
}

/** Applies a change at the market and waits until the mirror holds it. */
async function changeBook(change: () => void, expected: (ids: number[]) => boolean): Promise<void> {
  change();
  await until('the change in the mirror', () => expected(walkAll()), 10_000, 25);
}

/** A grid whose anchors were walked over the whole view before the change (at version 1). */
async function gridReadOnce(): Promise<BookWindows> {
  const windows = new BookWindows({ recountAfterMs: 0 }); // the default stride (200), as the app uses it
  const before = await readGrid(windows, 1);
  expect(before.ids).toEqual(walkAll());
  return windows;
}

it('shows every listing once at its row after listings were created ahead of every anchor', async () => {
  const windows = await gridReadOnce();
  const known = new Set(walkAll());
  const created: number[] = [];
  await changeBook(
    () => created.push(...Array.from({ length: 20 }, () => market().createListing({ appId: 730 }).listing.id)),
    (ids) => created.every((id) => ids.includes(id)),
  );
  const all = walkAll();
  expect(all.slice(0, 20).every((id) => !known.has(id))).toBe(true);
  expect(await readGrid(windows, 2)).toEqual({ ids: all, total: all.length });
}, 60_000);

it('shows every listing once at its row after listings ahead of the anchors were removed', async () => {
  const windows = await gridReadOnce();
  const gone = walkAll().filter((_, row) => row % 7 === 3).slice(0, 20); // rows 3..136, ahead of every anchor
  await changeBook(
    () => gone.forEach((id) => market().delistListing(id)),
    (ids) => gone.every((id) => !ids.includes(id)),
  );
  const all = walkAll();
  expect(await readGrid(windows, 2)).toEqual({ ids: all, total: all.length });
}, 60_000);

it('shows every listing once when as many listings were created at the top as were removed further down', async () => {
  const windows = await gridReadOnce();
  const before = walkAll();
  // removed between anchors 2 and 3 (rows 420..514): the anchors behind them are where they were, those ahead are not
  const gone = before.filter((_, row) => row >= 420 && row % 5 === 0).slice(0, 20);
  const created: number[] = [];
  await changeBook(
    () => {
      gone.forEach((id) => market().delistListing(id));
      created.push(...Array.from({ length: 20 }, () => market().createListing({ appId: 730 }).listing.id));
    },
    (ids) => gone.every((id) => !ids.includes(id)) && created.every((id) => ids.includes(id)),
  );
  const all = walkAll();
  expect(all.length).toBe(before.length);
  expect(await readGrid(windows, 2)).toEqual({ ids: all, total: all.length });
}, 60_000);

it('gives the counted total with the last block after listings were created (the End key)', async () => {
  const windows = await gridReadOnce();
  const size = walkAll().length;
  const created: number[] = [];
  await changeBook(
    () => created.push(...Array.from({ length: 40 }, () => market().createListing({ appId: 730 }).listing.id)),
    (ids) => ids.length === size + 40,
  );
  const all = walkAll();
  const top = await windows.window(core.session.db, 2, { ...view, offset: 0, limit: BLOCK });
  expect(top.total).toBe(all.length);
  const endOffset = Math.floor((top.total - 1) / BLOCK) * BLOCK;
  const end = await windows.window(core.session.db, 2, { ...view, offset: endOffset, limit: BLOCK });
  expect(end.rows.map((r) => r.id)).toEqual(all.slice(endOffset));
  expect(end.total).toBe(all.length);
}, 60_000);

it('sees a change the app has not announced yet (the same book version): the database says it moved', async () => {
  const windows = await gridReadOnce();
  const created: number[] = [];
  await changeBook(
    () => created.push(...Array.from({ length: 5 }, () => market().createListing({ appId: 730 }).listing.id)),
    (ids) => created.every((id) => ids.includes(id)),
  );
  const all = walkAll();
  for (const offset of [200, 300, 600]) {
    const answer = await windows.window(core.session.db, 1, { ...view, offset, limit: BLOCK });
    expect(answer.rows.map((r) => r.id)).toEqual(all.slice(offset, offset + BLOCK));
  }
}, 60_000);
