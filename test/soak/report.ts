/**
 * The one JSON object `npm run soak` prints: the figures of the run and each invariant's verdict. The
 * runner builds it (run.ts) and the test suite reads it (test/integration/soak/soak.test.ts).
 */
import type { ChaosStats } from '../../src/demo/index.ts';
import type { FuzzReport } from './ipc-fuzz.ts';
import type { StartupStep } from './protocol.ts';

export const INVARIANT_NAMES = [
  'mirror_equals_server',
  'no_purchase_twice',
  'purchases_match_orders',
  'no_rate_limit_exceeded',
  'retry_after_honoured',
  'trades_equal_server',
  'no_forged_stale_replayed_webhook_accepted',
  'memory_flat',
  'event_loop_under_100ms',
  'kill9_consistent_and_resumed',
  'ipc_fuzz_refused',
  'api_key_not_leaked',
] as const;
export type InvariantName = (typeof INVARIANT_NAMES)[number];

export interface SoakReport {
  ok: boolean;
  config: { minutes: number; chaos: number; seed: number; listings: number; rate: number; time_scale: number; sync_timers: string; artefacts: string };
  duration_ms: number;
  /** `applied_while_resyncing`: applied while the state was `resyncing` (the book follows the feed during a re-read). */
  events: {
    published: number;
    received: number;
    applied: number;
    applied_while_resyncing: number;
    stale_ignored: number;
    covered_by_snapshot: number;
    unknown_listing: number;
  };
  /** `live_fraction`: per process, the share of its time after first going live that it was live. */
  sync: { resyncs: number; divergence_repaired: number; divergence_found_at_end: number; live_fraction: number[] };
  mirror: { rows: number; server_rows: number; divergent_rows: number; missing: number; extra: number; different: number; examples: string[]; last_seq: string | null; server_seq: string };
  rate_limits: {
    '429_received': number;
    storm_429_sent: number;
    requests_sent: number;
    waits: number;
    /** Requests beyond a limit, apart from those below. */
    over_limit: number;
    /** Refusals of the restarted process's requests in windows the killed process had opened. */
    over_limit_carried_over_restart: number;
    early_retries: number;
    over_limit_by_endpoint: Record<string, { refused: number; earlyRetries: number }>;
    recent_violations: { at: string; key: string; what: string; windowStart: string; previous: string | null }[];
  };
  purchases: {
    attempted: number;
    confirmed: number;
    not_bought: number;
    unresolved: number;
    reconciled_from_orders: number;
    duplicated: number;
    missing_on_server: number;
    answers_lost_by_chaos: number;
    left_open_at_quiesce: number;
  };
  trades: { server: number; held: number; divergent: number; examples: string[]; sells: number; withdrawals: number };
  webhooks: {
    accepted: number;
    accepted_ids_in_db: number;
    rejected: Record<string, number>;
    injected: ChaosStats['webhooks']['injected'];
    injected_accepted: number;
    replays_applied: number;
    injected_answers: Record<string, number>;
    failed_by_chaos: number;
    answers_lost_by_chaos: number;
    duplicated_by_chaos: number;
    delayed_by_chaos: number;
  };
  chaos: { actions: Record<string, number>; rest: ChaosStats['rest']; websocket: ChaosStats['websocket']; restarts: number };
  ipc: { calls: number; pushes: number; failed_calls: Record<string, number> };
  memory: {
    rss_start_mb: number;
    /** At the end of trading (the quiesce), before the end-of-run checks. */
    rss_end_mb: number;
    /** After the checks (order export, IPC fuzz): reported, not judged. */
    rss_after_checks_mb: number;
    rss_peak_mb: number;
    /** From going live to the end of trading (includes warm-up). */
    rss_growth_mb: number;
    /** RSS over the second half of the live period, last quarter's median reading against the second quarter's. */
    rss_growth_second_half_mb: number;
    /** The memory `memory_flat` judges: the processes' anonymous memory where Linux reports it, else RSS. */
    judged: 'anonymous' | 'rss';
    /** That memory's growth over the second half, measured as RSS's is: judged against `bound_mb`. */
    growth_second_half_mb: number;
    bound_mb: number;
    per_process: {
      incarnation: number;
      start_mb: number;
      end_mb: number;
      anon_start_mb: number | null;
      anon_end_mb: number | null;
      heap_end_mb: number;
      trend: (number | null)[][];
    }[];
  };
  event_loop: {
    /** Wall clock (monitorEventLoopDelay): includes time the OS gave to other processes. */
    max_lag_ms: number;
    p99_lag_ms: number;
    startup_max_lag_ms: number;
    /** The client's own synchronous work (main-thread CPU) holding the loop: what the invariant judges. */
    max_blocked_ms: number;
    startup_max_blocked_ms: number;
    /** 1-minute load average of the machine at the end, against its CPU count: how shared it was. */
    load_average: number;
    cpus: number;
    measured_from: string;
    per_process: {
      incarnation: number;
      max_ms: number;
      p99_ms: number;
      blocked_max_ms: number;
      startup_max_ms: number;
      first_live_ms: number | null;
      gc_max_ms: number;
      apply_max_ms: number;
      apply_max_events: number;
      worst_stalls: { atMs: number; ms: number; cpuMs: number; state: string; doing: string }[];
    }[];
  };
  kill9: {
    killed_after_ms: number;
    /** The kill followed the client's notice that it was starting to write a big batch of events. */
    during_batch_write: boolean;
    burst_events: number;
    burst_seq: [string, string];
    db_last_seq_at_kill: string | null;
    mid_burst: boolean;
    integrity: string;
    watermark_ok: boolean;
    open_purchase_intents: number;
    resumed_live_ms: number;
    /** The restarted process's sync states and problems until it went live (ms since it started). */
    resume_steps: StartupStep[];
  };
  security: {
    ipc_fuzz: FuzzReport;
    api_key_scan: { files: number; bytes: number; leaks: string[] };
    crash_exit_code: number | null;
    exports: { files: number; rows: number };
  };
  settle_ms: number;
  invariants: Record<InvariantName, boolean>;
  failures: string[];
}
