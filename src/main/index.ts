/**
 * Electron main process: the composition root of the desktop app. It owns the windows and the process
 * hardening; everything the renderer can ask for is implemented by AppCore (src/core/app), which this
 * file connects to Electron IPC. Startup: hardening → app services (the mirror opens from disk before
 * any network) → IPC → main window.
 */
import { join } from 'node:path';
import { BrowserWindow, Notification, app, dialog, ipcMain, session, shell } from 'electron';
import { AppCore, Redactor, demoHandleOf } from '../core/app/index.ts';
import { KeyringSecretStore, profileKeyringService } from '../core/secrets/index.ts';
import { startDemoMarketThread } from '../demo/index.ts';
import { contentSecurityPolicy, pushChannel } from '../shared/ipc/index.ts';
import { APP_ORIGIN, appUrl } from './app-protocol.ts';
import { registerIpcHandlers } from './ipc-guard.ts';
import { createMainLog, electronLog } from './logging.ts';
import { hardenAllWebContents, hardenSession, registerAppScheme, serveRenderer } from './security.ts';
import { type AppOrigin, urlHasOrigin } from './sender-policy.ts';
import { startUpdater } from './updater.ts';
import { WindowFactory, windowStateFile } from './windows.ts';

const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
const rendererDir = join(import.meta.dirname, '../renderer');

// Tests and side-by-side installs: a separate profile (settings, mirrors, window state, logs, and its
// own keychain entries).
const userDataOverride = process.env['SKINDESK_USER_DATA'];
if (userDataOverride) app.setPath('userData', userDataOverride);

// Before ready: every renderer sandboxed, and the app:// scheme privileged.
app.enableSandbox();
registerAppScheme();

/** The dev server (npm run dev) is trusted only in unpackaged runs. */
function devServerOrigin(): { url: string; origin: AppOrigin } | null {
  const url = process.env['ELECTRON_RENDERER_URL'];
  if (app.isPackaged || !url) return null;
  const parsed = new URL(url);
  return { url, origin: { protocol: parsed.protocol, host: parsed.host } };
}

async function main(): Promise<void> {
  await app.whenReady();
  const redactor = new Redactor();
  const log = createMainLog(redactor);
  // An exception nothing caught goes to the log with its stack (redacted, as every line) and to the core,
  // which tells it as a notice, instead of Electron's modal box with the stack over the trading screen.
  let started: AppCore | null = null;
  electronLog.errorHandler.startCatching({ showDialog: false, onError: ({ error }) => started?.unexpectedFailure(error) });
  const csp = contentSecurityPolicy();
  const dev = devServerOrigin();
  const origins = [APP_ORIGIN, ...(dev ? [dev.origin] : [])];

  hardenSession(session.defaultSession, csp, log);
  serveRenderer(session.defaultSession, rendererDir, csp);
  // before anything can create a webContents
  hardenAllWebContents(log);

  let core: AppCore;
  try {
    core = await AppCore.start({
      dataDir: app.getPath('userData'),
      secrets: new KeyringSecretStore(
        userDataOverride ? { service: profileKeyringService(userDataOverride) } : {},
      ),
      platform: {
        // reviewed: AppCore calls this only with an https URL on the allowlist (core/app/external-links.ts)
        openExternal: (url) => shell.openExternal(url), // eng-disable OPEN_EXTERNAL_JS_CHECK
        notify: (title, body) => {
          if (Notification.isSupported()) new Notification({ title, body, silent: false }).show();
        },
        chooseSaveFile: async ({ title, defaultName, filters }) => {
          const options = { title, defaultPath: join(app.getPath('downloads'), defaultName), filters };
          const owner = BrowserWindow.getFocusedWindow();
          const answer = owner ? await dialog.showSaveDialog(owner, options) : await dialog.showSaveDialog(options);
          return answer.canceled || !answer.filePath ? null : answer.filePath;
        },
      },
      // in a thread of its own (out/main/demo-worker.js): the simulated market never runs on this one
      startDemoMarket: async ({ seqStart }) => {
        const demo = await startDemoMarketThread({
          options: { port: 0, host: '127.0.0.1', seqStart },
          workerFile: new URL('./demo-worker.js', import.meta.url),
        });
        return demoHandleOf(demo);
      },
      version: app.getVersion(),
      log,
      redactor,
      // the bundled worker entry beside this file (electron.vite.config.ts builds both)
      syncWorkerFile: new URL('./sync-worker.js', import.meta.url),
    });
  } catch (err) {
    const message = redactor.redact(err instanceof Error ? err.message : String(err));
    log.error(`startup failed: ${message}`);
    dialog.showErrorBox('Skindesk cannot start', message);
    app.exit(1);
    return;
  }
  started = core;

  const windows = new WindowFactory({
    preloadPath,
    devTools: !app.isPackaged,
    urlFor: (route) => (dev ? new URL(route, dev.url).href : appUrl(`index.html${route}`)),
    onLoadFailed: (url, error) => {
      const message = redactor.redact(error.message);
      log.error(`the window's page did not load (${url}): ${message}`);
      dialog.showErrorBox('Skindesk could not show its window', `The page ${url} did not load: ${message}`);
    },
    onRendererGone: (reason, exitCode, reloading) => {
      log.error(`the window's page stopped (${reason}, exit code ${exitCode}); ${reloading ? 'reloading it' : 'it stopped again and again: not reloaded'}`);
      if (!reloading && reason !== 'clean-exit') {
        dialog.showErrorBox(
          'Skindesk’s window stopped',
          `The window's page stopped several times in a minute (${reason}). Watchlists and auto-buy keep running until Skindesk quits: restart it to see them again.`,
        );
      }
    },
  });
  registerIpcHandlers(
    ipcMain,
    core.dispatch,
    { origins, isOurWindow: windows.isOurWindow },
    (call, reason, url) => log.warn(`refused IPC ${call} from ${url ?? 'an unknown frame'}: ${reason}`),
    (call, error) => log.error(`IPC ${call} threw past its dispatcher: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  );
  // Pushes go only to our windows while they show our page.
  core.subscribe((name, payload) => {
    for (const win of windows.windows()) {
      if (urlHasOrigin(win.webContents.getURL(), origins)) win.webContents.send(pushChannel(name), payload);
    }
  });

  const stateFile = windowStateFile(app.getPath('userData'));
  windows.createMain(stateFile);
  startUpdater(log);

  app.on('second-instance', () => {
    const [win] = windows.windows();
    if (!win) return void windows.createMain(stateFile);
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('activate', () => {
    if (windows.windows().length === 0) windows.createMain(stateFile);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Close the core (stop the feed, flush the mirror, stop the demo market) before the process exits.
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    core
      .close()
      .catch((err: unknown) => log.error(`shutdown: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  main().catch((err: unknown) => {
    console.error(err);
    app.exit(1);
  });
}
