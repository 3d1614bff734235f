/**
 * Where Skindesk keeps its files when running without Electron (the CLI): the same folder Electron's
 * `app.getPath('userData')` gives the app for productName "Skindesk", so the CLI and the app share one
 * database and one journal.
 */
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

export const APP_DIR_NAME = 'Skindesk';
/** The SQLite file inside the data folder, shared by the app and the CLI. */
export const DATABASE_FILE_NAME = 'skindesk.db';

export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  switch (platform) {
    case 'win32':
      return win32.join(env.APPDATA || win32.join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
    case 'darwin':
      return posix.join(home, 'Library', 'Application Support', APP_DIR_NAME);
    default:
      return posix.join(env.XDG_CONFIG_HOME || posix.join(home, '.config'), APP_DIR_NAME);
  }
}

export function defaultDatabaseFile(platform: NodeJS.Platform = process.platform): string {
  const join = platform === 'win32' ? win32.join : posix.join;
  return join(defaultDataDir(platform), DATABASE_FILE_NAME);
}
