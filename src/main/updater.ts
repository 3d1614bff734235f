/**
 * Updates for packaged builds only (electron-updater reads the publish settings electron-builder wrote
 * into app-update.yml; the build accepts only an https feed). Development runs and
 * `SKINDESK_DISABLE_UPDATES=1` never check.
 */
import { Notification, app } from 'electron';
import electronUpdater from 'electron-updater';
import { electronLog, type MainLog } from './logging.ts';

export function startUpdater(log: MainLog): void {
  if (!app.isPackaged || process.env['SKINDESK_DISABLE_UPDATES'] === '1') return;
  const { autoUpdater } = electronUpdater;
  autoUpdater.logger = electronLog;
  // An older version is never installed over this one (it would bring back what a release fixed).
  // electron-updater's default, but its `channel` setter turns it on: pinned here, after any such setting.
  autoUpdater.allowDowngrade = false;
  const installs = installsUpdates(process.platform, process.env);
  // what a deb-installed app finds is only told: electron-updater would install it with dpkg as root
  // (a pkexec prompt at quit), checked against nothing but the feed's own checksum
  autoUpdater.autoDownload = installs;
  // Not checkForUpdatesAndNotify: it chains its notification onto the download and leaves that chain's
  // failure unhandled, so a download cut short (the network gone, a file whose checksum does not match)
  // became an unhandled rejection, told to the trader as "something went wrong inside Skindesk". Every
  // failure here, the check or the download, is one warning in the log.
  let announced: string | null = null;
  const check = () =>
    autoUpdater
      .checkForUpdates()
      .then(async (result) => {
        if (!installs) {
          const version = result?.isUpdateAvailable ? result.updateInfo.version : null;
          if (version === null || announced === version) return;
          announced = version;
          if (!Notification.isSupported()) return;
          new Notification({
            title: 'A new version of Skindesk is available',
            body: `Version ${version}: update Skindesk with your package manager, or download it from the releases page.`,
          }).show();
          return;
        }
        if (!result?.downloadPromise) return;
        await result.downloadPromise;
        // a later check finds the same version already downloaded: it is told once
        const version = result.updateInfo.version;
        if (announced === version) return;
        announced = version;
        if (!Notification.isSupported()) return;
        new Notification({
          title: 'A new version of Skindesk is ready',
          body: `Version ${version} is installed when Skindesk quits.`,
        }).show();
      })
      .catch((err: unknown) => {
        log.warn(`update failed: ${err instanceof Error ? err.message : String(err)}`);
      });
  void check();
  // A terminal stays open for days: checked at start only, one started offline (or before a release that
  // fixes a hole) would never learn of an update until the trader restarts it.
  setInterval(() => void check(), UPDATE_CHECK_INTERVAL_MS).unref();
}

/**
 * Whether this build installs the updates it finds. electron-updater checks a Windows update against the
 * publisher of the signed build (electron-builder.js refuses to make an unsigned one) and a macOS update
 * against its code signature, and runs an AppImage update as the trader, with the trust the download had;
 * a Linux package (deb) it would install as root with no signature to check, so that one is only told.
 */
export function installsUpdates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean {
  return platform !== 'linux' || Boolean(env['APPIMAGE']);
}

/** How often a running app looks for an update again. */
export const UPDATE_CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;
