/**
 * Watchlist alerts posted to a webhook: Discord (`content`) and Slack (`text`) incoming webhooks read the
 * words, anything else can read `alerts`. Coalesced per URL like the OS notifications, so a flood is a
 * post or two. A webhook URL is a secret (Discord's and Slack's carry their token in the path): it is
 * named in words by its origin only.
 */
import type { AlertSink } from './notifier.ts';
import { AlertNotifier } from './notifier.ts';
import type { WatchAlert } from './store.ts';

/** Discord refuses `content` above 2,000 characters. */
const MAX_CONTENT = 1_900;
const POST_TIMEOUT_MS = 5_000;
/** A failing webhook is reported at most this often (a flood would otherwise report every 5 s). */
const FAILURE_REPORT_MS = 60_000;

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
  constructor(message: string) {
    super(message);
    this.name = 'WebhookPostError';
  }
}

/** One POST; resolves on a 2xx answer, else throws a WebhookPostError in plain words (origin only). */
export async function postWebhook(
  url: string,
  payload: unknown,
  fetchImpl: typeof fetch = fetch,
): Promise<void> {
  const where = webhookOrigin(url);
  let answer: Response;
  try {
    answer = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Skindesk' },
      body: JSON.stringify(payload),
      // a webhook that redirects elsewhere is not followed: the user named this URL, not another
      redirect: 'error',
      signal: AbortSignal.timeout(POST_TIMEOUT_MS),
    });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    throw new WebhookPostError(
      timedOut
        ? `${where} did not answer within ${POST_TIMEOUT_MS / 1000} s`
        : `${where} could not be reached (or it redirected elsewhere)`,
    );
  }
  // the answer body is not needed; reading it frees the connection
  await answer.arrayBuffer().catch(() => undefined);
  if (!answer.ok) throw new WebhookPostError(`${where} answered HTTP ${answer.status}`);
}

export interface AlertWebhooksOptions {
  /** A post failed (said at most once a minute per URL), in words without the URL's secret part. */
  onFailure: (message: string) => void;
  windowMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

/** One coalescing notifier per webhook URL in use. */
export class AlertWebhooks {
  readonly #o: AlertWebhooksOptions;
  readonly #byUrl = new Map<string, AlertNotifier>();
  readonly #lastFailureAt = new Map<string, number>();
  readonly #posting = new Set<Promise<void>>();
  #closed = false;

  constructor(options: AlertWebhooksOptions) {
    this.#o = options;
  }

  add(url: string, alerts: readonly WatchAlert[]): void {
    if (this.#closed || alerts.length === 0) return;
    let notifier = this.#byUrl.get(url);
    if (!notifier) {
      const sink: AlertSink = (title, body, told) => {
        const post = this.#post(url, webhookPayload(title, body, told)).finally(() => this.#posting.delete(post));
        this.#posting.add(post);
      };
      notifier = new AlertNotifier({
        notify: sink,
        ...(this.#o.windowMs === undefined ? {} : { windowMs: this.#o.windowMs }),
      });
      this.#byUrl.set(url, notifier);
    }
    notifier.add(alerts);
  }

  /**
   * Takes no more alerts; those a burst's window still holds are posted now (a watch that stops must not
   * drop the last alerts it had), and it resolves once every post has its answer — at most the post
   * timeout (5 s) after the last one.
   */
  async close(): Promise<void> {
    this.#closed = true;
    for (const n of this.#byUrl.values()) {
      n.flush();
      n.close();
    }
    this.#byUrl.clear();
    await Promise.allSettled([...this.#posting]);
  }

  async #post(url: string, payload: WebhookAlertPayload): Promise<void> {
    try {
      await postWebhook(url, payload, this.#o.fetch);
    } catch (err) {
      const now = (this.#o.now ?? Date.now)();
      const last = this.#lastFailureAt.get(url);
      if (last !== undefined && now - last < FAILURE_REPORT_MS) return;
      this.#lastFailureAt.set(url, now);
      this.#o.onFailure(
        `alert webhook: ${(err as Error).message}; ${payload.alerts.length === 1 ? 'the alert' : `${payload.alerts.length} alerts`} not delivered there`,
      );
    }
  }
}
