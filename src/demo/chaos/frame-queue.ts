/**
 * WebSocket latency without reordering: each connection's frames wait their delay in one FIFO queue,
 * so a frame never overtakes the one sent before it (the feed's own reorder switch is the only source
 * of reordering, and it produces only what the spec's seq rule can absorb).
 */
export class DelayedFrames {
  readonly #send: (frame: string) => void;
  readonly #queue: { dueAt: number; frame: string }[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastDueAt = 0;

  constructor(send: (frame: string) => void) {
    this.#send = send;
  }

  get length(): number {
    return this.#queue.length;
  }

  push(frame: string, delayMs: number): void {
    if (delayMs <= 0 && this.#queue.length === 0) {
      this.#send(frame);
      return;
    }
    const dueAt = Math.max(Date.now() + delayMs, this.#lastDueAt);
    this.#lastDueAt = dueAt;
    this.#queue.push({ dueAt, frame });
    if (this.#timer === null) this.#arm();
  }

  /** Drops every frame still waiting (the connection is gone). */
  clear(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#queue.length = 0;
  }

  #arm(): void {
    const head = this.#queue[0];
    if (!head) {
      this.#timer = null;
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = null;
      const now = Date.now();
      while (this.#queue.length > 0 && this.#queue[0]!.dueAt <= now) this.#send(this.#queue.shift()!.frame);
      this.#arm();
    }, Math.max(0, head.dueAt - Date.now()));
  }
}
