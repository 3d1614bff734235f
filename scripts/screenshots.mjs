#!/usr/bin/env node
// `npm run screenshots`: rebuilds the renderer and runs the browser tests with README screenshot
// updates on, so docs/screenshots/ shows the UI as it is now. `npm test` never rewrites them.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'package.json'));
function bin(pkg, name) {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin: bins } = JSON.parse(readFileSync(manifest, 'utf8'));
  return join(dirname(manifest), typeof bins === 'string' ? bins : bins[name]);
}
const run = (args, env = {}) =>
  spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const built = run([bin('electron-vite', 'electron-vite'), 'build']);
if (built !== 0) process.exit(built);
process.exit(run([bin('@playwright/test', 'playwright'), 'test', '--project', 'chromium'], { SKINDESK_UPDATE_SCREENSHOTS: '1' }));
