// The installer configuration, checked without building (this machine cannot download Electron):
// electron-builder's own loader and JSON-schema validation, the choices the issue asks for, the icons,
// and the afterPack fuse hook run against a fake Electron binary that carries a real fuse wire.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const require = createRequire(join(root, 'package.json'));
type Config = Record<string, unknown> & {
  [key: string]: Record<string, unknown> | unknown;
};

interface BuilderInternals {
  getConfig(projectDir: string, configPath: string | null, fromOptions: unknown): Promise<Config>;
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
}
const builder = require('app-builder-lib/out/util/config/config.js') as BuilderInternals;
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

let config: Config;
beforeAll(async () => {
  config = await builder.getConfig(root, null, null);
});

const section = (name: string) => config[name] as Record<string, unknown>;

describe('electron-builder configuration', () => {
  it("passes electron-builder's own schema validation", async () => {
    await expect(builder.validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('the validation really rejects a wrong configuration (the check is not a no-op)', async () => {
    await expect(
      builder.validateConfiguration({ ...config, nsis: { perMachine: 'sometimes' } }, new DebugLogger(false)),
    ).rejects.toThrow(/perMachine/);
    await expect(
      builder.validateConfiguration({ ...config, notAnOption: true }, new DebugLogger(false)),
    ).rejects.toThrow(/notAnOption/);
  });

  it('Windows: per-user nsis with a choosable folder', () => {
    expect(section('win').target).toEqual([{ target: 'nsis', arch: ['x64', 'arm64'] }]);
    expect(section('nsis')).toMatchObject({
      oneClick: false,
      perMachine: false,
      allowToChangeInstallationDirectory: true,
    });
  });

  it('macOS: dmg + zip, hardened runtime with entitlements, notarization only from the environment', () => {
    const mac = section('mac');
    expect((mac.target as { target: string }[]).map((t) => t.target)).toEqual(['dmg', 'zip']);
    expect(mac).toMatchObject({ hardenedRuntime: true, notarize: false });
    const entitlements = readFileSync(join(root, mac.entitlements as string), 'utf8');
    expect(entitlements).toContain('com.apple.security.cs.allow-jit');
    expect(entitlements).not.toContain('allow-dyld-environment-variables');
  });

  it('Windows and macOS builds must be signed (their updaters check the signature), unless a local try-out says so', async () => {
    expect(section('win').forceCodeSigning).toBe(true);
    expect(section('mac').forceCodeSigning).toBe(true);
    process.env.SKINDESK_ALLOW_UNSIGNED = '1';
    try {
      const tryOut = (await import(`${pathToFileURL(join(root, 'electron-builder.js')).href}?unsigned`)) as { default: Config };
      expect((tryOut.default.win as Record<string, unknown>).forceCodeSigning).toBe(false);
    } finally {
      delete process.env.SKINDESK_ALLOW_UNSIGNED;
    }
  });

  it('Linux: AppImage + deb, the deb depending on libsecret', () => {
    expect(section('linux').target).toEqual(['AppImage', 'deb']);
    expect(section('deb').depends).toContain('libsecret-1-0');
  });

  it('unpacks native addons, never rebuilds them, and flips fuses after packing', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(['**/*.node']);
    expect(config.npmRebuild).toBe(false);
    expect(config.afterPack).toBe('./scripts/after-pack-fuses.mjs');
    expect(existsSync(join(root, config.afterPack as string))).toBe(true);
  });

  it('publishes updates to a placeholder that the environment overrides', async () => {
    expect(config.publish).toEqual([
      { provider: 'generic', url: 'https://updates.skindesk.invalid/releases/' },
    ]);
    process.env.SKINDESK_UPDATE_URL = 'https://downloads.example.com/skindesk/';
    try {
      const fresh = (await import(`${pathToFileURL(join(root, 'electron-builder.js')).href}?override`)) as {
        default: Config;
      };
      expect(fresh.default.publish).toEqual([
        { provider: 'generic', url: 'https://downloads.example.com/skindesk/' },
      ]);
    } finally {
      delete process.env.SKINDESK_UPDATE_URL;
    }
  });

  it.each([
    ['plain http', 'http://downloads.example.com/skindesk/'],
    ['credentials in the URL', 'https://user:pw@downloads.example.com/skindesk/'],
    ['not a URL', 'downloads.example.com/skindesk/'],
  ])('refuses an update URL with %s (updates are code the app runs)', async (_label, url) => {
    process.env.SKINDESK_UPDATE_URL = url;
    try {
      await expect(
        import(`${pathToFileURL(join(root, 'electron-builder.js')).href}?${encodeURIComponent(url)}`),
      ).rejects.toThrow(/SKINDESK_UPDATE_URL/);
    } finally {
      delete process.env.SKINDESK_UPDATE_URL;
    }
  });

  it('no postinstall runs install-app-deps (it downloads Electron headers)', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(Object.values(manifest.scripts).join('\n')).not.toMatch(/install-app-deps/);
  });
});

describe('icons', () => {
  const pngSize = (file: string) => {
    const data = readFileSync(file);
    expect(data.subarray(1, 4).toString('ascii')).toBe('PNG');
    return [data.readUInt32BE(16), data.readUInt32BE(20)];
  };

  it.each([16, 24, 32, 48, 64, 128, 256, 512, 1024])(
    'resources/icons/%ix%i.png is a PNG of that size',
    (size) => {
      expect(pngSize(join(root, 'resources/icons', `${size}x${size}.png`))).toEqual([size, size]);
    },
  );

  it('icon.png is 1024 px and not empty (its centre is opaque)', () => {
    const file = join(root, 'resources/icon.png');
    expect(pngSize(file)).toEqual([1024, 1024]);
    const data = readFileSync(file);
    const idat = data.indexOf('IDAT');
    const raw = inflateSync(data.subarray(idat + 4, idat + 4 + data.readUInt32BE(idat - 4)));
    const row = 512 * (1024 * 4 + 1);
    expect(raw[row + 1 + 512 * 4 + 3]).toBe(255);
  });

  it('icon.ico holds 16 to 256 px and icon.icns holds the macOS sizes', () => {
    const ico = readFileSync(join(root, 'resources/icon.ico'));
    expect(ico.readUInt16LE(2)).toBe(1);
    const sizes = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico[6 + i * 16] || 256);
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256]);
    const icns = readFileSync(join(root, 'resources/icon.icns'));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    for (let o = 8; o < icns.length; o += icns.readUInt32BE(o + 4))
      types.push(icns.subarray(o, o + 4).toString('ascii'));
    expect(types).toEqual(expect.arrayContaining(['icp4', 'icp5', 'ic07', 'ic08', 'ic09', 'ic10']));
  });
});

