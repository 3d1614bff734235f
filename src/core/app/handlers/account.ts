/** Handlers of the account screens' calls (src/shared/ipc/calls-account.ts), one module per screen area. */
import type { ACCOUNT_CALLS } from '../../../shared/ipc/calls-account.ts';
import type { IpcHandler } from '../../../shared/ipc/index.ts';
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
  const handlers: AreaHandlers<typeof ACCOUNT_CALLS> = {
    ...portfolioHandlers(runtime),
    ...sellingHandlers(runtime),
    ...backpackHandlers(runtime),
    ...listingsHandlers(runtime),
    ...tradesHandlers(runtime),
    ...historyHandlers(runtime, core),
    ...walletHandlers(runtime, core.log),
  };
  // right after a change of key or market, each call waits until the data on hand is the new key's account's
  const afterAccountKnown = <N extends keyof typeof ACCOUNT_CALLS>(handler: IpcHandler<N>): IpcHandler<N> =>
    async (input) => {
      await core.whenAccountKnown();
      return handler(input);
    };
  return Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [name, afterAccountKnown(handler as IpcHandler<keyof typeof ACCOUNT_CALLS>)]),
  ) as unknown as AreaHandlers<typeof ACCOUNT_CALLS>;
}
