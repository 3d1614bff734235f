/**
 * When the runner fires the chaos level's moment actions (storms, WebSocket drops, restarts, injected
 * webhooks): each kind about once per its mean period, at least once per run when the level has it,
 * spread at seeded random times over the chaos windows (the time before the kill -9 and after the
 * restart), so a short run still meets every fault.
 */
import { INJECTION_KINDS, type ChaosLevel, type InjectionKind } from '../../src/demo/index.ts';
import { seededRandom } from './ipc-fuzz.ts';

export type MomentAction =
  | { kind: 'storm'; seconds: number }
  | { kind: 'clean-drop' }
  | { kind: 'half-open' }
  | { kind: 'restart'; downMs: number }
  | { kind: 'inject'; injection: InjectionKind };

export interface Scheduled {
  /** ms from the start of the chaos phase. */
  at: number;
  action: MomentAction;
  /** Times it was put off because it could not be done yet (a replay before any delivery was accepted). */
  tries?: number;
}

/** Windows are [from, to) in ms from the start of the chaos phase. */
export function scheduleMoments(level: ChaosLevel, windows: readonly [number, number][], seed: number): Scheduled[] {
  const rng = seededRandom(seed ^ 0x5eed);
  const total = windows.reduce((sum, [a, b]) => sum + (b - a), 0);
  const pickTime = () => {
    let at = rng() * total;
    for (const [a, b] of windows) {
      if (at < b - a) return a + at;
      at -= b - a;
    }
    return windows[0]![0];
  };
  const out: Scheduled[] = [];
  const times = (meanSeconds: number, atLeast = 1) => (meanSeconds > 0 ? Math.max(atLeast, Math.round(total / 1000 / meanSeconds)) : 0);
  for (let i = times(level.every.storm); i > 0; i--) out.push({ at: pickTime(), action: { kind: 'storm', seconds: level.stormSeconds } });
  for (let i = times(level.every.cleanDrop); i > 0; i--) out.push({ at: pickTime(), action: { kind: 'clean-drop' } });
  for (let i = times(level.every.halfOpen); i > 0; i--) out.push({ at: pickTime(), action: { kind: 'half-open' } });
  for (let i = times(level.every.restart); i > 0; i--) out.push({ at: pickTime(), action: { kind: 'restart', downMs: level.restartDownMs } });
  // every kind of injected delivery at least once, then in turn
  const injections = times(level.every.injection, INJECTION_KINDS.length);
  for (let i = 0; i < injections; i++) out.push({ at: pickTime(), action: { kind: 'inject', injection: INJECTION_KINDS[i % INJECTION_KINDS.length]! } });
  return out.sort((a, b) => a.at - b.at);
}
