/**
 * Watchlist alerts posted to a webhook: Discord (`content`) and Slack (`text`) incoming webhooks read the
 * words, anything else can read `alerts`. Coalesced per URL like the OS notifications, so a flood is a
 * post or two. A post that failed for a reason that may pass (no answer, 408, 429, a 5xx: Discord and
 * Slack have outages of a few seconds) is tried again a few times; what still fails is said. A redirect is
 * not followed (the user named this URL) nor tried again: it is said, with where it points. A webhook
 * URL is a secret (Discord's and Slack's carry their token in the path): it is named in words by its
 * origin only. With `claim`, only the alerts it hands back are posted, as with the OS notifications (the
 * watch service's: those no run has posted yet, so a burst a crashed run held is posted by the next).
 */
import { readRateHeaders } from '../api/governor.ts';
import { AlertNotifier, alertWords } from './notifier.ts';
import type { WatchAlert } from './store.ts';

/** Discord refuses `content` above 2,000 characters. */
const MAX_CONTENT = 1_900;
const POST_TIMEOUT_MS = 5_000;
/** A failing webhook is reported at most this often (a flood would otherwise report every 5 s). */
const FAILURE_REPORT_MS = 60_000;
/** The pauses before the tries again of a failed post: together they outlast an outage of a few seconds. */
const RETRY_DELAYS_MS: readonly number[] = [1_000, 4_000, 15_000];
/** A 429 or 503 asking to wait longer than this is not waited for: its alerts are said undelivered. */
const MAX_RETRY_AFTER_MS = 60_000;
/**
 * How long a watch that stops waits for its last posts (what a burst held, a try again made at once)
 * before it ends them: enough for a webhook that answers, short of what a failing one would take
 * (two post timeouts).
 */
const CLOSE_GRACE_MS = 500;

/** The part of a webhook URL that may be shown or logged. */
export function webhookOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the webhook';
  }
}

/**
 * An alert as machines read it: the fields and names of `skindesk watch`'s match lines, so a script reads
 * the CLI's output and a webhook's body alike (the seq as a decimal string: int64).
 */
export interface AlertRecord {
  watchlist_id: number;
  watchlist: string;
  listing_id: number;
  app_id: number;
  market_hash_name: string;
  price: number;
  amount: number;
  seq: string;
  ceiling: number;
  reference_price: number | null;
  origin: 'event' | 'sweep';
}

export interface WebhookAlertPayload {
  content: string;
  text: string;
  alerts: (AlertRecord & { at: string })[];
}

export function webhookPayload(
  title: string,
  body: string,
  alerts: readonly WatchAlert[],
): WebhookAlertPayload {
  const words = `**${title}**\n${body}`;
  const content = words.length > MAX_CONTENT ? `${words.slice(0, MAX_CONTENT - 1)}…` : words;
  return {
    content,
    text: content,
    alerts: alerts.map((a) => ({
      watchlist_id: a.watchlistId,
      watchlist: a.watchlistName,
      listing_id: a.listingId,
      app_id: a.appId,
      market_hash_name: a.marketHashName,
      price: a.price,
      amount: a.amount,
      seq: a.seq.toString(),
      ceiling: a.ceiling,
      reference_price: a.referencePrice,
      origin: a.origin,
      at: new Date(a.atMs).toISOString(),
    })),
  };
}

export class WebhookPostError extends Error {
  /** Worth another try: no answer, a timeout, 408, 429 or a 5xx. Any other 4xx is a refusal, a 3xx an answer. */
  readonly retryable: boolean;
  /** How long the answer asked to wait before the next post (Retry-After), null when it did not say. */
  readonly retryAfterMs: number | null;

  constructor(message: string, options: { retryable?: boolean; retryAfterMs?: number | null } = {}) {
    super(message);
    this.name = 'WebhookPostError';
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

/**
 * One POST; resolves on a 2xx answer, else throws a WebhookPostError in plain words (origin only).
 * `stop` ends a post under way (the watch stops): it fails as unanswered, not to be tried again.
 */
export async function postWebhook(
  url: string,
  payload: unknown,
  fetchImpl: typeof fetch = fetch,
  stop?: AbortSignal,
): Promise<void> {
  const where = webhookOrigin(url);
  const stopped = () => new WebhookPostError(`${where} had not answered when the watch stopped`);
  if (stop?.aborted) throw stopped();
  const timeout = AbortSignal.timeout(POST_TIMEOUT_MS);
  let answer: Response;
  try {
    answer = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Skindesk' },
      body: JSON.stringify(payload),
      // a webhook that redirects elsewhere is not followed: the user named this URL, not another. The
      // redirect comes back as the answer (not as an error, which would pass for an outage and be retried)
      redirect: 'manual',
      signal: stop ? AbortSignal.any([timeout, stop]) : timeout,
    });
  } catch (err) {
    if (stop?.aborted) throw stopped();
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    throw new WebhookPostError(
      timedOut ? `${where} did not answer within ${POST_TIMEOUT_MS / 1000} s` : `${where} could not be reached`,
      { retryable: true },
    );
  }
  // the answer body is not needed; reading it frees the connection
  await answer.arrayBuffer().catch(() => undefined);
  if (answer.status >= 300 && answer.status < 400) {
    // the same answer every time until the user saves the URL it points to: said, never tried again
    throw new WebhookPostError(
      `${where} answered with a redirect${redirectTarget(url, answer.headers.get('location'))}; redirects are not followed — save the final URL instead`,
    );
  }
  if (!answer.ok) {
    const status = answer.status;
    throw new WebhookPostError(`${where} answered HTTP ${status}`, {
      retryable: status === 408 || status === 429 || status >= 500,
      retryAfterMs: readRateHeaders(status, answer.headers, Date.now()).retryAfterMs,
    });
  }
}

