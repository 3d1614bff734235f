/** `0x5290…9EE7`: enough of a crypto address to recognise it, short enough for a sentence or a card. */
export function shortAddress(address: string): string {
  return address.length <= 14 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`;
}
