// Sandboxed preload, bundled to a single CommonJS file (out/preload/index.cjs).
// It exposes exactly the functions generated from the IPC contract as window.skindesk — never
// ipcRenderer itself, never a generic "send any channel" function.
// first: it must run before the contract's schemas are built
import '../shared/zod-jitless.ts';
import { contextBridge, ipcRenderer } from 'electron';
import { type IpcTransport, callChannel, createSkindeskApi, pushChannel } from '../shared/ipc/index.ts';

const transport: IpcTransport = {
  invoke: (name, input) => ipcRenderer.invoke(callChannel(name), input),
  listen: (name, listener) => {
    const channel = pushChannel(name);
    // The event object is not passed on: it carries `sender`, a handle the page must never hold.
    const forward = (_event: Electron.IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },
};

contextBridge.exposeInMainWorld('skindesk', createSkindeskApi(transport));
