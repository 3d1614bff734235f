/** Handlers of the market screens' calls (src/shared/ipc/calls-market.ts). */
import type { MARKET_CALLS } from '../../../shared/ipc/calls-market.ts';
import type { AppCore } from '../app-core.ts';
import type { AreaHandlers } from './types.ts';

export function createMarketHandlers(_core: AppCore): AreaHandlers<typeof MARKET_CALLS> {
  return {};
}
