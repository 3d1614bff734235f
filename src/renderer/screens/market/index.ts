/** The market screens. Importing this module registers them (see ../registry.ts). */
import { IconChartCandle } from '@tabler/icons-react';
import { registerScreen } from '../registry.ts';
import { BookScreen } from './book/BookScreen.tsx';

registerScreen({
  id: 'book',
  label: 'Book',
  group: 'market',
  hotkey: 'alt+0',
  tasks: ['market', 'buy', 'search', 'float', 'stickers', 'snipe'],
  icon: IconChartCandle,
  component: BookScreen,
});
