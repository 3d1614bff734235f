/**
 * The packaged renderer is served from `app://skindesk/` rather than file://: a standard, secure scheme
 * gives the page a real origin (so 'self' in the CSP means only our files), lets every response carry
 * the CSP header, and keeps the page out of the file system at large.
 */
import { resolveStaticFile } from '../core/app/static-files.ts';

export const APP_SCHEME = 'app';
export const APP_HOST = 'skindesk';
export const APP_ORIGIN = { protocol: `${APP_SCHEME}:`, host: APP_HOST } as const;

export function appUrl(path = 'index.html'): string {
  return `${APP_SCHEME}://${APP_HOST}/${path.replace(/^\/+/, '')}`;
}

/** The file under `root` an app:// URL names, or null for another host or a path that leaves `root`. */
export function resolveAppFile(root: string, requestUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  return resolveStaticFile(root, url.pathname);
}
