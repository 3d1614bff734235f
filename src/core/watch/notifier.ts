/**
 * OS notifications for watchlist alerts, coalesced: the first alert after a quiet spell is shown at once;
 * what follows within the window is gathered into one summary at its end, so a flood of matches is one
 * or two notifications, never a wall of them. With `claim`, only the alerts it hands back are shown (the
 * watch service's: those whose notification no run has shown yet).
 */
import { formatCents } from '../../shared/money.ts';
import type { WatchAlert } from './store.ts';

/** Where a coalesced notification goes: its words, and the alerts it tells of. */
export type AlertSink = (title: string, body: string, alerts: readonly WatchAlert[]) => void;

export interface AlertNotifierOptions {
  notify: AlertSink;
  /** Quiet window after a notification (default 5 s). */
  windowMs?: number;
  /** Of the alerts about to be shown, those to show (marked shown as they are handed back); default all. */
  claim?: (alerts: readonly WatchAlert[]) => readonly WatchAlert[];
}

export class AlertNotifier {
  readonly #notify: AlertSink;
  readonly #windowMs: number;
  readonly #claim: ((alerts: readonly WatchAlert[]) => readonly WatchAlert[]) | null;
  #held: WatchAlert[] = [];
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(options: AlertNotifierOptions) {
    this.#notify = options.notify;
    this.#windowMs = options.windowMs ?? 5_000;
    this.#claim = options.claim ?? null;
  }

  add(alerts: readonly WatchAlert[]): void {
    if (this.#closed || alerts.length === 0) return;
    if (this.#timer === null) {
      const [first, ...rest] = alerts as [WatchAlert, ...WatchAlert[]];
      this.#show([first]);
      this.#held.push(...rest);
      this.#startWindow();
    } else {
      this.#held.push(...alerts);
    }
  }

  /**
   * Alerts owed a notification that a run which stopped never showed: told together, as one summary — now
   * when the window is quiet, else with what it holds at its end.
   */
  tellTogether(alerts: readonly WatchAlert[]): void {
    if (this.#closed || alerts.length === 0) return;
    if (this.#timer === null) {
      this.#show(alerts);
      this.#startWindow();
    } else {
      this.#held.push(...alerts);
    }
  }

  /**
   * Tells what the window still holds (one summary: a watch that stops must not drop the last alerts it
   * had) and takes no more.
   */
  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#closed = true;
    this.flush();
  }

  /** Tells what the window still holds now, as its summary, instead of at the window's end. */
  flush(): void {
    if (this.#held.length === 0) return;
    const held = this.#held;
    this.#held = [];
    this.#show(held);
  }

  #startWindow(): void {
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#held.length === 0) return;
      const held = this.#held;
      this.#held = [];
      this.#show(held);
      this.#startWindow();
    }, this.#windowMs);
    this.#timer.unref();
  }

  #show(held: readonly WatchAlert[]): void {
    try {
      const alerts = this.#claim ? this.#claim(held) : held;
      if (alerts.length === 0) return;
      const { title, body } = alertWords(alerts);
      this.#notify(title, body, alerts);
    } catch {
      // a host without notifications (or a failing one) must not stop alerts from reaching the feed
    }
  }
}

/** The words of a notification telling of some alerts (one or more): the one itself, or a summary. */
export function alertWords(alerts: readonly WatchAlert[]): { title: string; body: string } {
  if (alerts.length === 1) {
    const a = alerts[0] as WatchAlert;
    return { title: `Watchlist “${a.watchlistName}”`, body: `${a.marketHashName} at ${formatCents(a.price)}` };
  }
  const lists = [...new Set(alerts.map((a) => a.watchlistName))];
  const names = alerts.slice(0, 3).map((a) => `${a.marketHashName} at ${formatCents(a.price)}`);
  const more = alerts.length > 3 ? ` and ${alerts.length - 3} more` : '';
  return {
    title: `${alerts.length} watchlist matches${lists.length === 1 ? ` for “${lists[0]}”` : ''}`,
    body: `${names.join('; ')}${more}`,
  };
}
