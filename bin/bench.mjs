#!/usr/bin/env node
// `npm run bench`: the benchmark (test/bench/run.ts). Prints one JSON object on stdout.
import { fileURLToPath } from 'node:url';
import { runTypeScript } from './run-typescript.mjs';

await runTypeScript(fileURLToPath(new URL('../test/bench/run.ts', import.meta.url)), ['--expose-gc']);
