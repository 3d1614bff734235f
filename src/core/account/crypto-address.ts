/**
 * Destination address checks per ticker. These are SHAPE checks only (prefix, alphabet, length): they
 * catch a pasted address of the wrong currency, a truncated paste or a stray character, but they do
 * not verify checksums (bech32, base58check, EIP-55 mixed case), so a well-shaped typo passes. The
 * marketplace remains the authority; this only stops the obvious mistakes before a 2FA prompt.
 */
import type { CryptoTicker } from '../../shared/api/index.ts';

const BASE58 = '1-9A-HJ-NP-Za-km-z';
// bech32 data characters (no 1, b, i, o); one case throughout.
const BECH32 = '02-9ac-hj-np-z';

const BECH32_BTC = new RegExp(`^(bc1[${BECH32}]{11,71}|BC1[${BECH32.toUpperCase()}]{11,71})$`);
const BASE58_BTC = new RegExp(`^[13][${BASE58}]{25,34}$`);
const BECH32_LTC = new RegExp(`^(ltc1[${BECH32}]{11,71}|LTC1[${BECH32.toUpperCase()}]{11,71})$`);
const BASE58_LTC = new RegExp(`^[LM3][${BASE58}]{26,33}$`);
const EVM = /^0x[0-9a-fA-F]{40}$/;
const SOLANA = new RegExp(`^[${BASE58}]{32,44}$`);

const SHAPES: Record<CryptoTicker, { patterns: readonly RegExp[]; expected: string }> = {
  BTC: { patterns: [BECH32_BTC, BASE58_BTC], expected: 'a Bitcoin address (bc1…, 1… or 3…)' },
  ETH: { patterns: [EVM], expected: 'an Ethereum address (0x and 40 hex digits)' },
  LTC: { patterns: [BECH32_LTC, BASE58_LTC], expected: 'a Litecoin address (ltc1…, L…, M… or 3…)' },
  SOL: { patterns: [SOLANA], expected: 'a Solana address (32 to 44 base58 characters)' },
  // USDC is paid out on an Ethereum-style chain.
  USDC: { patterns: [EVM], expected: 'an Ethereum-style address (0x and 40 hex digits)' },
};

export type AddressCheck = { ok: true } | { ok: false; reason: string };

export function checkCryptoAddress(ticker: CryptoTicker, address: string): AddressCheck {
  const trimmed = address.trim();
  if (trimmed !== address) return { ok: false, reason: 'the address has spaces around it' };
  const shape = SHAPES[ticker];
  if (shape.patterns.some((p) => p.test(address))) return { ok: true };
  return { ok: false, reason: `this does not look like ${shape.expected}` };
}
