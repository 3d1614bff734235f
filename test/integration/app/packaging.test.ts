// A real electron-builder packaging run (`--linux dir`), without downloading Electron: electronDist points
// at a fake Electron folder whose "binary" carries a genuine fuse wire. This proves what a schema check
// cannot: the files pattern, asarUnpack of the native addons, the afterPack fuse hook and the updater's
// publish settings all work together.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const require = createRequire(join(root, 'package.json'));
const work = mkdtempSync(join(tmpdir(), 'skindesk-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function fakeElectronDist(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const sentinel = Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX');
  writeFileSync(
    join(dir, 'electron'),
    Buffer.concat([
      Buffer.alloc(4096, 1),
      sentinel,
      Buffer.from([1, 9]),
      Buffer.from('101100011'),
      Buffer.alloc(4096, 1),
    ]),
    {
      mode: 0o755,
    },
  );
  copyFileSync(require.resolve('electron/LICENSE'), join(dir, 'LICENSE'));
  writeFileSync(join(dir, 'version'), (require('electron/package.json') as { version: string }).version);
}

describe('electron-builder dry run (linux dir target, fake Electron)', () => {
  it('packs the app into an asar, unpacks the native addons, flips the fuses and writes the update feed', async (ctx) => {
    if (process.platform !== 'linux' || process.arch !== 'x64')
      ctx.skip('the fake Electron distribution is a linux-x64 layout');
    const dist = join(work, 'electron-dist');
    const output = join(work, 'out');
    fakeElectronDist(dist);
    const cli = join(dirname(require.resolve('electron-builder/package.json')), 'cli.js');
    const result = spawnSync(
      process.execPath,
      [
        cli,
        '--linux',
        'dir',
        '--x64',
        `--config.electronDist=${dist}`,
        `--config.directories.output=${output}`,
        '--publish',
        'never',
      ],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 170_000,
        env: { ...process.env, SKINDESK_UPDATE_URL: 'https://downloads.example.com/skindesk/', CI: '1' },
      },
    );
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);

    const app = join(output, 'linux-unpacked');
    const resources = join(app, 'resources');
    expect(existsSync(join(resources, 'app.asar'))).toBe(true);
    const unpacked = join(resources, 'app.asar.unpacked', 'node_modules');
    expect(existsSync(join(unpacked, 'better-sqlite3', 'prebuilds', 'linux-x64.node'))).toBe(true);
    expect(
      existsSync(join(unpacked, '@napi-rs', 'keyring-linux-x64-gnu', 'keyring.linux-x64-gnu.node')),
    ).toBe(true);

    const { listPackage } = require('@electron/asar') as {
      listPackage(file: string, options: object): string[];
    };
    const files = listPackage(join(resources, 'app.asar'), {}).map((f) => f.replaceAll('\\', '/'));
    expect(files).toContain('/package.json');
    expect(files.some((f) => f.startsWith('/node_modules/better-sqlite3/'))).toBe(true);
    expect(files.filter((f) => f.startsWith('/src/') || f.startsWith('/test/'))).toEqual([]);

    const wire = await getCurrentFuseWire(join(app, 'skindesk'));
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);

    const feed = readFileSync(join(resources, 'app-update.yml'), 'utf8');
    expect(feed).toMatch(/provider: generic/);
    expect(feed).toMatch(/url: https:\/\/downloads\.example\.com\/skindesk\//);
  }, 180_000);
});
