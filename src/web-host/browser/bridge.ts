// The test host's bridge script, served before the app bundle: defines window.skindesk exactly as the
// Electron preload does (same generated API, same names and envelopes), over a WebSocket instead of IPC.
// first: it must run before the contract's schemas are built
import '../../shared/zod-jitless.ts';
import { createSkindeskApi } from '../../shared/ipc/index.ts';
import { WebSocketTransport } from './ws-transport.ts';

const api = createSkindeskApi(new WebSocketTransport(WebSocketTransport.urlFor(window.location)));
Object.defineProperty(window, 'skindesk', {
  value: api,
  writable: false,
  configurable: false,
  enumerable: true,
});
