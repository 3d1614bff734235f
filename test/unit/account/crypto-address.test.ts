import { describe, expect, it } from 'vitest';
import { checkCryptoAddress } from '../../../src/core/account/crypto-address.ts';
import type { CryptoTicker } from '../../../src/shared/api/index.ts';

const good: Record<CryptoTicker, string[]> = {
  BTC: [
    'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297',
    '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
  ],
  ETH: ['0x52908400098527886E0F7030069857D2E4169EE7', '0xde709f2102306220921060314715629080e2fb77'],
  LTC: ['ltc1qhzjptwpym9afcdjhs7jcz6fd0jma0l0rc0e5yr', 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9', 'MGxNPPB7eBoWPUaprtX9v9CXJZoD2465zN'],
  SOL: ['7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', 'So11111111111111111111111111111111111111112'],
  USDC: ['0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
};

describe('checkCryptoAddress (shape checks)', () => {
  for (const [ticker, addresses] of Object.entries(good) as [CryptoTicker, string[]][]) {
    it(`accepts well-shaped ${ticker} addresses`, () => {
      for (const a of addresses) expect(checkCryptoAddress(ticker, a)).toEqual({ ok: true });
    });
  }

  it('rejects another currency’s address, truncations, bad characters and padding', () => {
    const bad: [CryptoTicker, string][] = [
      ['BTC', '0x52908400098527886E0F7030069857D2E4169EE7'],
      ['BTC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdo'], // 'o' is not a bech32 character
      ['BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0'], // 0 is not base58
      ['BTC', 'Bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'], // mixed case
      ['ETH', '0x52908400098527886E0F7030069857D2E4169EE'], // 39 hex digits
      ['ETH', '52908400098527886E0F7030069857D2E4169EE7'],
      ['ETH', '0x52908400098527886E0F7030069857D2E4169EEG'],
      ['LTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
      ['SOL', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV0'],
      ['SOL', 'short'],
      ['USDC', 'So11111111111111111111111111111111111111112'],
      ['ETH', ' 0x52908400098527886E0F7030069857D2E4169EE7'],
    ];
    for (const [ticker, address] of bad) {
      const check = checkCryptoAddress(ticker, address);
      expect(check.ok, `${ticker} ${address}`).toBe(false);
    }
    expect(checkCryptoAddress('ETH', 'nope')).toEqual({ ok: false, reason: 'this does not look like an Ethereum address (0x and 40 hex digits)' });
  });
});