/**
 * Where a redirect points, named like the webhook itself by its origin only (the new path of a Discord
 * or Slack webhook holds its token as well): " to https://discord.com", "" when it names no place.
 */
function redirectTarget(url: string, location: string | null): string {
  if (!location) return '';
  let target: URL;
  try {
    target = new URL(location, url);
  } catch {
    return '';
  }
  const origin = webhookOrigin(url);
  return target.origin === origin ? ` to another address on ${origin}` : ` to ${target.origin}`;
}

export interface AlertWebhooksOptions {
  /**
   * Alerts a webhook did not take after the last try, in words without the URL's secret part: said at
   * most once a minute per URL (what failed meanwhile is counted into the next one, said at the latest
   * when the minute is over or the webhooks close).
   */
  onFailure: (message: string) => void;
  windowMs?: number;
  /** The pauses before each try again of a failed post (tests shorten them); default 1 s, 4 s, 15 s. */
  retryDelaysMs?: readonly number[];
  fetch?: typeof fetch;
  now?: () => number;
  /** Of the alerts a window is about to post, those to post (marked posted as they are handed back); default all. */
  claim?: (alerts: readonly WatchAlert[]) => readonly WatchAlert[];
}

/** Undelivered alerts of one URL not said yet, and when that URL's failure was last said. */
interface FailureReport {
  saidAt: number | null;
  message: string;
  count: number;
  timer: NodeJS.Timeout | null;
}

/** One coalescing notifier per webhook URL in use, feeding that URL's delivery. */
export class AlertWebhooks {
  readonly #o: AlertWebhooksOptions;
  readonly #byUrl = new Map<string, { notifier: AlertNotifier; delivery: WebhookDelivery }>();
  readonly #reports = new Map<string, FailureReport>();
  /** Ends the posts under way when the grace of close is over. */
  readonly #stop = new AbortController();
  #closed = false;

  constructor(options: AlertWebhooksOptions) {
    this.#o = options;
  }

