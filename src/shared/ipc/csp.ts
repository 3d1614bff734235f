/**
 * The renderer's Content-Security-Policy, one string for every way the renderer is served: the meta tag
 * in index.html, the app:// protocol and dev-server responses in Electron, and the browser test host.
 * Scripts only from the app itself (no inline script, no eval); styles may be inline because Mantine sets
 * CSS variables through style attributes; images may come from https CDNs (item and sticker art).
 */
export const CSP_DIRECTIVES: readonly (readonly [string, string])[] = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  ['style-src', "'self' 'unsafe-inline'"],
  ['img-src', "'self' data: https:"],
  ['font-src', "'self' data:"],
  ['connect-src', "'self'"],
  ['object-src', "'none'"],
  ['frame-src', "'none'"],
  ['worker-src', "'self'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
  ['frame-ancestors', "'none'"],
];

/** Browsers ignore (and warn about) these in a <meta> tag; they only work as a header. */
const HEADER_ONLY = new Set(['frame-ancestors']);

export interface CspOptions {
  /** For index.html's <meta http-equiv> tag: leaves out the header-only directives. */
  meta?: boolean;
  /** Extra connect-src sources (the test host's ws:// origin). */
  extraConnect?: readonly string[];
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const extra = options.extraConnect ?? [];
  return CSP_DIRECTIVES.filter(([name]) => !(options.meta && HEADER_ONLY.has(name)))
    .map(([name, value]) =>
      name === 'connect-src' && extra.length > 0 ? `${name} ${value} ${extra.join(' ')}` : `${name} ${value}`,
    )
    .join('; ');
}
