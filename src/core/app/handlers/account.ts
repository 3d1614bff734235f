/** Handlers of the account screens' calls (src/shared/ipc/calls-account.ts), one module per screen area. */
import type { ACCOUNT_CALLS } from '../../../shared/ipc/calls-account.ts';
import { backpackHandlers } from '../account-services/backpack-handlers.ts';
import { historyHandlers } from '../account-services/history-handlers.ts';
import { listingsHandlers } from '../account-services/listings-handlers.ts';
import { portfolioHandlers } from '../account-services/portfolio-handlers.ts';
import { sellingHandlers } from '../account-services/selling-handlers.ts';
import { tradesHandlers } from '../account-services/trades-handlers.ts';
import { walletHandlers } from '../account-services/wallet-handlers.ts';
import type { AppCore } from '../app-core.ts';
import type { AreaHandlers } from './types.ts';

export function createAccountHandlers(core: AppCore): AreaHandlers<typeof ACCOUNT_CALLS> {
  const runtime = core.account;
  return {
    ...portfolioHandlers(runtime),
    ...sellingHandlers(runtime),
    ...backpackHandlers(runtime),
    ...listingsHandlers(runtime),
    ...tradesHandlers(runtime),
    ...historyHandlers(runtime, core),
    ...walletHandlers(runtime, core.log),
  };
}
