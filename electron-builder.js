// electron-builder configuration (`npm run dist`). Validated against electron-builder's own schema by
// test/unit/ipc/builder-config.test.ts, since this machine cannot download Electron for a real build.
//
// Environment (all optional):
//   SKINDESK_UPDATE_URL   where electron-updater looks for releases (a generic HTTPS folder); the
//                         default is a placeholder that must be replaced for a real release
//   APPLE_API_KEY, APPLE_API_KEY_ID, APPLE_API_ISSUER   (or APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD,
//   APPLE_TEAM_ID)        notarize the macOS build; without them the build is signed but not notarized
//   CSC_LINK, CSC_KEY_PASSWORD, WIN_CSC_LINK, ...       code signing, read by electron-builder itself
//   SKINDESK_ALLOW_UNSIGNED=1   lets a Windows or macOS build be made without a signing certificate
//                         (a local try-out; never a release: see forceCodeSigning below)
const env = process.env;
/**
 * A Windows or macOS build must be signed: electron-updater checks a Windows update against the publisher
 * written into app-update.yml, which electron-builder writes only for a signed build — an unsigned one
 * would install whatever .exe the feed offers, checked only against the feed's own checksum.
 */
const forceCodeSigning = env.SKINDESK_ALLOW_UNSIGNED !== '1';
const notarize = Boolean(
  (env.APPLE_API_KEY && env.APPLE_API_KEY_ID && env.APPLE_API_ISSUER) ||
  (env.APPLE_ID && env.APPLE_APP_SPECIFIC_PASSWORD && env.APPLE_TEAM_ID) ||
  (env.APPLE_KEYCHAIN && env.APPLE_KEYCHAIN_PROFILE),
);

/**
 * The update feed, https only: electron-updater installs what it finds there, and over plain http anyone
 * on the network path could hand the app a "newer version" (the checksums it checks come from the same
 * feed). Refused here, at build time, because app-update.yml in the package is made from it.
 */
function updateFeedUrl(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`SKINDESK_UPDATE_URL is not a URL: ${raw}`);
  }
  if (url.protocol !== 'https:') {
    throw new Error(`SKINDESK_UPDATE_URL must be an https:// URL, not ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new Error('SKINDESK_UPDATE_URL must not hold a user name or password');
  }
  return url.href;
}

/** @type {import('electron-builder').Configuration} */
const config = {
  appId: 'app.skindesk.desktop',
  productName: 'Skindesk',
  copyright: 'Copyright © Skindesk contributors',
  directories: { output: 'dist', buildResources: 'resources' },
  // out/ is the electron-vite build; node_modules (production dependencies) are added by electron-builder
  files: ['out/**', 'package.json', '!**/*.map', '!**/*.{md,markdown}', '!**/test{,s}/**'],
  asar: true,
  // native addons (better-sqlite3, @napi-rs/keyring) cannot be loaded from inside the asar
  asarUnpack: ['**/*.node'],
  // better-sqlite3 >= 13 and @napi-rs/keyring ship Node-API prebuilds that work in Electron as they are:
  // no rebuild, no download of Electron headers
  npmRebuild: false,
  nodeGypRebuild: false,
  buildDependenciesFromSource: false,
  afterPack: './scripts/after-pack-fuses.mjs',

  win: {
    target: [{ target: 'nsis', arch: ['x64', 'arm64'] }],
    icon: 'resources/icon.ico',
    forceCodeSigning,
  },
  nsis: {
    // per-user install, no elevation; the user may choose the folder
    oneClick: false,
    perMachine: false,
    allowElevation: false,
    allowToChangeInstallationDirectory: true,
    createDesktopShortcut: true,
    createStartMenuShortcut: true,
    deleteAppDataOnUninstall: false,
    installerIcon: 'resources/icon.ico',
    uninstallerIcon: 'resources/icon.ico',
  },

  mac: {
    target: [
      { target: 'dmg', arch: ['x64', 'arm64'] },
      // electron-updater updates macOS from the zip
      { target: 'zip', arch: ['x64', 'arm64'] },
    ],
    category: 'public.app-category.finance',
    icon: 'resources/icon.icns',
    hardenedRuntime: true,
    gatekeeperAssess: false,
    entitlements: 'resources/entitlements.mac.plist',
    entitlementsInherit: 'resources/entitlements.mac.plist',
    notarize,
    forceCodeSigning,
  },
  dmg: { sign: false },

  linux: {
    target: ['AppImage', 'deb'],
    category: 'Finance',
    icon: 'resources/icons',
    synopsis: 'Trading terminal for a game-item marketplace',
    maintainer: 'Skindesk contributors <maintainers@skindesk.invalid>',
    vendor: 'Skindesk',
  },
  deb: {
    // electron-builder's defaults plus libsecret, which @napi-rs/keyring needs for the Secret Service
    depends: [
      'libgtk-3-0',
      'libnotify4',
      'libnss3',
      'libxss1',
      'libxtst6',
      'xdg-utils',
      'libatspi2.0-0',
      'libuuid1',
      'libsecret-1-0',
    ],
  },
  appImage: { artifactName: '${productName}-${version}-${arch}.${ext}' },

  publish: [
    {
      provider: 'generic',
      url: updateFeedUrl(env.SKINDESK_UPDATE_URL ?? 'https://updates.skindesk.invalid/releases/'),
    },
  ],
};

export default config;
