/**
 * The account screens, registered in navigation order. Hotkeys Alt+1…Alt+8 (the market screens have
 * Alt+0, Alt+S and Alt+9); the command palette lists them all, also by their tasks. Labels are short:
 * the rail shows them under icons.
 */
import { IconArrowsExchange, IconBackpack, IconChartAreaLine, IconCurrencyBitcoin, IconListDetails, IconPackage, IconReceipt, IconTag } from '@tabler/icons-react';
import { registerScreen } from '../registry.ts';
import { BackpackScreen } from './backpack/BackpackScreen.tsx';
import { OrdersScreen } from './history/OrdersScreen.tsx';
import { TransactionsScreen } from './history/TransactionsScreen.tsx';
import { InventoryScreen } from './inventory/InventoryScreen.tsx';
import { MyListingsScreen } from './listings/MyListingsScreen.tsx';
import { PortfolioScreen } from './portfolio/PortfolioScreen.tsx';
import { TradesScreen } from './trades/TradesScreen.tsx';
import { WalletScreen } from './wallet/WalletScreen.tsx';

export const ACCOUNT_SCREENS = [
  { id: 'portfolio', label: 'Portfolio', hotkey: 'alt+1', icon: IconChartAreaLine, tasks: ['value', 'profit', 'positions', 'held'], component: PortfolioScreen },
  { id: 'inventory', label: 'Inventory', hotkey: 'alt+2', icon: IconPackage, tasks: ['steam', 'sell', 'deposit'], component: InventoryScreen },
  { id: 'backpack', label: 'Backpack', hotkey: 'alt+3', icon: IconBackpack, tasks: ['bought items', 'list', 'sell', 'withdraw items', 'trade hold'], component: BackpackScreen },
  { id: 'my-listings', label: 'Listings', hotkey: 'alt+4', icon: IconTag, tasks: ['my listings', 'reprice', 'delist', 'edit price', 'undercut'], component: MyListingsScreen },
  { id: 'trades', label: 'Trades', hotkey: 'alt+5', icon: IconArrowsExchange, tasks: ['trade offers', 'steam offers', 'webhooks'], component: TradesScreen },
  { id: 'orders', label: 'Orders', hotkey: 'alt+6', icon: IconReceipt, tasks: ['order history', 'bought', 'sold', 'export', 'csv'], component: OrdersScreen },
  { id: 'transactions', label: 'Ledger', hotkey: 'alt+7', icon: IconListDetails, tasks: ['transactions', 'balance history', 'fees'], component: TransactionsScreen },
  { id: 'wallet', label: 'Wallet', hotkey: 'alt+8', icon: IconCurrencyBitcoin, tasks: ['withdraw', 'cash out', 'crypto', 'btc', 'eth', 'usdc'], component: WalletScreen },
] as const;

for (const screen of ACCOUNT_SCREENS) registerScreen({ ...screen, group: 'account' });
