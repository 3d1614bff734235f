/** The sales tape's game and name: kept while the trader visits other screens, and set from them. */
import type { AppId } from '../../../shared/api/index.ts';
import { exactNameFilter } from '../../../shared/query.ts';
import { LiveStore } from '../../shell/app-state.ts';
import { navigate } from '../../shell/navigation.ts';
import { NO_TAPE_FILTER, type TapeFilter } from './sales-tape-store.ts';

export const tapeFilterStore = new LiveStore<TapeFilter>(NO_TAPE_FILTER);

/** Opens the sales tape on one item: what it sold for lately, one click from its detail (its whole name, quoted). */
export function showItemSales(appId: AppId, marketHashName: string): void {
  tapeFilterStore.set({ ...NO_TAPE_FILTER, app_id: appId, name: exactNameFilter(marketHashName) });
  navigate('sales');
}
