/**
 * When `skindesk sync` writes its progress line to stderr: at once when the state or the problem changes
 * (a stale book answer, a wait for the rate limit, a failed read: the reason a sync is not live is what
 * the person watching needs first), otherwise at most every `everyMs`, and never the same line twice in
 * a row within it.
 */
export class ProgressThrottle {
  readonly #everyMs: number;
  #lastHeadline: string | null = null;
  #lastLine = '';
  #lastAt = Number.NEGATIVE_INFINITY;

  constructor(everyMs = 5_000) {
    this.#everyMs = everyMs;
  }

  /** `headline`: what must show at once when it changes (state and problem). Returns whether to write. */
  take(line: string, headline: string, now: number): boolean {
    const due = now - this.#lastAt >= this.#everyMs;
    if (!due && headline === this.#lastHeadline) return false;
    const write = line !== this.#lastLine || due;
    this.#lastLine = line;
    this.#lastHeadline = headline;
    this.#lastAt = now;
    return write;
  }
}