describe('afterPack fuse hook', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'skindesk-fuses-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A file laid out like an Electron binary's fuse wire: sentinel, version 1, 9 fuses as Electron ships them. */
  function fakeElectron(file: string) {
    const shipped = '101100011'; // RunAsNode, NODE_OPTIONS, inspect on; asar-only and integrity off
    const sentinel = Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX');
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.alloc(1000, 7),
        sentinel,
        Buffer.from([1, 9]),
        Buffer.from(shipped),
        Buffer.alloc(1000, 7),
      ]),
    );
  }

  it('turns RunAsNode, NODE_OPTIONS and inspect off and asar-only + integrity on in the packaged binary', async () => {
    const hook = (await import(pathToFileURL(join(root, 'scripts/after-pack-fuses.mjs')).href)) as {
      default: (context: unknown) => Promise<void>;
    };
    fakeElectron(join(dir, 'skindesk'));
    await hook.default({
      appOutDir: dir,
      electronPlatformName: 'linux',
      arch: 1,
      packager: { appInfo: { productFilename: 'Skindesk' }, executableName: 'skindesk' },
    });
    const wire = await getCurrentFuseWire(join(dir, 'skindesk'));
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE);
  });

  it('finds the executable for each platform', async () => {
    const { packagedElectronPath } = (await import(
      pathToFileURL(join(root, 'scripts/after-pack-fuses.mjs')).href
    )) as {
      packagedElectronPath: (context: unknown) => string;
    };
    const packager = { appInfo: { productFilename: 'Skindesk' }, executableName: 'skindesk' };
    expect(packagedElectronPath({ appOutDir: '/o', electronPlatformName: 'darwin', packager })).toBe(
      '/o/Skindesk.app',
    );
    expect(packagedElectronPath({ appOutDir: '/o', electronPlatformName: 'win32', packager })).toBe(
      '/o/Skindesk.exe',
    );
    expect(packagedElectronPath({ appOutDir: '/o', electronPlatformName: 'linux', packager })).toBe(
      '/o/skindesk',
    );
  });
});
