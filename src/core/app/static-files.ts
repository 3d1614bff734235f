/**
 * Serving the built renderer (out/renderer) safely, for both Electron's app:// protocol and the browser
 * test host: a request path maps to a file strictly inside the root, or to nothing.
 */
import { extname, resolve, sep } from 'node:path';

/**
 * The file under `root` that a URL path (still percent-encoded) names, or null when it tries to leave
 * `root` (`..`, encoded separators, NUL) or cannot be decoded. `/` is index.html.
 */
export function resolveStaticFile(root: string, encodedPathname: string): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(encodedPathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const relative = pathname === '/' || pathname === '' ? 'index.html' : pathname.replace(/^\/+/, '');
  const base = resolve(root);
  const file = resolve(base, relative);
  return file.startsWith(base + sep) ? file : null;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Headers every renderer file is served with, whatever the transport. */
export function staticFileHeaders(file: string, csp: string): Record<string, string> {
  return {
    'Content-Type': contentTypeOf(file),
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}
