/**
 * In-game inspect links (`steam://rungame/...`). The app opens them through the OS like web links, but
 * a steam:// URL is a command to a local program, so only the two exact shapes the games use are
 * accepted (CS2 and TF2 item previews: a game id, a 17-digit Steam id, the preview command and the
 * S/M, A, D numbers), and only as read from our own mirror for a listing id — never a link handed over
 * by the page.
 */
const INSPECT_LINK_SHAPES: readonly RegExp[] = [
  /^steam:\/\/rungame\/730\/\d{17}\/\+csgo_econ_action_preview(?:%20| )[SM]\d{1,20}A\d{1,20}D\d{1,40}$/,
  /^steam:\/\/rungame\/440\/\d{17}\/\+tf_econ_item_preview(?:%20| )[SM]\d{1,20}A\d{1,20}D\d{1,40}$/,
];

export type InspectVerdict = { ok: true; url: string } | { ok: false; reason: string };

export function checkInspectLink(raw: string | null | undefined): InspectVerdict {
  if (!raw) return { ok: false, reason: 'the listing has no inspect link' };
  if (raw.length > 300) return { ok: false, reason: 'the inspect link is too long' };
  if (!INSPECT_LINK_SHAPES.some((shape) => shape.test(raw))) {
    return { ok: false, reason: 'the inspect link does not have the shape of a CS2 or TF2 item preview' };
  }
  // one spelling for the OS: the space the games write as %20
  return { ok: true, url: raw.replace(' ', '%20') };
}
