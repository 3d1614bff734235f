/**
 * The soak's verdicts: each invariant of issue 9 from the evidence the runner gathered (run.ts). An
 * invariant holds only when the run gave it something to judge: a comparison of zero purchases, zero
 * trades or zero events, a webhook check with no forgery answered, or a kill that missed the batch write
 * proves nothing, so it fails, and `reasons` says which evidence was missing. The figures themselves
 * come from the client's database and the demo market's own state (checks.ts).
 */
import { INJECTION_KINDS, type InjectionKind } from '../../src/demo/index.ts';
import type { CrashCheck, MirrorComparison, PurchaseComparison, TradeComparison } from './checks.ts';
import type { FuzzReport } from './ipc-fuzz.ts';
import type { InvariantName } from './report.ts';
import type { ScanReport } from './secret-scan.ts';

export interface InvariantEvidence {
  /** The chaos level's schedule: whether storms and injected webhooks were part of this run. */
  expected: { storms: boolean; injections: boolean };
  mirror: Pick<MirrorComparison, 'rows' | 'serverRows' | 'divergent'> & { settled: boolean };
  events: { published: number; applied: number };
  purchases: PurchaseComparison;
  rateLimits: { requestsSent: number; received429: number; overLimit: number; earlyRetries: number };
  trades: TradeComparison;
  webhooks: {
    /** Genuine deliveries the client's receiver accepted. */
    receiverAccepted: number;
    /** Injected forgeries (forged, tampered, stale) the receiver accepted, and replays it applied again. */
    forgedAccepted: number;
    replaysApplied: number;
    /** Whether the accepted-ids table still holds every id of the run, and what it holds. */
    acceptedIdsComplete: boolean;
    acceptedIdsInDb: number;
    /** Injections of each kind the receiver answered (an injection that met no receiver tested nothing). */
    answeredInjections: Partial<Record<InjectionKind, number>>;
  };
  memory: { lateGrowthsMb: number[]; boundMb: number; readingsPerProcess: number[] };
  loop: { maxBlockedMs: number };
  kill: { check: CrashCheck; duringBatch: boolean };
  fuzz: FuzzReport;
  /** The grep of the artefacts; `artefactFiles` counts the files read from disk (not the runner's own text). */
  scan: ScanReport & { artefactFiles: number };
}

export interface Verdicts {
  invariants: Record<InvariantName, boolean>;
  /** Why an invariant that compared nothing failed. */
  reasons: string[];
}

export function judgeInvariants(e: InvariantEvidence): Verdicts {
  const reasons: string[] = [];
  /** `ok` when `present`; otherwise a failure, with the missing evidence named. */
  const given = (name: string, present: boolean, missing: string) => {
    if (!present) reasons.push(`${name}: ${missing}`);
    return present;
  };

  const eventsFlowed = given(
    'mirror_equals_server',
    e.mirror.serverRows > 0 && e.events.applied > 0,
    'no event was applied (or the server had no book): the mirror was never tested against the feed',
  );
  const purchasesMade = given(
    'no_purchase_twice, purchases_match_orders',
    e.purchases.confirmed > 0,
    'no purchase was confirmed: nothing to compare with the orders',
  );
  const requestsSent = given(
    'no_rate_limit_exceeded',
    e.rateLimits.requestsSent > 0,
    'no REST request was sent',
  );
  const retryAfterMet = given(
    'retry_after_honoured',
    !e.expected.storms || e.rateLimits.received429 > 0,
    '429 storms were scheduled but the client received no 429: no Retry-After was tested',
  );
  const tradesHeld = given(
    'trades_equal_server',
    e.trades.server > 0,
    'the server has no trade of the account: nothing to compare',
  );
  const webhooksMet =
    given(
      'no_forged_stale_replayed_webhook_accepted',
      e.webhooks.receiverAccepted > 0,
      'the receiver accepted no genuine delivery: refusing forgeries proves nothing',
    ) &&
    given(
      'no_forged_stale_replayed_webhook_accepted',
      !e.expected.injections || INJECTION_KINDS.every((k) => (e.webhooks.answeredInjections[k] ?? 0) > 0),
      `not every kind of injected delivery was answered by the receiver (${INJECTION_KINDS.map((k) => `${k} ${e.webhooks.answeredInjections[k] ?? 0}`).join(', ')})`,
    );
  const memoryRead = given(
    'memory_flat',
    e.memory.readingsPerProcess.length > 0 && e.memory.readingsPerProcess.every((n) => n >= 2),
    'a client process has fewer than two memory readings: no growth can be measured',
  );
  const killedInBatch = given(
    'kill9_consistent_and_resumed',
    e.kill.duringBatch,
    'the kill -9 did not land inside a batch write',
  );
  const scanned = given('api_key_not_leaked', e.scan.artefactFiles > 0, 'no artefact file was scanned');

  return {
    invariants: {
      mirror_equals_server: eventsFlowed && e.mirror.settled && e.mirror.divergent === 0,
      no_purchase_twice:
        purchasesMade && e.purchases.unaccountedOnServer === 0 && e.purchases.claimedTwice === 0,
      purchases_match_orders:
        purchasesMade &&
        e.purchases.missingOnServer === 0 &&
        e.purchases.unaccountedOnServer === 0 &&
        e.purchases.unresolved === 0,
      no_rate_limit_exceeded: requestsSent && e.rateLimits.overLimit === 0,
      retry_after_honoured: retryAfterMet && e.rateLimits.earlyRetries === 0,
      trades_equal_server: tradesHeld && e.trades.divergent === 0,
      // (The accepted-ids table forgets ids after an hour, so "no id accepted twice" is read from it only
      // in runs shorter than that.)
      no_forged_stale_replayed_webhook_accepted:
        webhooksMet &&
        e.webhooks.forgedAccepted === 0 &&
        e.webhooks.replaysApplied === 0 &&
        (!e.webhooks.acceptedIdsComplete || e.webhooks.receiverAccepted <= e.webhooks.acceptedIdsInDb),
      memory_flat: memoryRead && Math.max(0, ...e.memory.lateGrowthsMb) <= e.memory.boundMb,
      event_loop_under_100ms: e.loop.maxBlockedMs <= 100,
      kill9_consistent_and_resumed:
        killedInBatch &&
        e.kill.check.integrity === 'ok' &&
        e.kill.check.watermarkOk &&
        e.kill.check.journalReadable &&
        e.mirror.divergent === 0,
      ipc_fuzz_refused:
        e.fuzz.handlerRuns === 0 &&
        e.fuzz.notRefused === 0 &&
        e.fuzz.crashes === 0 &&
        e.fuzz.aliveAfter &&
        !e.fuzz.prototypePolluted &&
        e.fuzz.hostile.platformActions === 0 &&
        e.fuzz.inputs > 0,
      api_key_not_leaked: scanned && e.scan.leaks.length === 0,
    },
    reasons,
  };
}
