/** Handlers of the account screens' calls (src/shared/ipc/calls-account.ts). */
import type { ACCOUNT_CALLS } from '../../../shared/ipc/calls-account.ts';
import type { AppCore } from '../app-core.ts';
import type { AreaHandlers } from './types.ts';

export function createAccountHandlers(_core: AppCore): AreaHandlers<typeof ACCOUNT_CALLS> {
  return {};
}
