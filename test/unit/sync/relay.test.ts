/**
 * The feed relay's two sides wired back to back, with a scripted socket in place of a WebSocket: the
 * worker's engine sees open, frames in order, a bad frame after the frames before it, and the close;
 * the host sees every frame first; the key stays on the host's side.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { FeedClose, FeedConnection, FeedEvents, FeedOptions } from '../../../src/core/sync/feed.ts';
import { FeedRelayHost, RelayedFeeds, type RelayNotice, type RelayRequest } from '../../../src/core/sync/relay.ts';
import { FrameParseError, type ServerFrame } from '../../../src/shared/api/index.ts';

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

const frame = (seq: bigint): ServerFrame =>
  ({ kind: 'listing', event: { event: 'listing.removed', seq, data: { listing_id: Number(seq), app_id: 730 } } }) as ServerFrame;

function wire() {
  const sockets: ScriptedSocket[] = [];
  const hostSaw: ServerFrame[] = [];
  const requests: RelayRequest[] = [];
  let feeds: RelayedFeeds | null = null;
  const host = new FeedRelayHost({
    apiKey: 'secret-key-1',
    post: (notice: RelayNotice) => feeds!.deliver(structuredClone(notice)),
    onFrame: (f) => hostSaw.push(f),
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
  return { host, feeds, sockets, hostSaw, requests };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('the feed relay', () => {
  it('opens the socket on the host with the key, and relays open, frames, a bad frame and the close in order', async () => {
    const { feeds, sockets, hostSaw, requests } = wire();
    const link = feeds.open({ url: 'ws://market/feed', apiKey: 'secret-key-1', subscribe: { op: 'subscribe' }, pingIntervalMs: 1, livenessTimeoutMs: 2, connectTimeoutMs: 3 });
    const seen: string[] = [];
    let closed: FeedClose | null = null;
    link.on('open', () => seen.push('open'));
    link.on('frame', (f) => seen.push(`frame ${f.kind === 'listing' ? f.event.seq : '?'}`));
    link.on('invalidFrame', (e) => seen.push(`invalid ${e.message}`));
    link.on('close', (c) => (closed = c));
    link.open();

    expect(requests[0]).toMatchObject({ type: 'feedOpen', options: { url: 'ws://market/feed' } });
    expect(JSON.stringify(requests)).not.toContain('secret-key-1');
    const socket = sockets[0]!;
    expect(socket.opened).toBe(true);
    expect(socket.options.apiKey).toBe('secret-key-1');

    socket.emit('open');
    socket.emit('frame', frame(1n));
    socket.emit('frame', frame(2n));
    expect(hostSaw).toHaveLength(2); // the host sees each frame at once...
    expect(seen).toEqual(['open']); // ...the worker on the next turn, in one batch
    await turn();
    expect(seen).toEqual(['open', 'frame 1', 'frame 2']);

    socket.emit('frame', frame(3n));
    socket.emit('invalidFrame', new FrameParseError('bad json', '{'));
    expect(seen.slice(3)).toEqual(['frame 3', 'invalid bad json']);

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
    feeds.deliver({ type: 'feedFrames', feedId: 1, frames: [frame(9n)] });
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
