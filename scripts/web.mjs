#!/usr/bin/env node
// `npm run web`: the browser test host (src/web-host) — the real renderer and the real core without
// Electron, on the demo market by default. Builds the renderer first, then prints the URL to open.
//
//   npm run web -- [--port N] [--listings N] [--rate N] [--data-dir DIR] [--no-build]
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { requireNode } from '../bin/node-version.mjs';
import { runTypeScript } from '../bin/run-typescript.mjs';

requireNode('npm run web');
// Node 22.12–22.17 strips types only when asked: run this script again with the flag, which the child
// then has (runTypeScript passes the arguments and stop signals on and exits with the child's code)
if (!process.features.typescript) await runTypeScript(fileURLToPath(import.meta.url));

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'package.json'));

let args;
try {
  ({ values: args } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      listings: { type: 'string', default: '20000' },
      rate: { type: 'string', default: '8' },
      'data-dir': { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  }));
} catch (err) {
  console.error(`npm run web: ${err.message}`);
  process.exit(2);
}
if (args.help) {
  console.log('npm run web -- [--port N] [--listings N] [--rate N] [--data-dir DIR] [--no-build]');
  process.exit(0);
}
const integer = (name, min, max) => {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`npm run web: --${name} must be an integer from ${min} to ${max}`);
    process.exit(2);
  }
  return n;
};
const port = integer('port', 0, 65535);
const listings = integer('listings', 0, 5_000_000);
const rate = integer('rate', 0, 100_000);

if (!args['no-build']) {
  const electronVite = join(
    dirname(require.resolve('electron-vite/package.json')),
    'bin',
    'electron-vite.js',
  );
  const build = spawnSync(process.execPath, [electronVite, 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const { startWebHost } = await import('../src/web-host/index.ts');
const host = await startWebHost({
  port,
  demo: { listings, rate },
  ...(args['data-dir'] ? { dataDir: resolve(args['data-dir']) } : {}),
});
console.log(
  `\nSkindesk test host (demo market, ${listings} listings, ${rate} events/s): open\n\n  ${host.url}\n`,
);
console.log('The token in the URL is the access key; the host listens on 127.0.0.1 only. Ctrl+C stops it.');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    host.close().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
