import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Native addons are loaded from node_modules at run time (their .node binaries cannot be bundled);
// electron-builder unpacks them from the asar (asarUnpack "**/*.node").
const nativeModules = ['better-sqlite3', '@napi-rs/keyring'];

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // every runtime dependency stays a require() of node_modules; the natives are listed
      // explicitly too so they stay external even if someone narrows externalizeDeps later
      externalizeDeps: true,
      rolldownOptions: {
        // worker threads load their script by file: the sync worker and the embedded demo market are
        // entries of their own (out/main/sync-worker.js, out/main/demo-worker.js)
        input: {
          index: resolve(import.meta.dirname, 'src/main/index.ts'),
          'sync-worker': resolve(import.meta.dirname, 'src/core/sync/sync-worker.ts'),
          'demo-worker': resolve(import.meta.dirname, 'src/demo/worker/thread.ts'),
        },
        external: [...nativeModules, ...nativeModules.map((m) => new RegExp(`^${m}/`))],
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload (sandbox: true) cannot require() anything but a few Electron-provided
      // modules, so it must be ONE self-contained CommonJS file: bundle every dependency, keep only
      // `electron` external, and never split chunks.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        output: {
          format: 'cjs',
          entryFileNames: '[name].cjs',
          codeSplitting: false,
        },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      rolldownOptions: {
        input: { index: resolve(import.meta.dirname, 'src/renderer/index.html') },
      },
    },
  },
});
