#!/usr/bin/env node
// `npm start`: build the app (electron-vite build → out/) and open it in Electron.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { missingDisplayReason, noDisplayMessage } from './display-check.mjs';
import { electronBinary } from './electron-binary.mjs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'package.json'));

// Checked before anything else: without a display Electron could only fail after a full build, with a
// message about X11 or Ozone that does not say what to do instead.
const noDisplay = missingDisplayReason(process.platform, process.env);
if (noDisplay) {
  console.error(noDisplayMessage(noDisplay));
  process.exit(1);
}

// Checked before building: `require('electron')` would try to download a missing binary.
const electron = electronBinary(root);
if (!electron) {
  console.error(
    [
      'npm start: the Electron binary is not installed (node_modules/electron has no dist/),',
      'usually because ELECTRON_SKIP_BINARY_DOWNLOAD=1 was set or Electron’s download host is unreachable.',
      'Use `npm run web` instead to run the app in a browser, or reinstall with access to the Electron binary:',
      '  rm -rf node_modules/electron && npm install',
    ].join('\n'),
  );
  process.exit(1);
}

const electronVite = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
const build = spawnSync(process.execPath, [electronVite, 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const env = { ...process.env };
delete env.ELECTRON_RUN_AS_NODE; // set by some terminals; it would make Electron behave as plain Node
const app = spawn(electron, ['.', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => app.kill(signal));
app.on('close', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
