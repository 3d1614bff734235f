/**
 * The title of a notice about the account (a trade that moved, a withdrawal settled, a purchase of an
 * earlier run). On the demo market the account is the demo's own, whose simulated trades start moving at
 * once: "Trade #700006 (deposit 800006): Needs confirmation" on a first start reads as the user's own
 * account unless it says where it comes from. Real-market titles stay as they are.
 */
export const DEMO_NOTICE_PREFIX = 'Demo market · ';

export function accountNoticeTitle(title: string, mode: 'demo' | 'real'): string {
  return mode === 'demo' ? `${DEMO_NOTICE_PREFIX}${title}` : title;
}
