/**
 * Reads a private listing's share link (or a bare token) as a person pastes it. The spec only says a
 * private listing is bought with the `private_token` of its share link; the link's exact shape is the
 * marketplace's, so any URL carrying a token parameter (private_token, token, t) and a listing id (in
 * the path after /listing(s)/, or as listing_id / id) is accepted, as are "ID TOKEN" and "ID:TOKEN".
 */
export interface ShareLink {
  listingId: number | null;
  token: string | null;
  problem: string | null;
}

const TOKEN = /^[A-Za-z0-9_-]{4,200}$/;
const ID = /^[1-9]\d{0,15}$/;

function result(listingId: number | null, token: string | null): ShareLink {
  if (!token) return { listingId, token: null, problem: 'No share token found in what was pasted.' };
  if (!TOKEN.test(token)) return { listingId, token: null, problem: 'The share token has characters a token never has.' };
  return { listingId, token, problem: listingId === null ? 'The link has no listing id: type it in.' : null };
}

export function parseShareLink(pasted: string): ShareLink {
  const text = pasted.trim();
  if (!text) return { listingId: null, token: null, problem: 'Paste a share link or a token.' };
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { listingId: null, token: null, problem: 'That is not a valid link.' };
    }
    const params = new URLSearchParams(url.search || url.hash.replace(/^#/, ''));
    const token = params.get('private_token') ?? params.get('token') ?? params.get('t');
    const fromPath = /\/listings?\/(\d+)/.exec(url.pathname)?.[1];
    const idText = fromPath ?? params.get('listing_id') ?? params.get('id');
    const listingId = idText && ID.test(idText) ? Number(idText) : null;
    return result(listingId, token);
  }
  const pair = /^(\d+)\s*[:\s]\s*(\S+)$/.exec(text);
  if (pair && ID.test(pair[1] as string)) return result(Number(pair[1]), pair[2] as string);
  return result(null, text);
}
