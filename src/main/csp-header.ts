/**
 * Adds the app's CSP as a response header to everything the renderer loads over http(s) (the dev server
 * in `npm run dev`); app:// responses carry it from the protocol handler itself (app-protocol.ts).
 * Pure helper so the header merge is testable without Electron.
 */
export type ResponseHeaders = Record<string, string[] | string>;

export function withCspHeader(
  headers: ResponseHeaders | undefined,
  policy: string,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    // a CSP sent by the server is replaced, not merged: ours is the policy
    if (name.toLowerCase() === 'content-security-policy') continue;
    out[name] = Array.isArray(value) ? value : [value];
  }
  out['Content-Security-Policy'] = [policy];
  return out;
}
