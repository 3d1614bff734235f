/**
 * Updates for packaged builds only (electron-updater reads the publish settings electron-builder wrote
 * into app-update.yml; the build accepts only an https feed). Development runs and
 * `SKINDESK_DISABLE_UPDATES=1` never check.
 */
import { app } from 'electron';
import electronUpdater from 'electron-updater';
import { electronLog, type MainLog } from './logging.ts';

export function startUpdater(log: MainLog): void {
  if (!app.isPackaged || process.env['SKINDESK_DISABLE_UPDATES'] === '1') return;
  const { autoUpdater } = electronUpdater;
  autoUpdater.logger = electronLog;
  // An older version is never installed over this one (it would bring back what a release fixed).
  // electron-updater's default, but its `channel` setter turns it on: pinned here, after any such setting.
  autoUpdater.allowDowngrade = false;
  autoUpdater.checkForUpdatesAndNotify().catch((err: unknown) => {
    log.warn(`update check failed: ${err instanceof Error ? err.message : String(err)}`);
  });
}
