// Offline, the book shown is the one on disk: "book as of" says when, with the date when that was not
// today — a book from yesterday evening must not read as minutes old.
import { MantineProvider } from '@mantine/core';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SyncBadge } from '../../../src/renderer/shell/StatusBar.tsx';
import { syncStatusStore } from '../../../src/renderer/shell/app-state.ts';
import { formatAsOf } from '../../../src/renderer/format/numbers.ts';
import { resetRendererState, status } from './fake-app.ts';

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

const local = (y: number, mo: number, d: number, h: number, mi: number, s = 0) =>
  new Date(y, mo - 1, d, h, mi, s);

describe('book as of', () => {
  it('is the time alone today, and the date with the time on another day', () => {
    const now = local(2026, 3, 14, 9, 30).getTime();
    expect(formatAsOf(local(2026, 3, 14, 8, 5, 7).toISOString(), now)).toBe('08:05:07');
    expect(formatAsOf(local(2026, 3, 13, 17, 2, 11).toISOString(), now)).toBe('2026-03-13 17:02');
    expect(formatAsOf(null, now)).toBe('–');
  });

  it('shows the date in the offline badge when the cached book is from an earlier day', () => {
    const yesterday = new Date(Date.now() - 24 * 3600_000);
    act(() => syncStatusStore.set(status({ state: 'offline', bookAsOf: yesterday.toISOString() })));
    render(
      <MantineProvider forceColorScheme="dark">
        <SyncBadge />
      </MantineProvider>,
    );
    const pad = (n: number) => String(n).padStart(2, '0');
    const day = `${yesterday.getFullYear()}-${pad(yesterday.getMonth() + 1)}-${pad(yesterday.getDate())}`;
    expect(screen.getByTestId('sync-badge').textContent).toContain(`book as of ${day} `);
  });

  it('says there is no book yet, not "book as of –", when no book of the market was ever read', () => {
    act(() => syncStatusStore.set(status({ state: 'offline', bookAsOf: null, rows: 0, lastSeq: null })));
    render(
      <MantineProvider forceColorScheme="dark">
        <SyncBadge />
      </MantineProvider>,
    );
    expect(screen.getByTestId('sync-badge').textContent).toBe('offline · no book yet');
  });
});
