/**
 * The app's words for a failed call, where they quote the marketplace's refusal: plain words for
 * every refusal, also one without a code the contract explains, never the request line or a bare code.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/api/errors.ts';
import { AccountSession } from '../../../src/core/app/account-services/account-session.ts';
import { bulkRows, refreshProblem } from '../../../src/core/app/account-services/views.ts';
import { describeAppError } from '../../../src/core/app/errors.ts';
import { Redactor } from '../../../src/core/app/redaction.ts';
import { describePurchase } from '../../../src/core/app/market-buying/purchase-words.ts';
import { ERROR_EXPLANATIONS } from '../../../src/shared/api/index.ts';
import { openTestStore } from '../store/helpers.ts';

const route = 'PATCH /public/v1/listings/bulk';
const technical = /\/public\/v1|HTTP \d|answered [A-Z_]+\./;

describe('bulk results', () => {
  it('explain a failed row by its code, an unknown code as a refusal with that code, a missing one as a refusal', () => {
    const rows = bulkRows(
      [1, 2, 3, 4],
      [
        { ok: true },
        { ok: false, error: 'LISTING_NOT_FOUND' },
        { ok: false, error: 'LISTING_LOCKED' },
        { ok: false, error: null },
      ],
    );
    expect(rows).toEqual([
      { listingId: 1, ok: true, error: null, explanation: null },
      {
        listingId: 2,
        ok: false,
        error: 'LISTING_NOT_FOUND',
        explanation: ERROR_EXPLANATIONS.LISTING_NOT_FOUND,
      },
      {
        listingId: 3,
        ok: false,
        error: 'LISTING_LOCKED',
        explanation: 'The marketplace refused the request with the code LISTING_LOCKED.',
      },
      {
        listingId: 4,
        ok: false,
        error: 'UNKNOWN',
        explanation: 'The marketplace refused this row without saying why.',
      },
    ]);
  });
});

describe('a refresh that failed', () => {
  it('says why in plain words, then that the stored copy is shown', () => {
    const error = new ApiError({ kind: 'api', route, status: 404, message: `${route}: HTTP 404` });
    const words = refreshProblem(error);
    expect(words).toBe(
      'The marketplace answered “not found” (what was asked for is gone, or the marketplace address is wrong). Showing what was stored.',
    );
    expect(words).not.toMatch(technical);
  });
});

describe('a purchase refused without a code the contract explains', () => {
  it('says it in plain words, and that nothing was bought', () => {
    for (const [error, first] of [
      [
        new ApiError({
          kind: 'api',
          route: 'POST /public/v1/purchase',
          status: 403,
          message: 'POST /public/v1/purchase: HTTP 403',
        }),
        'The marketplace refused the API key: it is not allowed to do this.',
      ],
      [
        new ApiError({
          kind: 'api',
          route: 'POST /public/v1/purchase',
          status: 400,
          code: 'SELLER_AWAY',
          message: 'POST /public/v1/purchase: SELLER_AWAY (HTTP 400)',
        }),
        'The marketplace refused the request with the code SELLER_AWAY.',
      ],
    ] as const) {
      const words = describePurchase({
        status: 'not_bought',
        orderId: null,
        error,
        lines: [{ listingId: 7, name: 'AK-47 | Redline (Field-Tested)', amount: 1, maxPrice: 1_000 }],
        spent: 0,
        note: null,
      });
      expect(words.message).toBe(`${first} Nothing was bought and nothing was charged.`);
      expect(words.message).not.toMatch(technical);
    }
  });
});

describe('a call before the marketplace is connected', () => {
  it('says it is not connected yet, not that the marketplace could not be reached', async () => {
    const t = openTestStore();
    try {
      const account = new AccountSession({ db: t.db, client: null, keyId: null }, { newAccount: false });
      const err = await account.api.call('user', {}, {}).catch((e: unknown) => e);
      expect(describeAppError(err, new Redactor()).message).toBe('Not connected to the marketplace yet.');
      expect(refreshProblem(err as Error)).toBe(
        'Not connected to the marketplace yet; showing what was stored.',
      );
    } finally {
      t.close();
    }
  });
});
