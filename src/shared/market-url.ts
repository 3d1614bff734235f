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
