// The sales tape on screen: how long each sale was listed reads as the summary line above it says it.
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SalesScreen } from '../../../src/renderer/screens/sales/SalesScreen.tsx';
import { theme } from '../../../src/renderer/theme.ts';
import type { TapeSale } from '../../../src/shared/ipc/calls-market.ts';
import { installFakeApp, resetRendererState } from './fake-app.ts';

afterEach(() => {
  cleanup();
  resetRendererState();
});

const SOLD = Date.UTC(2026, 10, 21, 12, 0, 0);

const sale: TapeSale = {
  listing_id: 7,
  seq: '1152921504606846983',
  app_id: 730,
  market_hash_name: 'Tec-9 | Raw Ceramic (Factory New)',
  price: 3,
  amount: 1,
  listed_at: new Date(SOLD - (47 * 60 + 5) * 60_000).toISOString(),
  sold_at: new Date(SOLD).toISOString(),
  paint_wear: 0.055648,
  paint_seed: 587,
  paint_index: null,
  stickers: [],
};

describe('sales screen', () => {
  it('says how long a sale was listed in the summary’s words: 1d 23h in both, not 47h in the row', async () => {
    installFakeApp({ getSalesTape: () => ({ sales: [sale], next: null, latest_ms: SOLD }) });
    render(
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <SalesScreen />
      </MantineProvider>,
    );
    const row = await screen.findByTestId('sale-row');
    expect(row.querySelector('[role="gridcell"]:nth-last-child(2)')?.textContent).toBe('1d 23h');
    await waitFor(() =>
      expect(screen.getByTestId('sales-summary').textContent).toContain('listed 1d 23h before selling'),
    );
  });

  it('gives its grid the column headers: a screen reader names each cell by its column', async () => {
    installFakeApp({ getSalesTape: () => ({ sales: [sale], next: null, latest_ms: SOLD }) });
    render(
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <SalesScreen />
      </MantineProvider>,
    );
    await screen.findByTestId('sale-row');
    const grid = screen.getByRole('grid', { name: 'Sales, newest first' });
    const headers = within(grid).getAllByRole('columnheader');
    expect(headers.map((h) => h.getAttribute('aria-label') ?? h.textContent)).toEqual([
      'Sold',
      'Game',
      'Item',
      'Price',
      'Qty',
      'Float',
      'Seed',
      'Stickers',
      'Listed for',
      'Show in book',
    ]);
    // as many headers as the sale's row has cells, each row in the same grid
    const row = within(grid).getByTestId('sale-row');
    expect(within(row).getAllByRole('gridcell')).toHaveLength(headers.length);
  });
});
