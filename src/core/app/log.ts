/** The logger core/app writes to; Electron main backs it with electron-log, the test host with the console. */
export interface AppLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLog: AppLog = { info: () => {}, warn: () => {}, error: () => {} };

/** A console logger that redacts every line (the test host's). */
export function consoleLog(redact: (text: string) => string, prefix = 'skindesk'): AppLog {
  return {
    info: (m) => console.log(`[${prefix}] ${redact(m)}`),
    warn: (m) => console.warn(`[${prefix}] ${redact(m)}`),
    error: (m) => console.error(`[${prefix}] ${redact(m)}`),
  };
}
