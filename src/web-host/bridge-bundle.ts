/**
 * Bundles the browser bridge (browser/bridge.ts with the shared contract and zod) into one classic
 * script, once per host start, in memory. Built on the fly so `npm run build` (the Electron app) never
 * ships test-host code.
 */
import { resolve } from 'node:path';
import { build, type Rollup } from 'vite';

const entry = resolve(import.meta.dirname, 'browser/bridge.ts');

export async function bundleBridgeScript(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    build: {
      write: false,
      emptyOutDir: false,
      minify: false,
      sourcemap: false,
      lib: { entry, formats: ['iife'], name: 'skindeskBridge', fileName: () => 'skindesk-bridge.js' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const chunk = outputs.flatMap((o) => o.output).find((o): o is Rollup.OutputChunk => o.type === 'chunk');
  if (!chunk) throw new Error('bundling the bridge script produced no code');
  return chunk.code;
}
