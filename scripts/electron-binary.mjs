// Where the Electron executable is, without require('electron') (which tries to download a missing
// binary). Shared by `npm start` and the Electron smoke tests.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The Electron executable, or undefined when the npm package was installed without its binary. */
export function electronBinary(root) {
  const require = createRequire(join(root, 'package.json'));
  const pkgDir = dirname(require.resolve('electron/package.json'));
  const pathFile = join(pkgDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const rel = readFileSync(pathFile, 'utf8').trim();
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? join(override, rel) : join(pkgDir, 'dist', rel);
  return existsSync(binary) ? binary : undefined;
}

export const MISSING_ELECTRON_REASON =
  'the Electron binary is not installed (node_modules/electron has no dist/, usually because ' +
  'ELECTRON_SKIP_BINARY_DOWNLOAD=1 was set or the download host is unreachable)';
