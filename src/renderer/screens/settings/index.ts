/** The Settings screen. Importing this module registers it (see ../registry.ts). */
import { IconSettings } from '@tabler/icons-react';
import { registerScreen } from '../registry.ts';
import { SettingsScreen } from './SettingsScreen.tsx';

registerScreen({
  id: 'settings',
  label: 'Settings',
  group: 'app',
  hotkey: 'mod+,',
  tasks: ['api key', 'marketplace', 'demo market', 'webhook secret', 'keychain'],
  icon: IconSettings,
  component: SettingsScreen,
});
