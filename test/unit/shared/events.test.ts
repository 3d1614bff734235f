import { describe, expect, it } from 'vitest';
import {
  bookSnapshot,
  FrameParseError,
  errorMessageText,
  parseJsonWithInt64,
  parseServerFrame,
  stringifyJson,
  subscribeOp,
} from '../../../src/shared/api/index.ts';
import { TS } from './fixtures.ts';

describe('WebSocket frames', () => {
  it('parses seq above 2^53 exactly', () => {
    const a = parseServerFrame(`{"event":"listing.removed","data":{"listing_id":1,"app_id":730},"seq":1900000000000000001,"ts":"${TS}"}`);
    const b = parseServerFrame(`{"event":"listing.removed","data":{"listing_id":1,"app_id":730},"seq":1900000000000000002,"ts":"${TS}"}`);
    expect(a.kind === 'listing' && a.event.seq).toBe(1900000000000000001n);
    expect(b.kind === 'listing' && b.event.seq).toBe(1900000000000000002n);
  });
  it('parses each listing event and the control messages', () => {
    const frames = [
      `{"event":"connected","data":null,"ts":"${TS}"}`,
      `{"event":"subscribed","data":{"events":"all","app_ids":[730]}}`,
      `{"event":"error","data":{"message":"bad op"}}`,
      `{"event":"listing.price_changed","data":{"listing_id":1,"app_id":730,"price_before":10,"price_after":9},"seq":5,"ts":"${TS}"}`,
      `{"event":"listing.amount_changed","data":{"listing_id":1,"app_id":730,"new_amount":0},"seq":6,"ts":"${TS}"}`,
      `{"event":"listing.sold","data":{"listing_id":1,"app_id":730,"market_hash_name":"x","price":9,"amount":1,"listed_at":"${TS}","sold_at":"${TS}"},"seq":7,"ts":"${TS}"}`,
    ];
    expect(frames.map((f) => parseServerFrame(f).kind)).toEqual(['control', 'control', 'control', 'listing', 'listing', 'listing']);
  });
  it('reads an `error` message whatever its data (not shown by the spec), or without any', () => {
    for (const [frame, words] of [
      ['{"event":"error"}', null],
      ['{"event":"error","data":null}', null],
      ['{"event":"error","data":{"code":"BAD_OP"}}', null],
      ['{"event":"error","data":"unknown op"}', 'unknown op'],
      ['{"event":"error","data":{"message":"bad op"}}', 'bad op'],
    ] as const) {
      const f = parseServerFrame(frame);
      expect(f.kind, frame).toBe('control');
      expect(f.kind === 'control' && f.message.event === 'error' ? errorMessageText(f.message) : undefined, frame).toBe(words);
    }
  });
  it('ignores unknown event names but keeps their seq', () => {
    const f = parseServerFrame(`{"event":"listing.teleported","data":{},"seq":99,"ts":"${TS}"}`);
    expect(f).toEqual({ kind: 'unknown', event: 'listing.teleported', seq: 99n });
  });
  it('rejects malformed frames with a typed error', () => {
    expect(() => parseServerFrame('not json')).toThrow(FrameParseError);
    expect(() => parseServerFrame('{"data":1}')).toThrow(FrameParseError);
    expect(() => parseServerFrame(`{"event":"listing.removed","data":{"listing_id":"1","app_id":730},"seq":1,"ts":"${TS}"}`)).toThrow(FrameParseError);
  });
  it("tells a malformed frame's seq when it still reads as one, exactly", () => {
    const seqOf = (text: string) => {
      try {
        parseServerFrame(text);
      } catch (err) {
        if (err instanceof FrameParseError) return err.seq;
      }
      throw new Error('the frame was taken');
    };
    expect(seqOf(`{"event":"listing.removed","data":{"listing_id":"1"},"seq":1900000000000000001,"ts":"${TS}"}`)).toBe(1900000000000000001n);
    expect(seqOf('{"data":1,"seq":5}')).toBe(5n);
    expect(seqOf(`{"event":"listing.removed","data":{"listing_id":1,"app_id":730},"seq":"5","ts":"${TS}"}`)).toBeNull();
    expect(seqOf(`{"event":"listing.removed","data":{"listing_id":1,"app_id":730},"seq":1.5,"ts":"${TS}"}`)).toBeNull();
    expect(seqOf(`{"event":"listing.removed","data":{"listing_id":1,"app_id":730},"seq":9223372036854775808,"ts":"${TS}"}`)).toBeNull();
    expect(seqOf('{"event":"listing.removed","seq":7')).toBeNull();
  });
  it('subscribe op: events and app_ids optional, unknown games rejected', () => {
    expect(subscribeOp.safeParse({ op: 'subscribe' }).success).toBe(true);
    expect(subscribeOp.safeParse({ op: 'subscribe', events: ['listing.created'], app_ids: [730, 570] }).success).toBe(true);
    expect(subscribeOp.safeParse({ op: 'subscribe', app_ids: [1] }).success).toBe(false);
    expect(subscribeOp.safeParse({ op: 'unsubscribe' }).success).toBe(false);
  });
});

describe('lossless JSON', () => {
  it('round-trips int64 values through stringify and parse', () => {
    const text = stringifyJson({ seq: 9223372036854775807n, listings: [] });
    expect(text).toBe('{"seq":9223372036854775807,"listings":[]}');
    expect(parseJsonWithInt64(text, ['seq'])).toEqual({ seq: 9223372036854775807n, listings: [] });
  });
  it('falls back to exact parsing when the key appears more than once', () => {
    const text = '{"seq":9007199254740993,"nested":{"seq":9007199254740995}}';
    const parsed = parseJsonWithInt64(text, ['seq']) as { seq: bigint };
    expect(parsed.seq).toBe(9007199254740993n);
  });
  it('never cuts a seq that is not an integer down to its leading digits: the schema sees it and rejects it', () => {
    for (const text of [
      '{"seq":1e19,"listings":[]}',
      '{"seq":1.9e+18,"listings":[]}',
      '{"seq":12345678901234567.5,"listings":[]}',
      '{"seq":1e19,"listings":[],"nested":{"seq":1}}', // the exact (slow) path
    ]) {
      const parsed = parseJsonWithInt64(text, ['seq']) as { seq: unknown };
      expect(typeof parsed.seq, text).toBe('number');
      expect(bookSnapshot.safeParse(parsed).success, text).toBe(false);
    }
    expect(() => parseServerFrame(`{"event":"listing.removed","data":{"listing_id":1,"app_id":730},"seq":1.9e+18,"ts":"${TS}"}`)).toThrow(
      /invalid listing\.removed event/,
    );
  });
  it('turns safe integers into bigint too', () => {
    expect(parseJsonWithInt64('{"seq":42}', ['seq'])).toEqual({ seq: 42n });
  });
});
