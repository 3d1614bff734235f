/**
 * External-inventory tokens (spec §2.8, §5.7): opaque handles signed with the market's secret, naming the
 * account, the asset and when they were issued. A token only works for the account it was issued to and
 * for 30 minutes (LIMITS.inventoryTokenLifetimeMs).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { LIMITS } from '../../shared/api/index.ts';

export interface TokenClaims {
  accountId: number;
  assetId: number;
  issuedAt: number;
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: string };

export class InventoryTokens {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    this.key = key;
  }

  issue(claims: TokenClaims): string {
    const payload = Buffer.from(`${claims.accountId}:${claims.assetId}:${claims.issuedAt}`).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  check(token: string, accountId: number, now: number): TokenCheck {
    const dot = token.indexOf('.');
    if (dot <= 0) return { ok: false, reason: 'malformed token' };
    const payload = token.slice(0, dot);
    const signature = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.sign(payload));
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
      return { ok: false, reason: 'token signature is not valid' };
    }
    const [account, asset, issued] = Buffer.from(payload, 'base64url').toString().split(':').map(Number);
    if (account === undefined || asset === undefined || issued === undefined || [account, asset, issued].some((n) => !Number.isSafeInteger(n))) {
      return { ok: false, reason: 'malformed token' };
    }
    if (account !== accountId) return { ok: false, reason: 'token belongs to another account' };
    if (now - issued > LIMITS.inventoryTokenLifetimeMs) return { ok: false, reason: 'token expired (tokens last 30 minutes)' };
    return { ok: true, claims: { accountId: account, assetId: asset, issuedAt: issued } };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url').slice(0, 32);
  }
}
