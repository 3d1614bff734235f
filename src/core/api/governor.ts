/**
 * The rate governor: one strict sliding-window limiter per endpoint (per API key, since one governor
 * belongs to one client and one key), with a priority queue in front of each.
 *
 * Why strict sliding windows: the service counts per key and per route, and a burst that straddles a
 * fixed-window boundary (p-throttle's overshoot) still gets a 429. Here a request is released only when
 * fewer than `limit` requests were released in the last `windowMs + marginMs`, so no window of any
 * alignment ever holds more than `limit` sends, however many callers ask at once. The margin absorbs
 * network jitter between our send time and the server's arrival time.
 *
 * Why a ledger: the server counts per key, not per process. A governor that remembered only its own
 * releases started from an empty window after a restart, and the app and the `skindesk` CLI using the
 * same key each counted the budget apart: several concurrent calls could go out before the first answer
 * reported the server's count, and the server answered 429 (a purchase refused when it mattered). With a
 * `ReleaseLedger` (the desk's, release-ledger.ts) each release is recorded before the request goes, and
 * the window counts the ledger's releases too: an earlier run's and those of any process sharing it. Our
 * own are told apart by the wall time we recorded them under. The ledger speaks wall-clock time (the only
 * time two processes share), so another process's release is placed on our monotonic clock as of now;
 * one that looks later than now (the wall clock set back) counts as released now. A ledger that throws
 * never fails a request: the governor counts on its own, as without one, and reports the first failure.
 * Two processes deciding in the same instant both saw room for the last slot when the read of the window
 * and the write of the release were two statements: a ledger that can `claim` records a release only if
 * the window still has room, in one step, so the one that comes second waits. Clients outside the ledger
 * are what the server's headers cover.
 *
 * Why the server wins: the server still counts calls no ledger holds (a run without one, another
 * machine with the same key). `X-RateLimit-Remaining: 0` blocks until `X-RateLimit-Reset`, a lower
 * Remaining caps our local headroom until then, and `Retry-After` blocks the endpoint outright for as
 * long as it says. Those two blocks are the server's word on the key, not on this process: they go into
 * the ledger too (when it can hold them), so a process sharing the key, or a run started during the
 * block, waits as well instead of learning it from a 429 of its own (a purchase refused).
 */
import { type Clock, intervalTime, systemClock } from './clock.ts';

export type Priority = 'interactive' | 'background';

export interface WindowLimit {
  limit: number;
  windowMs: number;
}

/**
 * A record of releases kept outside the governor, so that a window outlives the process and is shared by
 * every process using the same key (see the header). Times are wall-clock epoch ms: the only time two
 * processes share. Either method may throw; the governor then counts on its own (and says so once).
 */
export interface ReleaseLedger {
  /** The release times of `endpointKey` later than `sinceMs` (epoch ms), by anyone sharing the record. */
  recent(endpointKey: string, sinceMs: number): number[];
  /** Records one release of `endpointKey` at `atMs` (epoch ms). */
  note(endpointKey: string, atMs: number): void;
  /**
   * Records one release of `endpointKey` at `atMs`, in one step with a check that fewer than `limit`
   * releases are recorded later than `sinceMs`; false (nothing recorded) when the window is full. Optional:
   * without it the governor reads the window, then `note`s (two processes may then both take a last slot).
   */
  claim?(endpointKey: string, atMs: number, sinceMs: number, limit: number): boolean;
  /**
   * Records that the server blocked `endpointKey` for the key until `untilMs` (epoch ms): a Retry-After,
   * or a budget spent until its reset. Optional: a ledger without it shares releases only.
   */
  block?(endpointKey: string, untilMs: number): void;
  /** The latest block recorded for `endpointKey` (epoch ms), or null. */
  blockedUntil?(endpointKey: string): number | null;
}

