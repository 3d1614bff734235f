/**
 * Updates for packaged builds only (electron-updater reads the publish settings electron-builder wrote
 * into app-update.yml). Development runs and `SKINDESK_DISABLE_UPDATES=1` never check.
 */
import { app } from 'electron';
import electronUpdater from 'electron-updater';
import { electronLog, type MainLog } from './logging.ts';

export function startUpdater(log: MainLog): void {
  if (!app.isPackaged || process.env['SKINDESK_DISABLE_UPDATES'] === '1') return;
  const { autoUpdater } = electronUpdater;
  autoUpdater.logger = electronLog;
  autoUpdater.checkForUpdatesAndNotify().catch((err: unknown) => {
    log.warn(`update check failed: ${err instanceof Error ? err.message : String(err)}`);
  });
}
