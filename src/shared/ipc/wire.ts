/**
 * The browser test host's WebSocket protocol: the same calls and pushes as Electron IPC, as JSON frames.
 */
import { z } from 'zod';
import { ipcResponse } from './errors.ts';

export const WIRE_PATH = '/skindesk-ipc';
/** The bridge script the test host serves before the app bundle; it defines window.skindesk. */
export const BRIDGE_SCRIPT_PATH = '/skindesk-bridge.js';
export const MAX_WIRE_FRAME_BYTES = 1024 * 1024;

export const clientFrame = z.strictObject({
  t: z.literal('call'),
  id: z.number().int().nonnegative(),
  name: z.string().max(100),
  input: z.unknown(),
});
export type ClientFrame = z.infer<typeof clientFrame>;

export const serverFrame = z.discriminatedUnion('t', [
  z.strictObject({ t: z.literal('result'), id: z.number().int().nonnegative(), response: ipcResponse }),
  z.strictObject({ t: z.literal('push'), name: z.string(), payload: z.unknown() }),
]);
export type ServerFrame = z.infer<typeof serverFrame>;
