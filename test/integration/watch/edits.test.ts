/**
 * What a watchlist keeps across an edit, a pause and a re-save by name (`skindesk watch` re-saves its
 * file's watchlists on every start): its listings already alerted stay alerted unless the rule itself
 * (filter or price condition) changed, and its spend stays counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { WatchlistInput } from '../../../src/shared/watchlist.ts';
import { ManualRig, OPEN_RAILS, itemNames } from './rig.ts';

let rig: ManualRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

describe('watchlist edits', () => {
  it('an edit that keeps the rule, a pause and resume, and a re-save by name alert nothing again', async () => {
    const r = await ManualRig.start();
    rig = r;
    const [item] = itemNames(r.demo, 1);
    const input: WatchlistInput = {
      name: 'snipe',
      filter: { name: item!.name },
      price: { kind: 'ceiling', max_price: 1_000 },
    };
    const w = r.service.create(input);
    await r.service.sweep([w.id]);
    const l = r.demo.createListing({ name: item!.name, price: 900 });
    await r.deliver();
    const alertsOf = () =>
      r.service
        .alerts(50)
        .filter((a) => a.listingId === l.listing.id)
        .map((a) => `${a.price} ${a.origin}`);
    expect(alertsOf()).toEqual(['900 event']);

    // renamed, a webhook and confirm-first added: the same rule, so the same listing is not news
    r.service.update(w.id, {
      ...input,
      name: 'snipe (renamed)',
      alerts: { notify: false, sound: true, webhook: null },
      auto_buy: { mode: 'confirm', guardrails: OPEN_RAILS },
    });
    await r.service.sweep([w.id]);
    expect(alertsOf()).toEqual(['900 event']);

    r.service.setPaused(w.id, true);
    r.service.setPaused(w.id, false);
    await r.service.sweep([w.id]);
    expect(alertsOf()).toEqual(['900 event']);

    // `skindesk watch` starting again with the same file
    r.service.upsert({ ...input, name: 'snipe (renamed)' });
    await r.service.sweep([w.id]);
    expect(alertsOf()).toEqual(['900 event']);

    // a new rule judges afresh
    r.service.update(w.id, { ...input, price: { kind: 'ceiling', max_price: 950 } });
    await r.service.sweep([w.id]);
    expect(alertsOf()).toEqual(['900 sweep', '900 event']);
  });
});
