/**
 * One string per item — a game and a market hash name — for maps keyed by item (price sets, holdings,
 * P&L). The separator cannot occur in a name.
 */
export function itemKey(appId: number, marketHashName: string): string {
  return `${appId}\u0000${marketHashName}`;
}
