// Importing a screen module registers it (see registry.ts). One line per area.
export { allScreens, registerScreen, type ScreenDef } from './registry.ts';
import './market/index.ts';
import './sales/index.ts';
import './account/index.ts';
import './watchlists/index.ts';
import './settings/index.ts';
