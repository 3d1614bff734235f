// The test host's bridge script, served before the app bundle: defines window.skindesk exactly as the
// Electron preload does (same generated API, same names and envelopes), over a WebSocket instead of IPC.
import { z } from 'zod';
import { createSkindeskApi } from '../../shared/ipc/index.ts';
import { WebSocketTransport } from './ws-transport.ts';

// zod would otherwise probe `new Function` for its fast path, which the CSP forbids (and reports).
z.config({ jitless: true });

const api = createSkindeskApi(new WebSocketTransport(WebSocketTransport.urlFor(window.location)));
Object.defineProperty(window, 'skindesk', {
  value: api,
  writable: false,
  configurable: false,
  enumerable: true,
});
