/** The sales tape. Importing this module registers it (see ../registry.ts). */
import { IconReceiptDollar } from '@tabler/icons-react';
import { registerScreen } from '../registry.ts';
import { SalesScreen } from './SalesScreen.tsx';

registerScreen({
  id: 'sales',
  label: 'Sales',
  group: 'market',
  hotkey: 'alt+s',
  tasks: ['sales tape', 'sold', 'price history', 'last sales'],
  icon: IconReceiptDollar,
  component: SalesScreen,
});
