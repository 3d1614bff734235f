import { join } from 'node:path';
import { app, BrowserWindow, session } from 'electron';

// Electron main process: owns the window. A later issue adds the IPC services, the database and the feed.

const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
const rendererIndex = join(import.meta.dirname, '../renderer/index.html');

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    title: 'Skindesk',
    backgroundColor: '#1a1b1e',
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());

  const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
  if (!app.isPackaged && devServerUrl) {
    void win.loadURL(devServerUrl);
  } else {
    void win.loadFile(rendererIndex);
  }
  return win;
}

function hardenSessionAndContents(): void {
  // No web permission (camera, notifications, geolocation, ...) is ever granted to page content.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  app.on('web-contents-created', (_event, contents) => {
    // The app is a single page: any navigation away from it is refused.
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
    // No new windows (window.open, target=_blank). Opening vetted links in the user's browser
    // comes later, through an allow-listed IPC call — never by passing any URL to shell.openExternal.
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [win] = BrowserWindow.getAllWindows();
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  void app.whenReady().then(() => {
    hardenSessionAndContents();
    createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow();
    });
  });
}
