#!/usr/bin/env node
// The `skindesk` command: src/cli/main.ts, TypeScript run directly by Node (no build step).
import { fileURLToPath } from 'node:url';
import { runTypeScript } from './run-typescript.mjs';
import { installStopHandling, stopsOnSignal } from '../src/cli/stop-request.mjs';

// sync, watch and demo stop cleanly on SIGINT/SIGTERM (exit 0); stripping and loading the TypeScript
// takes a good part of a second, so listen from here. Not when runTypeScript re-executes Node: this
// process then passes every stop signal on to the child, which listens itself.
if (process.features.typescript && stopsOnSignal(process.argv.slice(2))) installStopHandling();

await runTypeScript(fileURLToPath(new URL('../src/cli/main.ts', import.meta.url)));