  add(url: string, alerts: readonly WatchAlert[]): void {
    if (this.#closed || alerts.length === 0) return;
    this.#hook(url).notifier.add(alerts);
  }

  /**
   * Alerts owed a post that a run which stopped never made: posted together, as one summary — now when
   * the URL's window is quiet, else with what it holds at its end (AlertNotifier.tellTogether).
   */
  tellTogether(url: string, alerts: readonly WatchAlert[]): void {
    if (this.#closed || alerts.length === 0) return;
    this.#hook(url).notifier.tellTogether(alerts);
  }

  #hook(url: string): { notifier: AlertNotifier; delivery: WebhookDelivery } {
    let hook = this.#byUrl.get(url);
    if (!hook) {
      const delivery = new WebhookDelivery({
        post: (payload) => postWebhook(url, payload, this.#o.fetch, this.#stop.signal),
        retryDelaysMs: this.#o.retryDelaysMs ?? RETRY_DELAYS_MS,
        closing: () => this.#closed,
        stopped: () => this.#stop.signal.aborted,
        undelivered: (message, count) => this.#report(url, message, count),
      });
      const notifier = new AlertNotifier({
        notify: (title, body, told) => delivery.send(title, body, told),
        ...(this.#o.windowMs === undefined ? {} : { windowMs: this.#o.windowMs }),
        ...(this.#o.claim === undefined ? {} : { claim: this.#o.claim }),
      });
      hook = { notifier, delivery };
      this.#byUrl.set(url, hook);
    }
    return hook;
  }

  /**
   * Takes no more alerts; those a burst's window still holds are posted now (a watch that stops must not
   * drop the last alerts it had), a post waiting for its next try is tried at once, for the last time.
   * A webhook that answers has CLOSE_GRACE_MS for those posts; then what is still under way is ended,
   * and what was held behind it is not posted. Resolves promptly either way (a failing webhook would
   * otherwise hold a watch that stops for two post timeouts), once what was not delivered was said:
   * now, minute or not.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const hooks = [...this.#byUrl.values()];
    this.#byUrl.clear();
    for (const { notifier, delivery } of hooks) {
      notifier.flush();
      notifier.close();
      delivery.hurry();
    }
    const idle = Promise.allSettled(hooks.map(({ delivery }) => delivery.idle()));
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([idle, new Promise<void>((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS)))]);
    clearTimeout(grace);
    this.#stop.abort();
    await idle;
    for (const report of this.#reports.values()) this.#say(report);
  }

  #report(url: string, message: string, count: number): void {
    let report = this.#reports.get(url);
    if (!report) this.#reports.set(url, (report = { saidAt: null, message, count: 0, timer: null }));
    report.message = message;
    report.count += count;
    const now = this.#now();
    if (this.#closed || report.saidAt === null || now - report.saidAt >= FAILURE_REPORT_MS) {
      this.#say(report);
      return;
    }
    if (report.timer !== null) return;
    // said when the minute is over, even if nothing fails again by then: undelivered alerts are never dropped silently
    const r = report;
    r.timer = setTimeout(() => this.#say(r), r.saidAt! + FAILURE_REPORT_MS - now);
    r.timer.unref();
  }

  #say(report: FailureReport): void {
    if (report.timer !== null) clearTimeout(report.timer);
    report.timer = null;
    if (report.count === 0) return;
    const count = report.count;
    report.count = 0;
    report.saidAt = this.#now();
    try {
      this.#o.onFailure(`alert webhook: ${report.message}; ${count === 1 ? 'the alert' : `${count} alerts`} not delivered there`);
    } catch {
      // a failing report must not stop the deliveries that called it
    }
  }

  #now(): number {
    return (this.#o.now ?? Date.now)();
  }
}

interface DeliveryOptions {
  post: (payload: WebhookAlertPayload) => Promise<void>;
  retryDelaysMs: readonly number[];
  /** The webhooks are closing: a failed post is not tried again later (and a pause is cut short). */
  closing: () => boolean;
  /** Their grace is over: what is held is not posted any more, only said undelivered. */
  stopped: () => boolean;
  /** Alerts that were not delivered after the last try, and why (with the number of tries). */
  undelivered: (message: string, count: number) => void;
}

/**
 * One webhook's posts, one at a time. A post that failed for a reason that may pass is tried again after
 * a pause, up to `retryDelaysMs.length` times (longer when a 429 or 503 asks for it); what the notifier
 * tells meanwhile is held and goes with the next try, or in the next post, so an outage still makes one
 * post, not one per burst. `send` returns at once: the alert path never waits for a webhook.
 */
class WebhookDelivery {
  readonly #o: DeliveryOptions;
  /** Told while a post was under way or waiting for its next try. */
  #held: WatchAlert[] = [];
  #running: Promise<void> | null = null;
  /** Ends the pause before the next try now (close). */
  #wake: (() => void) | null = null;

  constructor(options: DeliveryOptions) {
    this.#o = options;
  }

  send(title: string, body: string, alerts: readonly WatchAlert[]): void {
    if (this.#running) {
      this.#held.push(...alerts);
      return;
    }
    this.#running = this.#run([...alerts], webhookPayload(title, body, alerts));
  }

  /** The pause before a next try ends now: that try is the last. */
  hurry(): void {
    this.#wake?.();
  }

  /** Resolves when nothing is being posted or waiting to be. */
  idle(): Promise<void> {
    return this.#running ?? Promise.resolve();
  }

  async #run(first: WatchAlert[], firstPayload: WebhookAlertPayload): Promise<void> {
    let batch = first;
    let payload = firstPayload;
    let tries = 0;
    for (;;) {
      tries += 1;
      let failure: WebhookPostError | null = null;
      try {
        await this.#o.post(payload);
      } catch (err) {
        failure = err instanceof WebhookPostError ? err : new WebhookPostError(String(err));
      }
      if (failure) {
        const pause = this.#pauseBeforeTry(failure, tries);
        if (pause !== null) {
          await this.#sleep(pause);
          batch = [...batch, ...this.#take()];
          payload = payloadOf(batch);
          continue;
        }
        // stopped: what waited behind this post is said with it, never posted
        if (this.#o.stopped()) batch = [...batch, ...this.#take()];
        this.#o.undelivered(tries > 1 ? `${failure.message} (tried ${tries} times)` : failure.message, batch.length);
      }
      batch = this.#take();
      if (batch.length === 0) {
        // in the same turn as the check: a send() after it starts a run of its own
        this.#running = null;
        return;
      }
      payload = payloadOf(batch);
      tries = 0;
    }
  }

  /** How long to wait before trying a failed post again; null: not again. */
  #pauseBeforeTry(failure: WebhookPostError, tries: number): number | null {
    const delay = this.#o.retryDelaysMs[tries - 1];
    if (delay === undefined || !failure.retryable || this.#o.closing()) return null;
    const asked = failure.retryAfterMs ?? 0;
    if (asked > MAX_RETRY_AFTER_MS) return null;
    return Math.max(delay, asked);
  }

  #take(): WatchAlert[] {
    const held = this.#held;
    this.#held = [];
    return held;
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.#wake = done;
    });
  }
}

/** A post of several alerts gathered by the delivery (a try again, or what came meanwhile): a summary. */
function payloadOf(alerts: readonly WatchAlert[]): WebhookAlertPayload {
  const { title, body } = alertWords(alerts);
  return webhookPayload(title, body, alerts);
}
