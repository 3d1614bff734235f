#!/usr/bin/env node
// `npm run soak -- --minutes N [--chaos LEVEL]`: the soak and chaos suite (test/soak/run.ts).
import { fileURLToPath } from 'node:url';
import { runTypeScript } from './run-typescript.mjs';

await runTypeScript(fileURLToPath(new URL('../test/soak/run.ts', import.meta.url)));
