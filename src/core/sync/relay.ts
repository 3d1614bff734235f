/**
 * The feed relay between a host thread and the sync worker. The host holds the WebSocket (and the key);
 * the worker's engine sees a FeedLink that behaves like a socket of its own.
 * Why: the worker spends most of its time inside SQLite transactions, and a frame that arrives then
 * waits in the socket until the transaction ends. With the socket in the host, a new listing is parsed
 * and judged by the watchlists (and a purchase sent) the moment it arrives, whatever the writer is doing.
 *
 * Frames cross the thread boundary as text, in batches (one message per turn of the host's event loop),
 * and the worker parses them: the host parses only what it judges at once (new listings), so a frame it
 * is waiting for never queues behind the parsing of the dozens that arrived in the same TCP read.
 */
import { EventEmitter } from 'node:events';
import { FrameParseError, parseServerFrame, type ListingCreatedEvent, type ServerFrame } from '../../shared/api/index.ts';
import { type FeedClose, FeedConnection, type FeedEvents, type FeedLink, type FeedOptions, emitParsedFrame } from './feed.ts';

/** What the worker asks of the host's relay. */
export type RelayRequest =
  | { type: 'feedOpen'; feedId: number; options: Omit<FeedOptions, 'apiKey'> }
  | { type: 'feedClose'; feedId: number };

/** What the host's relay tells the worker about one feed. */
export type RelayNotice =
  | { type: 'feedOpened'; feedId: number }
  | { type: 'feedTexts'; feedId: number; texts: string[] }
  | { type: 'feedInvalid'; feedId: number; message: string; frame: string; seq: bigint | null; changesNoListing: boolean }
  | { type: 'feedClosed'; feedId: number; close: FeedClose };

export const isRelayNotice = (m: { type: string }): m is RelayNotice =>
  m.type === 'feedOpened' || m.type === 'feedTexts' || m.type === 'feedInvalid' || m.type === 'feedClosed';

export const isRelayRequest = (m: { type: string }): m is RelayRequest => m.type === 'feedOpen' || m.type === 'feedClose';

// ---- worker side ----------------------------------------------------------------------------------

/** The worker's side: hands out FeedLinks to the engine and routes the host's notices to them. */
export class RelayedFeeds {
  readonly #post: (request: RelayRequest) => void;
  readonly #feeds = new Map<number, RelayedFeed>();
  #nextId = 1;

  constructor(post: (request: RelayRequest) => void) {
    this.#post = post;
  }

  /** The engine's `openFeed` option. */
  readonly open = (options: FeedOptions): FeedLink => {
    const feedId = this.#nextId++;
    const { apiKey: _hostHoldsTheKey, ...rest } = options;
    const feed = new RelayedFeed(
      () => this.#post({ type: 'feedOpen', feedId, options: rest }),
      () => this.#post({ type: 'feedClose', feedId }),
    );
    this.#feeds.set(feedId, feed);
    feed.on('close', () => this.#feeds.delete(feedId));
    return feed;
  };

  deliver(notice: RelayNotice): void {
    const feed = this.#feeds.get(notice.feedId);
    if (!feed) return; // a feed this side already forgot (closed): its late frames mean nothing
    switch (notice.type) {
      case 'feedOpened':
        feed.emit('open');
        break;
      case 'feedTexts':
        for (const text of notice.texts) emitParsedFrame(feed, text);
        break;
      case 'feedInvalid':
        feed.emit('invalidFrame', new FrameParseError(notice.message, notice.frame, notice.seq, notice.changesNoListing));
        break;
      case 'feedClosed':
        feed.emit('close', notice.close);
        break;
    }
  }
}

class RelayedFeed extends EventEmitter<FeedEvents> implements FeedLink {
  readonly #open: () => void;
  readonly #close: () => void;
  #closeAsked = false;

  constructor(open: () => void, close: () => void) {
    super();
    this.#open = open;
    this.#close = close;
  }

  open(): void {
    this.#open();
  }

  close(): void {
    if (this.#closeAsked) return;
    this.#closeAsked = true;
    this.#close();
  }
}

// ---- host side ------------------------------------------------------------------------------------

/** Every listing.created frame contains this; a frame that does not is never parsed on the host. */
const CREATED_MARK = '"listing.created"';

export interface FeedRelayHostOptions {
  apiKey: string;
  post: (notice: RelayNotice) => void;
  /**
   * Every new listing, parsed in this thread the moment its frame arrives (before the worker sees it).
   * Other frames go to the worker unparsed.
   */
  onCreated?: (event: ListingCreatedEvent) => void;
  /** Test seam: how a socket is opened. */
  connect?: (options: FeedOptions) => FeedConnection;
}

/** The host's side: opens the sockets the worker asks for and forwards what they say. */
export class FeedRelayHost {
  readonly #o: FeedRelayHostOptions;
  readonly #sockets = new Map<number, FeedConnection>();
  readonly #pending = new Map<number, string[]>();
  #flushScheduled = false;

  constructor(options: FeedRelayHostOptions) {
    this.#o = options;
  }

  handle(request: RelayRequest): void {
    if (request.type === 'feedClose') {
      this.#sockets.get(request.feedId)?.close();
      return;
    }
    const { feedId } = request;
    const options: FeedOptions = { ...request.options, apiKey: this.#o.apiKey, rawFrames: true };
    const socket = this.#o.connect ? this.#o.connect(options) : new FeedConnection(options);
    this.#sockets.set(feedId, socket);
    socket.on('open', () => this.#o.post({ type: 'feedOpened', feedId }));
    socket.on('text', (text) => {
      if (this.#o.onCreated && text.includes(CREATED_MARK)) this.#judgeNow(text);
      let texts = this.#pending.get(feedId);
      if (!texts) this.#pending.set(feedId, (texts = []));
      texts.push(text);
      this.#scheduleFlush();
    });
    socket.on('invalidFrame', (err) => {
      this.#flush(); // what came before it goes first
      this.#o.post({ type: 'feedInvalid', feedId, message: err.message, frame: err.frame, seq: err.seq, changesNoListing: err.changesNoListing });
    });
    socket.on('close', (close) => {
      this.#flush();
      this.#sockets.delete(feedId);
      this.#o.post({ type: 'feedClosed', feedId, close });
    });
    socket.open();
  }

  /** A frame that breaks the contract is the worker's to handle (it sees the same text): none judged here. */
  #judgeNow(text: string): void {
    let frame: ServerFrame;
    try {
      frame = parseServerFrame(text);
    } catch {
      return;
    }
    if (frame.kind === 'listing' && frame.event.event === 'listing.created') this.#o.onCreated?.(frame.event);
  }

  /** Closes every socket (the worker is gone). */
  closeAll(): void {
    for (const socket of this.#sockets.values()) socket.close();
    this.#sockets.clear();
    this.#pending.clear();
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#flushScheduled = false;
    for (const [feedId, texts] of this.#pending) this.#o.post({ type: 'feedTexts', feedId, texts });
    this.#pending.clear();
  }
}
