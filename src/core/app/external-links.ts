/**
 * Which links the app opens in the user's browser: https only, no credentials in the URL, and only hosts
 * on the allowlist (or their subdomains) — never "any URL the page asked for", which would let a
 * compromised page launch arbitrary protocol handlers or local files through the OS.
 */

/**
 * Hosts Skindesk links to: the item platform's pages and the project's own pages. Not the configured
 * marketplace's host: no screen links to its web pages, and the renderer can change that setting, so a
 * compromised page could point it at any site and then open it in the browser.
 */
export const EXTERNAL_LINK_HOSTS: readonly string[] = [
  'steamcommunity.com',
  'store.steampowered.com',
  'help.steampowered.com',
  'github.com',
];

export type LinkVerdict = { ok: true; url: string } | { ok: false; reason: string };

export function checkExternalLink(raw: string): LinkVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'only https links are opened' };
  if (url.username || url.password) return { ok: false, reason: 'links with credentials are not opened' };
  const host = url.hostname.toLowerCase();
  if (!EXTERNAL_LINK_HOSTS.some((a) => host === a || host.endsWith(`.${a}`))) {
    return { ok: false, reason: `${host} is not on the list of sites Skindesk opens` };
  }
  return { ok: true, url: url.href };
}
