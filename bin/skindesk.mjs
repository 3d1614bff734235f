#!/usr/bin/env node
// The `skindesk` command: src/cli/main.ts, TypeScript run directly by Node (no build step).
import { fileURLToPath } from 'node:url';
import { runTypeScript } from './run-typescript.mjs';

await runTypeScript(fileURLToPath(new URL('../src/cli/main.ts', import.meta.url)));
