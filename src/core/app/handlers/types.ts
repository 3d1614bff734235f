import type { IpcCallName, IpcHandler } from '../../../shared/ipc/index.ts';

/** The handlers of one area's calls: exactly the names of its call table, each typed from the contract. */
export type AreaHandlers<Calls> = { readonly [N in keyof Calls & IpcCallName]: IpcHandler<N> };
