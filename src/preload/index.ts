import { contextBridge } from 'electron';

// Sandboxed preload, bundled to a single CommonJS file (out/preload/index.cjs).
// Only named, validated functions are ever exposed here — never ipcRenderer itself.
// The bridge API is added by the Electron shell issue; until then the object is empty.
const api = Object.freeze({});

contextBridge.exposeInMainWorld('skindesk', api);
