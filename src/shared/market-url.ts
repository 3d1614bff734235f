/**
 * The marketplace's REST base URL as the user may set it, and which origin an API key belongs to. One
 * rule for the IPC contract (what the main process accepts) and the Settings form (what it says while
 * the user types).
 */

/** Loopback hosts: the only ones reached over plain http (a local or test server on this machine). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/**
 * An address of a local network written as the host (10.x, 172.16–31.x, 192.168.x, link-local, the
 * shared CGNAT range, IPv6 unique-local and link-local). The URL parser has already turned other
 * spellings of an IPv4 address (hex, a single number) into dotted form. Names are not resolved here.
 */
export function isPrivateNetworkHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  return /^\[f[cd][0-9a-f]{0,2}:/.test(host) || /^\[fe[89ab][0-9a-f]?:/.test(host);
}

/**
 * Why `raw` cannot be the marketplace's base URL, or null when it can. The API key travels in every
 * request's header, so plain http is refused except to this machine.
 */
export function marketUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'the marketplace URL must start with https://';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return 'the marketplace URL must start with https:// (http:// only for a server on this machine)';
  }
  if (url.username || url.password) return 'the marketplace URL must not hold a user name or password';
  if (url.search || url.hash) return 'the marketplace URL must not hold a query or a fragment';
  // the address as the API docs show it: the client adds the routes' prefix to every request itself
  if (/\/public\/v1\/?$/i.test(url.pathname)) return 'leave out /public/v1 at the end: Skindesk adds it to every request';
  return null;
}

/** The origin an URL belongs to, or null for none (no URL, or not a URL). */
export function originOf(raw: string | null): string | null {
  if (raw === null) return null;
  try {
    return new URL(raw).origin;
  } catch {
    return null;
  }
}
