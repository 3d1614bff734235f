/**
 * Instants in a notice or a refusal, on UTC so that they read the same on any machine and match the
 * marketplace's timestamps: `2026-11-23 14:05 UTC` when the day matters, `14:05 UTC` within a session.
 */
export function utcMinute(ms: number): string {
  return `${utcIso(ms).slice(0, 16).replace('T', ' ')} UTC`;
}

export function utcClock(ms: number): string {
  return `${utcIso(ms).slice(11, 16)} UTC`;
}

function utcIso(ms: number): string {
  return new Date(ms).toISOString();
}
