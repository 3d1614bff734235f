/**
 * Which links the app opens in the user's browser: https only, no credentials in the URL, and only hosts
 * on the allowlist (or their subdomains) — never "any URL the page asked for", which would let a
 * compromised page launch arbitrary protocol handlers or local files through the OS.
 */

/** Hosts Skindesk links to: the item platform's pages and the project's own pages. */
export const EXTERNAL_LINK_HOSTS: readonly string[] = [
  'steamcommunity.com',
  'store.steampowered.com',
  'help.steampowered.com',
  'github.com',
];

export type LinkVerdict = { ok: true; url: string } | { ok: false; reason: string };

/** `extraHosts`: e.g. the configured marketplace's host, so its web pages can be opened too. */
export function checkExternalLink(raw: string, extraHosts: readonly string[] = []): LinkVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'only https links are opened' };
  if (url.username || url.password) return { ok: false, reason: 'links with credentials are not opened' };
  const host = url.hostname.toLowerCase();
  const allowed = [...EXTERNAL_LINK_HOSTS, ...extraHosts.map((h) => h.toLowerCase())];
  if (!allowed.some((a) => host === a || host.endsWith(`.${a}`))) {
    return { ok: false, reason: `${host} is not on the list of sites Skindesk opens` };
  }
  return { ok: true, url: url.href };
}
