import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { PurchaseJournal } from '../../../src/core/api/purchase-journal.ts';
import { defaultDataDir, defaultDatabaseFile } from '../../../src/core/paths.ts';

describe('defaultDataDir: the folder Electron gives app.getPath("userData") for productName Skindesk', () => {
  it('Linux: $XDG_CONFIG_HOME/Skindesk, else ~/.config/Skindesk', () => {
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/x/cfg' }, '/home/ann')).toBe('/x/cfg/Skindesk');
    expect(defaultDataDir('linux', {}, '/home/ann')).toBe('/home/ann/.config/Skindesk');
  });
  it('macOS: ~/Library/Application Support/Skindesk', () => {
    expect(defaultDataDir('darwin', {}, '/Users/ann')).toBe('/Users/ann/Library/Application Support/Skindesk');
  });
  it('Windows: %APPDATA%\\Skindesk', () => {
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'C:\\Users\\ann')).toBe(
      'C:\\Users\\ann\\AppData\\Roaming\\Skindesk',
    );
    expect(defaultDatabaseFile('win32').endsWith('\\Skindesk\\skindesk.db')).toBe(true);
  });
});

describe('PurchaseJournal', () => {
  const intent = (id: string, createdAtMs: number) => ({
    intentId: id, createdAtMs, listingId: 1, amount: 1, maxPrice: 100, appId: null, marketHashName: null,
    triggerSeq: 9223372036854775807n, watchlistId: null, source: 'app',
  });

  it('creates its table idempotently, so the store and the CLI can both open it first', () => {
    const db = new Database(':memory:');
    new PurchaseJournal(db).recordIntent(intent('a', 1));
    const again = new PurchaseJournal(db);
    expect(again.get('a')).toMatchObject({ state: 'intent', triggerSeq: 9223372036854775807n });
    db.close();
  });

  it('never lets one order account for two intents', () => {
    const db = new Database(':memory:');
    const journal = new PurchaseJournal(db);
    journal.recordIntent(intent('a', 1));
    journal.recordIntent(intent('b', 2));
    journal.recordOutcome('a', { state: 'bought', orderId: 7, resolution: 'response' }, 3);
    expect(() => journal.recordOutcome('b', { state: 'bought', orderId: 7, resolution: 'reconciled' }, 4)).toThrow(/UNIQUE/);
    expect(journal.unresolved().map((e) => e.intentId)).toEqual(['b']);
    expect(journal.recent().map((e) => e.intentId)).toEqual(['b', 'a']);
    expect(() => journal.recordOutcome('nope', { state: 'not_bought', orderId: null, resolution: 'response' }, 5)).toThrow(/no purchase intent/);
    db.close();
  });
});
