// electron-builder afterPack hook: flips Electron's fuses in the packaged binary before it is signed, so
// a shipped Skindesk cannot be turned into a plain Node runtime or debugged through command-line flags,
// and loads its code only from the (integrity-checked) app.asar.
import { join } from 'node:path';
import { FuseV1Options, FuseVersion, flipFuses } from '@electron/fuses';
import { Arch } from 'builder-util';

/** The release fuse settings (also asserted by test/unit/ipc/builder-config.test.ts). */
export const RELEASE_FUSES = {
  version: FuseVersion.V1,
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
};

/** Where the packaged Electron executable is for an afterPack context. */
export function packagedElectronPath(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  const name = packager.appInfo.productFilename;
  switch (electronPlatformName) {
    case 'darwin':
    case 'mas':
      return join(appOutDir, `${name}.app`);
    case 'win32':
      return join(appOutDir, `${name}.exe`);
    default:
      return join(appOutDir, packager.executableName);
  }
}

export default async function afterPack(context) {
  const target = packagedElectronPath(context);
  // arm64 macOS binaries are ad-hoc signed; flipping bytes invalidates that until the real signing step
  const resetAdHocDarwinSignature = context.electronPlatformName === 'darwin' && context.arch === Arch.arm64;
  await flipFuses(target, { ...RELEASE_FUSES, resetAdHocDarwinSignature });
  console.log(`  • fuses flipped  ${target}`);
}
