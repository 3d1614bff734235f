/**
 * Messages are built to read inside a longer line ("address: this does not look like…", "waiting for
 * the partner…"); where one stands alone — a toast, a list item, a caption — it starts with a capital.
 */
export function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A message standing alone as a sentence: a capital first, and a full stop unless it already ends one. */
export function asSentence(text: string): string {
  const capitalised = upperFirst(text.trim());
  return /[.!?…]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/**
 * A sentence made to read on inside a longer line, after a colon: a small first letter (unless it starts
 * an acronym: "API key…" stays) and no full stop.
 */
export function inLine(text: string): string {
  const bare = text.trim().replace(/\.$/, '');
  return /^[A-Z][a-z]/.test(bare) ? bare.charAt(0).toLowerCase() + bare.slice(1) : bare;
}