export interface GovernorOptions {
  clock?: Clock;
  /** Releases made by an earlier run and by other processes with the same key; absent: this run's only. */
  ledger?: ReleaseLedger;
  /** Hears the first failure of the ledger (then the governor counts on its own); later ones are not reported. */
  onLedgerError?: (error: unknown) => void;
  /** Extra spacing added to every window, for jitter between our clock and the server's arrival times. */
  marginMs?: number;
  /** Ceiling on how long a server `X-RateLimit-Reset` or `Retry-After` may block us (a guard against a wild header). */
  maxResetWaitMs?: number;
}

export interface EndpointStats {
  key: string;
  limit: number;
  windowMs: number;
  /** Requests released within the current window. */
  used: number;
  /** Requests that may be released right now (local window and server budget both counted). */
  headroom: number;
  /** What the server last said remains, while its window lasts. */
  serverRemaining: number | null;
  queuedInteractive: number;
  queuedBackground: number;
  inFlight: number;
  /** Epoch ms until which the endpoint is blocked (Retry-After or an exhausted server budget), else null. */
  blockedUntil: number | null;
  sent: number;
  rateLimited: number;
  waits: number;
  waitedMs: number;
}

export interface GovernorStats {
  endpoints: EndpointStats[];
  totals: { sent: number; rateLimited: number; waits: number; waitedMs: number; queued: number };
}

/** What a response said about the server's own count. */
export interface ServerRateInfo {
  status: number;
  /** `X-RateLimit-Remaining`. */
  remaining: number | null;
  /** `X-RateLimit-Reset` in epoch ms of OUR clock (the header is the server's; see `readRateHeaders`). */
  resetAtMs: number | null;
  /** `Retry-After` in ms. */
  retryAfterMs: number | null;
}

/** Handed out by `acquire`; report the response (or its absence) through it exactly once. */
export interface Permit {
  readonly key: string;
  /** When the request was released (clock ms). */
  readonly grantedAt: number;
  /** Feeds the response's rate-limit headers back; ends the permit's in-flight accounting. */
  complete(info?: ServerRateInfo): void;
}

interface Waiter {
  priority: Priority;
  order: number;
  enqueuedAt: number;
  resolve: (permit: Permit) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

const PRIORITY_RANK: Record<Priority, number> = { interactive: 0, background: 1 };
/** The shortest pause after a 429, whatever its Retry-After says (see #observe). */
const MIN_WAIT_AFTER_429_MS = 1000;
/** How soon the window is read again after another process took the slot this one was about to take. */
const RECHECK_AFTER_TAKEN_MS = 10;

/** The governor's side of a ledger: a failure becomes "nothing recorded", never a thrown request. */
interface LedgerLink {
  /** Wall-clock release times later than `sinceMs`, or null when the ledger could not be read. */
  recent(key: string, sinceMs: number): number[] | null;
  /**
   * Records the release if the shared window still has room: `recorded`, `full` (another process took
   * the slot since the window was read: nothing recorded, nothing to send yet) or `unrecorded` (the
   * ledger failed: the release goes, counted by this run alone).
   */
  claim(key: string, atMs: number, sinceMs: number, limit: number): 'recorded' | 'full' | 'unrecorded';
  /** Shares a block of the server's (wall-clock ms); a failure leaves it this run's own. */
  block(key: string, untilMs: number): void;
  /** The block shared for `key` (wall-clock ms), or null when none (or unreadable). */
  blockedUntil(key: string): number | null;
}

class EndpointLimiter {
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
  /** Release times within the window, ascending (monotonic ms, see #mono). */
  #released: number[] = [];
  /** For each of #released, the wall-clock time it was recorded under in the ledger (null: not recorded). */
  #releasedWall: (number | null)[] = [];
  #queue: Waiter[] = [];
  #order = 0;
  #inFlight = 0;
  #blockedUntil = 0;
  /** The server's budget until its reset: how many more sends it allows before `resetAt`. */
  #server: { remaining: number; resetAt: number } | null = null;
  #cancelWake: (() => void) | null = null;
  #wakeAt = Number.POSITIVE_INFINITY;
  readonly counters = { sent: 0, rateLimited: 0, waits: 0, waitedMs: 0 };
  readonly #clock: Clock;
  readonly #marginMs: number;
  readonly #maxResetWaitMs: number;
  readonly #ledger: LedgerLink | null;

