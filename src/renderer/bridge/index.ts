/** The renderer's only way to the app: typed calls and pushes over window.skindesk, and React hooks. */
export { BridgeMissingError, SkindeskError, bridge, call, hasBridge, subscribe } from './skindesk.ts';
export { type CallState, useCall, useLiveValue, usePush } from './hooks.ts';
