/** The sales tape's game and name: kept while the trader visits other screens, and set from them. */
import type { AppId } from '../../../shared/api/index.ts';
import { LiveStore } from '../../shell/app-state.ts';
import { navigate } from '../../shell/navigation.ts';
import type { TapeFilter } from './sales-tape-store.ts';

export const tapeFilterStore = new LiveStore<TapeFilter>({ app_id: null, name: '' });

/** Opens the sales tape on one item: what it sold for lately, one click from its detail. */
export function showItemSales(appId: AppId, marketHashName: string): void {
  tapeFilterStore.set({ app_id: appId, name: marketHashName });
  navigate('sales');
}
