/**
 * Process-wide hardening, applied once before any window exists: the app:// scheme, a deny-all permission
 * policy, no downloads started by a page, the CSP header on every http(s) response, and rules for every
 * webContents ever created (no navigation, no new windows, no webviews).
 */
import { readFile } from 'node:fs/promises';
import { app, protocol, shell, type Session } from 'electron';
import { checkExternalLink } from '../core/app/external-links.ts';
import { staticFileHeaders } from '../core/app/static-files.ts';
import { APP_SCHEME, resolveAppFile } from './app-protocol.ts';
import { withCspHeader } from './csp-header.ts';
import type { MainLog } from './logging.ts';

/** Must run before `app.whenReady()`: privileges are fixed at startup. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Serves out/renderer under app://skindesk/, every response with the CSP header. */
export function serveRenderer(ses: Session, rendererDir: string, csp: string): void {
  ses.protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(rendererDir, request.url);
    // a miss carries the policy too: every response of the app's origin is under it, not only the files
    const notFound = () =>
      new Response('not found', { status: 404, headers: staticFileHeaders('not-found.txt', csp) });
    if (!file) return notFound();
    try {
      return new Response(await readFile(file), { status: 200, headers: staticFileHeaders(file, csp) });
    } catch {
      return notFound();
    }
  });
}

export function hardenSession(ses: Session, csp: string, log: MainLog): void {
  // No web permission (camera, notifications, geolocation, clipboard-read, ...) is granted to page content.
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  // The app saves files itself (exports, from main, after a save dialog); a download started by the page
  // (an <a download> of a blob or data: URL) would offer the trader any file under any name, say
  // "Skindesk-update.exe", in a save dialog that looks like the app's own.
  ses.on('will-download', (event, item) => {
    event.preventDefault();
    log.warn(`refused a download started by the page: ${item.getFilename()}`);
  });
  // The dev server's responses get the same CSP as app:// ones.
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCspHeader(details.responseHeaders, csp) });
  });
}

/** Rules for every webContents, including ones we did not create ourselves (devtools excluded by Electron). */
export function hardenAllWebContents(log: MainLog): void {
  app.on('web-contents-created', (_event, contents) => {
    // The app is a single page: any navigation away from it is refused.
    contents.on('will-navigate', (event, url) => {
      event.preventDefault();
      log.warn(`refused navigation to ${url}`);
    });
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
    // navigator.bluetooth.requestDevice: left alone, Electron pairs the first device it finds, with no
    // chooser for the trader; the app uses no Bluetooth, so every request is cancelled.
    contents.on('select-bluetooth-device', (event, _devices, callback) => {
      event.preventDefault();
      callback('');
    });
    // No new windows. A plain link to an allowlisted https site opens in the user's browser instead.
    contents.setWindowOpenHandler(({ url }) => {
      const verdict = checkExternalLink(url);
      if (!verdict.ok) {
        log.warn(`refused to open a window for ${url}: ${verdict.reason}`);
        return { action: 'deny' };
      }
      // reviewed: only an https URL on the allowlist (checkExternalLink) reaches openExternal
      const opening = shell.openExternal(verdict.url); // eng-disable OPEN_EXTERNAL_JS_CHECK
      opening.catch((err: unknown) =>
        log.warn(`could not open ${verdict.url} in the browser: ${err instanceof Error ? err.message : String(err)}`),
      );
      return { action: 'deny' };
    });
  });
}
