/**
 * When the runner fires the chaos level's moment actions (storms, WebSocket drops, restarts, injected
 * webhooks) within one chaos phase: each kind about once per its mean period, spread at seeded random
 * times over the phase. Kinds named in `required` happen at least once (the level permitting), so a
 * short run still meets every fault: the runner asks for the gentle ones before the kill -9 and for all
 * of them after the restart.
 */
import { INJECTION_KINDS, type ChaosLevel, type InjectionKind } from '../../src/demo/index.ts';
import { seededRandom } from './ipc-fuzz.ts';

export type MomentAction =
  | { kind: 'storm'; seconds: number }
  | { kind: 'clean-drop' }
  | { kind: 'half-open' }
  | { kind: 'restart'; downMs: number }
  | { kind: 'inject'; injection: InjectionKind };

export type MomentKind = Exclude<MomentAction['kind'], 'inject'> | `inject-${InjectionKind}`;

export const ALL_MOMENT_KINDS: readonly MomentKind[] = ['storm', 'clean-drop', 'half-open', 'restart', ...INJECTION_KINDS.map((k) => `inject-${k}` as const)];

export interface Scheduled {
  /** ms from the start of the phase. */
  at: number;
  action: MomentAction;
  /** Times it was put off because it could not be done yet (a replay before any delivery was accepted). */
  tries?: number;
}

/** Actions for a phase whose actions may fall in [from, to) ms from its start. */
export function scheduleMoments(level: ChaosLevel, [from, to]: [number, number], seed: number, required: readonly MomentKind[]): Scheduled[] {
  const rng = seededRandom(seed ^ 0x5eed);
  const span = Math.max(1, to - from);
  const at = () => from + rng() * span;
  const times = (kind: MomentKind, meanSeconds: number) => {
    if (meanSeconds <= 0) return 0;
    return Math.max(required.includes(kind) ? 1 : 0, Math.round(span / 1000 / meanSeconds));
  };
  const out: Scheduled[] = [];
  const add = (n: number, action: MomentAction) => {
    for (let i = 0; i < n; i++) out.push({ at: at(), action });
  };
  add(times('storm', level.every.storm), { kind: 'storm', seconds: level.stormSeconds });
  add(times('clean-drop', level.every.cleanDrop), { kind: 'clean-drop' });
  add(times('half-open', level.every.halfOpen), { kind: 'half-open' });
  add(times('restart', level.every.restart), { kind: 'restart', downMs: level.restartDownMs });
  // Injections take turns by kind; the required kinds come first.
  const kinds = [...INJECTION_KINDS].sort((a, b) => Number(!required.includes(`inject-${a}`)) - Number(!required.includes(`inject-${b}`)));
  const injections = Math.max(kinds.filter((k) => required.includes(`inject-${k}`)).length, times('inject-forged', level.every.injection));
  if (level.every.injection > 0) for (let i = 0; i < injections; i++) add(1, { kind: 'inject', injection: kinds[i % kinds.length]! });
  return out.sort((a, b) => a.at - b.at);
}