  /**
   * Every time the limiter keeps (release times, blocks, the server's reset, timers) is on the clock's
   * monotonic time, so a step of the wall clock neither empties a window nor blocks an endpoint for the
   * length of the step; wall-clock instants (the server's reset) are converted when they come in.
   */
  #mono(): number {
    return intervalTime(this.#clock);
  }

  /** A monotonic instant as the wall clock reads it now (for stats). */
  #toWall(mono: number): number {
    return mono - this.#mono() + this.#clock.now();
  }

  constructor(
    key: string,
    limit: WindowLimit | null,
    clock: Clock,
    marginMs: number,
    maxResetWaitMs: number,
    ledger: LedgerLink | null,
  ) {
    this.key = key;
    // An endpoint without a published limit still honours whatever the server tells us.
    this.limit = limit?.limit ?? Number.POSITIVE_INFINITY;
    this.windowMs = limit?.windowMs ?? 0;
    this.#clock = clock;
    this.#marginMs = limit ? marginMs : 0;
    this.#maxResetWaitMs = maxResetWaitMs;
    // only a window needs counting: an endpoint without a published limit is neither read nor recorded
    this.#ledger = limit ? ledger : null;
  }

  acquire(priority: Priority, signal?: AbortSignal): Promise<Permit> {
    return new Promise<Permit>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason ?? new DOMException('The operation was aborted', 'AbortError'));
        return;
      }
      const waiter: Waiter = {
        priority,
        order: this.#order++,
        enqueuedAt: this.#mono(),
        resolve,
        reject,
        signal,
        onAbort: undefined,
      };
      if (signal) {
        waiter.onAbort = () => {
          this.#queue = this.#queue.filter((w) => w !== waiter);
          reject(signal.reason ?? new DOMException('The operation was aborted', 'AbortError'));
          this.#pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      // Stable priority insert: interactive ahead of every background waiter, FIFO within a priority.
      const rank = PRIORITY_RANK[priority];
      const at = this.#queue.findIndex((w) => PRIORITY_RANK[w.priority] > rank);
      if (at === -1) this.#queue.push(waiter);
      else this.#queue.splice(at, 0, waiter);
      this.#pump();
    });
  }

  /**
   * Earliest clock time at which one more request may be released, and how many releases the window
   * holds now (this run's and, with a ledger, everyone else's sharing it).
   */
  #window(now: number): { at: number; used: number } {
    let at = Math.max(now, this.#blockedUntil, this.#sharedBlock(now));
    const span = this.windowMs + this.#marginMs;
    while (this.#released.length > 0 && (this.#released[0] as number) + span <= now) {
      this.#released.shift();
      this.#releasedWall.shift();
    }
    const foreign = this.#others(now, span);
    const window = foreign.length === 0 ? this.#released : [...this.#released, ...foreign].sort((a, b) => a - b);
    if (window.length >= this.limit) {
      // The (limit)-th most recent release must leave the window before another may go.
      const pivot = window[window.length - this.limit] as number;
      at = Math.max(at, pivot + span);
    }
    if (this.#server) {
      if (now >= this.#server.resetAt) this.#server = null;
      else if (this.#server.remaining <= 0) at = Math.max(at, this.#server.resetAt);
    }
    return { at, used: window.length };
  }

  /**
   * The ledger's releases within the window that are not this run's own (an earlier run's, another
   * process's), on the monotonic clock. Our own are told apart by the wall time we recorded them under.
   */
  #others(now: number, span: number): number[] {
    if (!this.#ledger) return [];
    const wallNow = this.#clock.now();
    const rows = this.#ledger.recent(this.key, wallNow - span);
    if (rows === null || rows.length === 0) return [];
    const own = new Map<number, number>();
    for (const wall of this.#releasedWall) if (wall !== null) own.set(wall, (own.get(wall) ?? 0) + 1);
    const others: number[] = [];
    for (const wall of rows) {
      const mine = own.get(wall) ?? 0;
      if (mine > 0) own.set(wall, mine - 1);
      // a row "from the future" (the wall clock set back since) counts as released now, no later
      else others.push(Math.min(now, wall - wallNow + now));
    }
    return others;
  }

  /**
   * A block of the server's that some process sharing the ledger was told (it may be this one), on the
   * monotonic clock; no longer than a server's header may block us from now (a wall clock set back).
   */
  #sharedBlock(now: number): number {
    if (!this.#ledger) return 0;
    const until = this.#ledger.blockedUntil(this.key);
    if (until === null) return 0;
    return Math.min(until - this.#clock.now() + now, now + this.#maxResetWaitMs);
  }

  /** Tells the processes sharing the ledger that the server blocked this endpoint until `until` (monotonic). */
  #share(until: number): void {
    if (this.#ledger && until > this.#mono()) this.#ledger.block(this.key, Math.ceil(this.#toWall(until)));
  }

  #pump(): void {
    for (;;) {
      const head = this.#queue[0];
      if (!head) {
        this.#disarm();
        return;
      }
      const now = this.#mono();
      const { at } = this.#window(now);
      if (at > now) {
        this.#arm(at);
        return;
      }
      const wall = this.#clock.now();
      // recorded before the request is let go, so whoever reads the ledger next counts it; recorded only
      // if the shared window still has room, so two processes never both take its last slot
      const recorded = this.#ledger
        ? this.#ledger.claim(this.key, wall, wall - (this.windowMs + this.#marginMs), this.limit)
        : 'unrecorded';
      if (recorded === 'full') {
        // the next read of the window counts the other process's release and says how long to wait
        this.#arm(now + RECHECK_AFTER_TAKEN_MS);
        return;
      }
      this.#queue.shift();
      this.#release(head, now, wall, recorded === 'recorded');
    }
  }

  #release(waiter: Waiter, now: number, wall: number, noted: boolean): void {
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
    this.#released.push(now);
    this.#releasedWall.push(noted ? wall : null);
    if (this.#server) this.#server.remaining -= 1;
    this.#inFlight += 1;
    this.counters.sent += 1;
    const waited = now - waiter.enqueuedAt;
    if (waited > 0) {
      this.counters.waits += 1;
      this.counters.waitedMs += waited;
    }
    let done = false;
    waiter.resolve({
      key: this.key,
      grantedAt: wall,
      complete: (info) => {
        if (done) return;
        done = true;
        this.#inFlight -= 1;
        if (info) this.#observe(info);
        this.#pump();
      },
    });
  }

  #observe(info: ServerRateInfo): void {
    const now = this.#mono();
    if (info.status === 429) {
      this.counters.rateLimited += 1;
      // Without Retry-After, wait until our own window would allow the next send. At least a second
      // either way: Retry-After counts whole seconds, so "0" means under a second left, not "resend now"
      // (taken literally, a GET's retries went out as a burst of 429s within a millisecond).
      const wait = Math.max(MIN_WAIT_AFTER_429_MS, info.retryAfterMs ?? this.windowMs / Math.max(1, Math.min(this.limit, 1000)));
      this.#blockedUntil = Math.max(this.#blockedUntil, now + Math.min(wait, this.#maxResetWaitMs));
      this.#share(this.#blockedUntil);
    } else if (info.retryAfterMs !== null) {
      this.#blockedUntil = Math.max(this.#blockedUntil, now + Math.min(info.retryAfterMs, this.#maxResetWaitMs));
      this.#share(this.#blockedUntil);
    }
    if (info.remaining !== null && info.resetAtMs !== null) {
      // the reset is a wall-clock instant (ours, converted from the server's): as an interval from now
      const resetAt = Math.min(info.resetAtMs - this.#clock.now() + now + this.#marginMs, now + this.#maxResetWaitMs);
      if (resetAt > now) {
        // Requests released after this one may not have been counted in `remaining` yet: assume they were.
        const remaining = Math.max(0, info.remaining - this.#inFlight);
        const current = this.#server && this.#server.resetAt > now ? this.#server : null;
        this.#server = current
          ? { remaining: Math.min(current.remaining, remaining), resetAt: Math.max(current.resetAt, resetAt) }
          : { remaining, resetAt };
        // only the server's own "none left" is shared: the in-flight guess above is this process's
        if (info.remaining <= 0) this.#share(resetAt);
      }
    }
  }

  #arm(at: number): void {
    if (this.#cancelWake && this.#wakeAt <= at) return;
    this.#disarm();
    this.#wakeAt = at;
    this.#cancelWake = this.#clock.setTimer(at - this.#mono(), () => {
      this.#cancelWake = null;
      this.#wakeAt = Number.POSITIVE_INFINITY;
      this.#pump();
    });
  }

  #disarm(): void {
    this.#cancelWake?.();
    this.#cancelWake = null;
    this.#wakeAt = Number.POSITIVE_INFINITY;
  }

  /** How long one more request would wait for the window or the server's budget, from now (ms). */
  waitMs(): number {
    const now = this.#mono();
    return Math.max(0, this.#window(now).at - now);
  }

  stats(): EndpointStats {
    const now = this.#mono();
    const { at: earliest, used } = this.#window(now);
    const localRoom = Math.max(0, this.limit - used);
    const serverRoom = this.#server ? Math.max(0, this.#server.remaining) : Number.POSITIVE_INFINITY;
    const blocked = Math.max(
      this.#blockedUntil,
      this.#sharedBlock(now),
      this.#server && this.#server.remaining <= 0 ? this.#server.resetAt : 0,
    );
    return {
      key: this.key,
      limit: this.limit,
      windowMs: this.windowMs,
      used,
      headroom: earliest > now ? 0 : Math.min(localRoom, serverRoom),
      serverRemaining: this.#server ? this.#server.remaining : null,
      queuedInteractive: this.#queue.filter((w) => w.priority === 'interactive').length,
      queuedBackground: this.#queue.filter((w) => w.priority === 'background').length,
      inFlight: this.#inFlight,
      blockedUntil: blocked > now ? this.#toWall(blocked) : null,
      ...this.counters,
    };
  }
}

export class RateGovernor {
  readonly #limiters = new Map<string, EndpointLimiter>();
  readonly #clock: Clock;
  readonly #marginMs: number;
  readonly #maxResetWaitMs: number;
  readonly #ledger: LedgerLink | null;

  constructor(options: GovernorOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#marginMs = options.marginMs ?? 100;
    this.#maxResetWaitMs = options.maxResetWaitMs ?? 10 * 60_000;
    this.#ledger = options.ledger ? guardedLedger(options.ledger, options.onLedgerError) : null;
  }

  /** Registers an endpoint's published limit (null: not limited locally, server headers still apply). */
  define(key: string, limit: WindowLimit | null): void {
    if (!this.#limiters.has(key)) {
      this.#limiters.set(key, new EndpointLimiter(key, limit, this.#clock, this.#marginMs, this.#maxResetWaitMs, this.#ledger));
    }
  }

  /**
   * Waits for this endpoint's turn. Interactive callers are served before queued background callers;
   * equal priorities are served in arrival order. Rejects with the signal's reason when it aborts.
   */
  acquire(key: string, priority: Priority = 'interactive', signal?: AbortSignal): Promise<Permit> {
    return this.#limiter(key).acquire(priority, signal);
  }

  /**
   * How long a request to this endpoint sent now would wait before it may go (its window, a Retry-After,
   * an exhausted server budget), not counting requests already queued: for a caller to say why it waits.
   */
  waitMs(key: string): number {
    return this.#limiter(key).waitMs();
  }

  stats(): GovernorStats {
    const endpoints = [...this.#limiters.values()].map((l) => l.stats());
    const totals = { sent: 0, rateLimited: 0, waits: 0, waitedMs: 0, queued: 0 };
    for (const e of endpoints) {
      totals.sent += e.sent;
      totals.rateLimited += e.rateLimited;
      totals.waits += e.waits;
      totals.waitedMs += e.waitedMs;
      totals.queued += e.queuedInteractive + e.queuedBackground;
    }
    return { endpoints, totals };
  }

  #limiter(key: string): EndpointLimiter {
    let limiter = this.#limiters.get(key);
    if (!limiter) {
      limiter = new EndpointLimiter(key, null, this.#clock, this.#marginMs, this.#maxResetWaitMs, this.#ledger);
      this.#limiters.set(key, limiter);
    }
    return limiter;
  }
}

/**
 * Wraps a ledger so that it never throws into a request: a failed read counts nothing beyond this run's
 * own releases, a failed write leaves the release unrecorded. Every call still tries (a busy desk is
 * usually free again a moment later); only the first failure is reported.
 */
function guardedLedger(ledger: ReleaseLedger, onError: ((error: unknown) => void) | undefined): LedgerLink {
  let reported = false;
  const failed = (error: unknown) => {
    if (reported) return;
    reported = true;
    try {
      onError?.(error);
    } catch {
      // a failing report must not fail the request either
    }
  };
  return {
    recent(key, sinceMs) {
      try {
        return ledger.recent(key, sinceMs);
      } catch (error) {
        failed(error);
        return null;
      }
    },
    claim(key, atMs, sinceMs, limit) {
      try {
        if (!ledger.claim) {
          ledger.note(key, atMs);
          return 'recorded';
        }
        return ledger.claim(key, atMs, sinceMs, limit) ? 'recorded' : 'full';
      } catch (error) {
        failed(error);
        return 'unrecorded';
      }
    },
    block(key, untilMs) {
      try {
        ledger.block?.(key, untilMs);
      } catch (error) {
        failed(error);
      }
    },
    blockedUntil(key) {
      try {
        return ledger.blockedUntil?.(key) ?? null;
      } catch (error) {
        failed(error);
        return null;
      }
    },
  };
}

/**
 * Reads the rate-limit headers of a response (spec part 8). Retry-After may be seconds or an HTTP date.
 *
 * `X-RateLimit-Reset` (and a Retry-After date) are instants on the SERVER's clock, while the governor
 * waits on ours: `serverOffsetMs` (server clock minus ours, as the client measures it from the Date
 * header) turns them into our time, so a clock minutes ahead does not ignore `Remaining: 0` and one
 * minutes behind does not wait minutes too long. Unknown (null): the clocks are taken to agree. The Date
 * header has second resolution and is truncated, so the measured offset is at most a second below the
 * true one: the converted reset is then up to a second late, never early.
 */
export function readRateHeaders(status: number, headers: Headers, nowMs: number, serverOffsetMs: number | null = null): ServerRateInfo {
  const offset = serverOffsetMs ?? 0;
  const int = (name: string): number | null => {
    const raw = headers.get(name);
    if (raw === null || !/^\s*\d+(\.\d+)?\s*$/.test(raw)) return null;
    return Number(raw);
  };
  const remaining = int('x-ratelimit-remaining');
  const reset = int('x-ratelimit-reset');
  let retryAfterMs: number | null = null;
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) {
    const seconds = int('retry-after');
    if (seconds !== null) retryAfterMs = Math.ceil(seconds * 1000);
    else {
      const date = Date.parse(retryAfter);
      if (!Number.isNaN(date)) retryAfterMs = Math.max(0, date - (nowMs + offset));
    }
  }
  return {
    status,
    remaining: remaining === null ? null : Math.floor(remaining),
    resetAtMs: reset === null ? null : reset * 1000 - offset,
    retryAfterMs,
  };
}
