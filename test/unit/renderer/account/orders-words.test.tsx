// The Orders screen's words about its figures: the export's dates are whole UTC days (the marketplace's),
// while the table shows local times; and a sale's total there is before the marketplace's fee.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OrdersScreen } from '../../../../src/renderer/screens/account/history/OrdersScreen.tsx';
import { resetRendererState } from '../fake-app.ts';
import { NOW_ISO, freshness, installFakeBridge, renderWithTheme } from './fake-bridge.tsx';

afterEach(() => {
  cleanup();
  resetRendererState();
});

function renderOrders() {
  installFakeBridge({
    getOrders: () => ({
      orders: [
        {
          order_item_id: 2,
          order_id: 2,
          side: 'sold',
          app_id: 730,
          market_hash_name: 'Kilowatt Case',
          price: 100,
          amount: 3,
          created_at: NOW_ISO,
        },
      ],
      metadata: { total_pages: 1, total_items: 1, current_page: 1, current_limit: 50 },
      freshness,
    }),
  });
  renderWithTheme(<OrdersScreen />);
}

describe('Orders screen words', () => {
  it('names the export dates as UTC days', async () => {
    renderOrders();
    await screen.findByTestId('order-row');
    expect(screen.getByLabelText('From (UTC day)')).toBeTruthy();
    expect(screen.getByLabelText('To (UTC day, inclusive)')).toBeTruthy();
  });

  it("says a sale's total is before the fee", async () => {
    renderOrders();
    const row = await screen.findByTestId('order-row');
    expect(row.textContent).toContain('+$3.00');
    expect(screen.getByTestId('orders-table').querySelector('thead')?.textContent).toContain(
      'Total before fee',
    );
  });
});
