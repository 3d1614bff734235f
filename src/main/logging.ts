/**
 * The main process log: electron-log writing to the user's log folder, every message passed through the
 * core's redactor first, so the API key (or any secret the app holds) never reaches a log file.
 */
import { ipcMain } from 'electron';
import log from 'electron-log/main';
import type { Redactor } from '../core/app/redaction.ts';

/**
 * electron-log opens this channel on import for its renderer half, which the app does not use: a channel
 * outside the contract, with no sender check, through which a page could write lines into the log and
 * raise a native error dialog with words of its choosing. Every IPC channel of the app is the contract's.
 */
export const ELECTRON_LOG_CHANNEL = '__ELECTRON_LOG__';

export interface MainLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createMainLog(redactor: Redactor): MainLog {
  ipcMain.removeAllListeners(ELECTRON_LOG_CHANNEL);
  ipcMain.removeHandler(ELECTRON_LOG_CHANNEL);
  log.transports.file.level = 'info';
  log.transports.console.level = process.env['SKINDESK_LOG_CONSOLE'] ? 'debug' : 'warn';
  log.hooks.push((message) => {
    message.data = message.data.map((part) => redactor.redactValue(part));
    return message;
  });
  return {
    info: (m) => log.info(m),
    warn: (m) => log.warn(m),
    error: (m) => log.error(m),
  };
}

export { log as electronLog };
