/**
 * The feed relay's two sides wired back to back, with a scripted socket in place of a WebSocket: the
 * worker's engine sees open, frames in order, a bad frame after the frames before it, and the close;
 * the host parses only new listings, at once; the key stays on the host's side.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { FeedClose, FeedConnection, FeedEvents, FeedOptions } from '../../../src/core/sync/feed.ts';
import { FeedRelayHost, RelayedFeeds, type RelayNotice, type RelayRequest } from '../../../src/core/sync/relay.ts';
import { FrameParseError, stringifyJson, type ListingCreatedEvent } from '../../../src/shared/api/index.ts';
import { createRng, createdEvent, makeFullListing, removedEvent } from '../../bench/generate.ts';

class ScriptedSocket extends EventEmitter<FeedEvents> {
  opened = false;
  closed = false;
  readonly options: FeedOptions;
  constructor(options: FeedOptions) {
    super();
    this.options = options;
  }
  open(): void {
    this.opened = true;
  }
  close(): void {
    this.closed = true;
    this.emit('close', { code: null, reason: 'closed by us', silent: false });
  }
}

/** A removal's text frame, as the market sends it. */
const removal = (seq: bigint): string => stringifyJson(removedEvent(Number(seq), 730, seq));
const creation = (seq: bigint): string => stringifyJson(createdEvent(makeFullListing(createRng(1), Number(seq)), seq));

function wire() {
  const sockets: ScriptedSocket[] = [];
  const hostJudged: ListingCreatedEvent[] = [];
  const requests: RelayRequest[] = [];
  let feeds: RelayedFeeds | null = null;
  const host = new FeedRelayHost({
    apiKey: 'secret-key-1',
    post: (notice: RelayNotice) => feeds!.deliver(structuredClone(notice)),
    onCreated: (f) => hostJudged.push(f),
    connect: (options) => {
      const socket = new ScriptedSocket(options);
      sockets.push(socket);
      return socket as unknown as FeedConnection;
    },
  });
  feeds = new RelayedFeeds((request) => {
    requests.push(structuredClone(request));
    host.handle(structuredClone(request));
  });
  return { host, feeds, sockets, hostJudged, requests };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('the feed relay', () => {
  it('opens the socket on the host with the key, and relays open, frames, a bad frame and the close in order', async () => {
    const { feeds, sockets, hostJudged, requests } = wire();
    const link = feeds.open({ url: 'ws://market/feed', apiKey: 'secret-key-1', subscribe: { op: 'subscribe' }, pingIntervalMs: 1, livenessTimeoutMs: 2, connectTimeoutMs: 3 });
    const seen: string[] = [];
    let closed: FeedClose | null = null;
    link.on('open', () => seen.push('open'));
    link.on('frame', (f) => seen.push(`frame ${f.kind === 'listing' ? f.event.seq : '?'}`));
    link.on('invalidFrame', (e) => seen.push(`invalid ${e.message}${e.seq === null ? '' : ` at ${e.seq}`}`));
    link.on('close', (c) => (closed = c));
    link.open();

    expect(requests[0]).toMatchObject({ type: 'feedOpen', options: { url: 'ws://market/feed' } });
    expect(JSON.stringify(requests)).not.toContain('secret-key-1');
    const socket = sockets[0]!;
    expect(socket.opened).toBe(true);
    expect(socket.options.apiKey).toBe('secret-key-1');

    expect(socket.options.rawFrames).toBe(true);
    socket.emit('open');
    socket.emit('text', removal(1n));
    socket.emit('text', creation(2n));
    // the host parses and judges the new listing at once, and nothing else...
    expect(hostJudged.map((e) => e.event)).toEqual(['listing.created']);
    expect(seen).toEqual(['open']); // ...the worker parses both on the next turn, in order
    await turn();
    expect(seen).toEqual(['open', 'frame 1', 'frame 2']);

    socket.emit('text', removal(3n));
    socket.emit('text', '{"event":"listing.removed","seq":4}'); // breaks the contract: the worker says so
    socket.emit('invalidFrame', new FrameParseError('binary frame', '<binary>'));
    // a bad frame's seq, when it still reads, crosses too (the engine's repair must reach it)
    socket.emit('invalidFrame', new FrameParseError('a frame the host could not read', '{}', 9_007_199_254_740_993n));
    expect(seen.slice(3)).toEqual([
      'frame 3',
      expect.stringMatching(/^invalid invalid listing.removed event.* at 4$/s),
      'invalid binary frame',
      'invalid a frame the host could not read at 9007199254740993',
    ]);

    link.close();
    expect(requests.at(-1)).toEqual({ type: 'feedClose', feedId: 1 });
    expect(socket.closed).toBe(true);
    expect(closed).toEqual({ code: null, reason: 'closed by us', silent: false });
  });

  it('forgets a closed feed: late notices for it change nothing, a new feed gets a new socket', async () => {
    const { feeds, sockets } = wire();
    const options = { url: 'ws://m', apiKey: 'k', subscribe: { op: 'subscribe' as const }, pingIntervalMs: 1, livenessTimeoutMs: 2, connectTimeoutMs: 3 };
    const first = feeds.open(options);
    first.open();
    let lateFrames = 0;
    first.on('frame', () => lateFrames++);
    sockets[0]!.emit('close', { code: 1006, reason: '', silent: false });
    feeds.deliver({ type: 'feedTexts', feedId: 1, texts: [removal(9n)] });
    await turn();
    expect(lateFrames).toBe(0);
    const second = feeds.open(options);
    second.open();
    expect(sockets).toHaveLength(2);
  });

  it('closes every socket when the worker is gone', () => {
    const { host, feeds, sockets } = wire();
    feeds.open({ url: 'ws://m', apiKey: 'k', subscribe: { op: 'subscribe' }, pingIntervalMs: 1, livenessTimeoutMs: 2, connectTimeoutMs: 3 }).open();
    host.closeAll();
    expect(sockets[0]!.closed).toBe(true);
  });
});
