// The soak's verdicts (test/soak/invariants.ts): every invariant holds on a run that tested it, and none
// holds on a run that gave it nothing to compare (no purchase, no trade, no event, no forgery answered...).
import { describe, expect, it } from 'vitest';
import { type InvariantEvidence, judgeInvariants } from '../../../test/soak/invariants.ts';
import { INVARIANT_NAMES, type InvariantName } from '../../../test/soak/report.ts';

function goodRun(): InvariantEvidence {
  return {
    expected: { storms: true, injections: true },
    mirror: { rows: 5_000, serverRows: 5_000, divergent: 0, settled: true },
    events: { published: 1_200, applied: 900 },
    purchases: {
      attempted: 14,
      confirmed: 9,
      notBought: 5,
      unresolved: 0,
      reconciled: 1,
      missingOnServer: 0,
      unaccountedOnServer: 0,
      claimedTwice: 0,
    },
    rateLimits: { requestsSent: 70, received429: 4, overLimit: 0, earlyRetries: 0 },
    trades: { server: 15, held: 15, missing: 0, extra: 0, different: 0, divergent: 0, examples: [] },
    webhooks: {
      receiverAccepted: 18,
      forgedAccepted: 0,
      replaysApplied: 0,
      acceptedIdsComplete: true,
      acceptedIdsInDb: 18,
      answeredInjections: { forged: 2, tampered: 1, stale: 2, replayed: 1 },
    },
    memory: { lateGrowthsMb: [3, 12], boundMb: 64, readingsPerProcess: [4, 5] },
    loop: { maxBlockedMs: 40 },
    kill: {
      check: {
        integrity: 'ok',
        watermarkOk: true,
        lastSeq: '10',
        maxRowSeq: '10',
        journalReadable: true,
        openIntents: 0,
      },
      duringBatch: true,
    },
    fuzz: {
      calls: 80,
      inputs: 10_000,
      perCall: {},
      handlerRuns: 0,
      notRefused: 0,
      crashes: 0,
      unknownNames: 10,
      hostile: { sent: 50, refused: 50, platformActions: 0 },
      aliveAfter: true,
      prototypePolluted: false,
      problems: [],
    },
    scan: { files: 19, bytes: 1_000_000, leaks: [], artefactFiles: 18 },
  };
}

const failing = (e: InvariantEvidence): InvariantName[] =>
  Object.entries(judgeInvariants(e).invariants)
    .filter(([, ok]) => !ok)
    .map(([name]) => name as InvariantName);

describe('soak invariants', () => {
  it('all hold on a run that tested each of them', () => {
    const verdicts = judgeInvariants(goodRun());
    expect(Object.keys(verdicts.invariants).sort()).toEqual([...INVARIANT_NAMES].sort());
    expect(failing(goodRun())).toEqual([]);
    expect(verdicts.reasons).toEqual([]);
  });

  it('a run without a single confirmed purchase proves nothing about purchases', () => {
    const e = goodRun();
    e.purchases = { ...e.purchases, attempted: 0, confirmed: 0, notBought: 0, reconciled: 0 };
    expect(failing(e)).toEqual(['no_purchase_twice', 'purchases_match_orders']);
    expect(judgeInvariants(e).reasons.join('\n')).toMatch(/no purchase was confirmed/);
  });

  it('a run whose account has no trade proves nothing about trades', () => {
    const e = goodRun();
    e.trades = { ...e.trades, server: 0, held: 0 };
    expect(failing(e)).toEqual(['trades_equal_server']);
  });

  it('a mirror that applied no event was never tested against the feed', () => {
    const e = goodRun();
    e.events = { published: 0, applied: 0 };
    expect(failing(e)).toEqual(['mirror_equals_server']);
  });

  it('no REST request, or storms that delivered no 429, test no rate limit or Retry-After', () => {
    const quiet = goodRun();
    quiet.rateLimits = { ...quiet.rateLimits, requestsSent: 0, received429: 0 };
    expect(failing(quiet)).toEqual(['no_rate_limit_exceeded', 'retry_after_honoured']);
    const calm = goodRun();
    calm.expected = { storms: false, injections: false };
    calm.rateLimits = { ...calm.rateLimits, received429: 0 };
    calm.webhooks = { ...calm.webhooks, answeredInjections: {} };
    expect(failing(calm)).toEqual([]); // chaos 0: no storm and no forgery was part of the run
  });

  it('webhooks: a receiver that accepted nothing, or forgeries that met no receiver, prove nothing', () => {
    const deaf = goodRun();
    deaf.webhooks = { ...deaf.webhooks, receiverAccepted: 0, acceptedIdsInDb: 0 };
    expect(failing(deaf)).toEqual(['no_forged_stale_replayed_webhook_accepted']);
    const unanswered = goodRun();
    unanswered.webhooks = {
      ...unanswered.webhooks,
      answeredInjections: { forged: 2, stale: 2, replayed: 1 },
    };
    expect(failing(unanswered)).toEqual(['no_forged_stale_replayed_webhook_accepted']);
    expect(judgeInvariants(unanswered).reasons.join('\n')).toMatch(/tampered 0/);
  });

  it('a kill outside a batch write, or a process with one memory reading, fails its invariant', () => {
    const e = goodRun();
    e.kill = { ...e.kill, duringBatch: false };
    expect(failing(e)).toEqual(['kill9_consistent_and_resumed']);
    const m = goodRun();
    m.memory = { ...m.memory, readingsPerProcess: [4, 1] };
    expect(failing(m)).toEqual(['memory_flat']);
  });

  it("a grep that read only the runner's own text scanned no artefact", () => {
    const e = goodRun();
    e.scan = { files: 1, bytes: 500, leaks: [], artefactFiles: 0 };
    expect(failing(e)).toEqual(['api_key_not_leaked']);
  });

  it('the comparisons themselves still decide', () => {
    const e = goodRun();
    e.purchases = { ...e.purchases, unaccountedOnServer: 1 };
    e.mirror = { ...e.mirror, divergent: 2 };
    e.webhooks = { ...e.webhooks, forgedAccepted: 1 };
    e.rateLimits = { ...e.rateLimits, earlyRetries: 1 };
    expect(failing(e).sort()).toEqual(
      [
        'kill9_consistent_and_resumed',
        'mirror_equals_server',
        'no_forged_stale_replayed_webhook_accepted',
        'no_purchase_twice',
        'purchases_match_orders',
        'retry_after_honoured',
      ].sort(),
    );
  });
});
