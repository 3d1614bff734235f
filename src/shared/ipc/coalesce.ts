/**
 * Push coalescing: each push is delivered at most once per its contract's `intervalMs`; payloads that
 * arrive in between are merged with the contract's `merge` (book changes summed, status: latest wins).
 * One coalescer per app, in front of every transport.
 */
import { IPC_PUSHES, type IpcPushName, type IpcPushPayload } from './contract.ts';

export type PushSink = <P extends IpcPushName>(name: P, payload: IpcPushPayload<P>) => void;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

interface Lane {
  pending: unknown;
  hasPending: boolean;
  lastSentAt: number;
  timer: unknown;
}

export class PushCoalescer {
  readonly #sink: PushSink;
  readonly #timers: Timers;
  readonly #lanes = new Map<IpcPushName, Lane>();
  #closed = false;

  constructor(sink: PushSink, timers: Timers = realTimers) {
    this.#sink = sink;
    this.#timers = timers;
  }

  publish<P extends IpcPushName>(name: P, payload: IpcPushPayload<P>): void {
    if (this.#closed) return;
    const def = IPC_PUSHES[name];
    if (def.intervalMs === 0) {
      this.#sink(name, payload);
      return;
    }
    let lane = this.#lanes.get(name);
    if (!lane) {
      lane = { pending: undefined, hasPending: false, lastSentAt: -Infinity, timer: null };
      this.#lanes.set(name, lane);
    }
    const merge = def.merge as (older: unknown, newer: unknown) => unknown;
    lane.pending = lane.hasPending ? merge(lane.pending, payload) : payload;
    lane.hasPending = true;
    if (lane.timer !== null) return;
    const wait = lane.lastSentAt + def.intervalMs - this.#timers.now();
    if (wait <= 0) this.#flush(name, lane);
    else lane.timer = this.#timers.setTimeout(() => this.#flush(name, lane), wait);
  }

  #flush(name: IpcPushName, lane: Lane): void {
    lane.timer = null;
    if (!lane.hasPending || this.#closed) return;
    const payload = lane.pending;
    lane.pending = undefined;
    lane.hasPending = false;
    lane.lastSentAt = this.#timers.now();
    (this.#sink as (name: IpcPushName, payload: unknown) => void)(name, payload);
  }

  /** Drops pending payloads and stops the timers. */
  close(): void {
    this.#closed = true;
    for (const lane of this.#lanes.values()) {
      if (lane.timer !== null) this.#timers.clearTimeout(lane.timer);
      lane.timer = null;
    }
  }
}
