/** The watchlists screen. Importing this module registers it (see ../registry.ts). */
import { IconBellRinging } from '@tabler/icons-react';
import { registerScreen } from '../registry.ts';
import { WatchlistsScreen } from './WatchlistsScreen.tsx';

export { AutoBuyKillSwitch } from './AutoBuyKillSwitch.tsx';
export { WatchFilterButton } from './WatchFilterButton.tsx';

registerScreen({
  id: 'watchlists',
  label: 'Watchlists',
  group: 'market',
  hotkey: 'alt+9',
  tasks: ['alerts', 'auto-buy', 'snipe', 'undercut guard'],
  icon: IconBellRinging,
  component: WatchlistsScreen,
});
