// Account dialogs and notes against a fake bridge generated from the real contract: the partial reprice
// explained before sending and the split listing reported after; a bulk delist's per-row table with the
// failing row in plain words; an error with the spec's code explained; pre-send problems blocking a sale; a note that does not block a listing.
import { Table } from '@mantine/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ListDialog } from '../../../../src/renderer/screens/account/backpack/ListDialog.tsx';
import { SellDialog } from '../../../../src/renderer/screens/account/inventory/SellDialog.tsx';
import { BulkDelistDialog } from '../../../../src/renderer/screens/account/listings/BulkDialogs.tsx';
import { BookStandingCell } from '../../../../src/renderer/screens/account/listings/BookStandingCell.tsx';
import { EditListingDialog } from '../../../../src/renderer/screens/account/listings/EditListingDialog.tsx';
import { DecayEditor, type DecayDraft, completeCurve } from '../../../../src/renderer/screens/account/ui/DecayEditor.tsx';
import { ErrorNote } from '../../../../src/renderer/screens/account/ui/ErrorNote.tsx';
import { SkindeskError } from '../../../../src/shared/ipc/index.ts';
import { NOW_ISO, backpackStack, installFakeBridge, myListing, renderWithTheme } from './fake-bridge.tsx';

const listing = myListing;

/** Turns on "Change the amount" and types the copies the listing is to keep. */
async function typeCopies(user: ReturnType<typeof userEvent.setup>, copies: string): Promise<void> {
  await user.click(screen.getByTestId('edit-amount-switch'));
  const amount = screen.getByTestId('edit-amount');
  await user.clear(amount);
  await user.type(amount, copies);
}

describe('EditListingDialog', () => {
  it('explains the partial reprice before sending, then reports the new listing holding the surplus', async () => {
    const user = userEvent.setup();
    const bridge = installFakeBridge({
      editListing: (input) => ({
        listing: { id: 7, app_id: 730, market_hash_name: 'Item 7', price: input.price ?? 1000, amount: input.amount ?? 5, commodity: true, created_at: NOW_ISO },
        split: listing(8, { market_hash_name: 'Item 7', amount: 3, price: 1000 }),
      }),
    });
    let sent = 0;
    renderWithTheme(<EditListingDialog listing={listing(7)} onClose={() => {}} onSent={() => sent++} />);
    const price = screen.getByTestId('edit-price');
    await user.clear(price);
    await user.type(price, '9.50');
    expect(screen.getByTestId('edit-explanation').getAttribute('data-kind')).toBe('reprice');

    await typeCopies(user, '2');
    const explanation = screen.getByTestId('edit-explanation');
    expect(explanation.getAttribute('data-kind')).toBe('partial_reprice');
    expect(explanation.textContent).toContain('keeps 2 copies at $9.50');
    expect(explanation.textContent).toContain('3 copies stay on the market as a NEW listing at the old price $10.00');
    expect(screen.getByTestId('confirm-button').textContent).toBe('Split and reprice');

    await user.click(screen.getByTestId('confirm-button'));
    expect(await screen.findByTestId('edit-split')).toHaveProperty('textContent', expect.stringContaining('New listing #8 holds the other 3 copies at the old price $10.00'));
    expect(bridge.calls.find((c) => c.name === 'editListing')?.input).toEqual({ listingId: 7, price: 950, amount: 2, decay: null });
    expect(sent).toBe(1);
  });
});

// Review of the account screens: the dialog opens in Fixed price with the listing's price filled in, so
// "Change the amount" with fewer copies always sent that price: a partial reprice at the SAME price (spec
// §4.4 PATCH rule 4) that kept the surplus listed as a new listing instead of returning it to the backpack.
describe('EditListingDialog: fewer copies, price untouched', () => {
  it('sends no price and says the surplus goes back to the backpack', async () => {
    const user = userEvent.setup();
    const bridge = installFakeBridge({
      editListing: (input) => ({
        listing: { id: 7, app_id: 730, market_hash_name: 'Item 7', price: 1000, amount: input.amount ?? 5, commodity: true, created_at: NOW_ISO },
        split: null,
      }),
    });
    renderWithTheme(<EditListingDialog listing={listing(7)} onClose={() => {}} onSent={() => {}} />);
    expect((screen.getByTestId('edit-price') as HTMLInputElement).value).toBe('$10.00');
    await typeCopies(user, '2');
    const explanation = screen.getByTestId('edit-explanation');
    expect(explanation.getAttribute('data-kind')).toBe('reduce');
    expect(explanation.textContent).toContain('The listing keeps 2 copies at $10.00; 3 copies go back to your backpack.');
    expect(explanation.textContent).not.toContain('NEW listing');
    expect(screen.getByTestId('confirm-button').textContent).toBe('Apply');
    await user.click(screen.getByTestId('confirm-button'));
    await screen.findByTestId('edit-result');
    expect(bridge.calls.find((c) => c.name === 'editListing')?.input).toEqual({ listingId: 7, price: null, amount: 2, decay: null });
  });

  it('treats the same price typed again as untouched, and a different one as the partial reprice it is', async () => {
    const user = userEvent.setup();
    installFakeBridge({});
    renderWithTheme(<EditListingDialog listing={listing(7)} onClose={() => {}} onSent={() => {}} />);
    await typeCopies(user, '2');
    const price = screen.getByTestId('edit-price');
    await user.clear(price);
    await user.type(price, '10.00');
    expect(screen.getByTestId('edit-explanation').getAttribute('data-kind')).toBe('reduce');
    await user.clear(price);
    await user.type(price, '9.99');
    const explanation = screen.getByTestId('edit-explanation');
    expect(explanation.getAttribute('data-kind')).toBe('partial_reprice');
    expect(explanation.textContent).toContain('To send the surplus back to your backpack instead, leave the price at $10.00.');
  });
});

// The preview once explained edits that cannot happen: Copies 0 was "a partial reprice keeping 0 copies",
// 99 had "96 more copies taken from your backpack", beside a footer saying 1 to 7.
describe('EditListingDialog: copies out of range', () => {
  it('blocks 0, none or more copies than the stack and the backpack hold, leaves the typed number as it is, and previews what is allowed', async () => {
    const user = userEvent.setup();
    installFakeBridge({});
    renderWithTheme(<EditListingDialog listing={listing(7, { amount: 5, available_amount: 2 })} onClose={() => {}} onSent={() => {}} />);
    const price = screen.getByTestId('edit-price');
    await user.clear(price);
    await user.type(price, '9.50');
    await user.click(screen.getByTestId('edit-amount-switch'));
    const amount = screen.getByTestId('edit-amount');
    for (const [typed, asked] of [
      ['0', '0 copies'],
      ['8', '8 copies'],
      ['99', '99 copies'],
      ['', '0 copies'],
    ] as const) {
      await user.clear(amount);
      if (typed) await user.type(amount, typed);
      // leaving the field (as a press on the button does) keeps the number the explanation speaks of
      await user.tab();
      expect(amount).toHaveProperty('value', typed);
      expect(screen.getByTestId('confirm-button')).toHaveProperty('disabled', true);
      expect(screen.getByTestId('blocked-reason').textContent).toBe('Copies listed: 1 to 7 (5 listed, 2 more in the backpack).');
      const preview = screen.getByTestId('edit-explanation');
      expect(preview.getAttribute('data-kind')).toBe('out_of_range');
      expect(preview.textContent).toContain(`${asked} cannot be listed: the listing can hold 1 to 7 (5 listed, 2 more in the backpack).`);
      expect(preview.textContent).not.toMatch(/keeps|taken from your backpack|NEW listing|repriced/);
    }
    await user.clear(amount);
    await user.type(amount, '7');
    expect(screen.getByTestId('confirm-button')).toHaveProperty('disabled', false);
  });
});

describe('EditListingDialog against the book', () => {
  it('matches or undercuts the cheapest other listing in one click', async () => {
    const user = userEvent.setup();
    const bridge = installFakeBridge({
      editListing: (input) => ({
        listing: { id: 7, app_id: 730, market_hash_name: 'Item 7', price: input.price ?? 1000, amount: 5, commodity: true, created_at: NOW_ISO },
        split: null,
      }),
    });
    const standing = { listingId: 7, others: 4, cheaper: 2, lowestOther: 890, lowestOtherId: 42, phase: null };
    renderWithTheme(<EditListingDialog listing={listing(7)} standing={standing} onClose={() => {}} onSent={() => {}} />);
    expect(screen.getByTestId('edit-book-prices').textContent).toContain('Cheapest other in the book $8.90 (#42)');
    await user.click(screen.getByTestId('edit-match-lowest'));
    expect((screen.getByTestId('edit-price') as HTMLInputElement).value).toBe('$8.90');
    await user.click(screen.getByTestId('edit-undercut-lowest'));
    expect((screen.getByTestId('edit-price') as HTMLInputElement).value).toBe('$8.89');
    await user.click(screen.getByTestId('confirm-button'));
    await waitFor(() => expect(bridge.calls.find((c) => c.name === 'editListing')?.input).toEqual({ listingId: 7, price: 889, amount: null, decay: null }));
  });

  it('says when nobody else lists the item, and offers nothing to match', () => {
    installFakeBridge({});
    const standing = { listingId: 7, others: 0, cheaper: 0, lowestOther: null, lowestOtherId: null, phase: null };
    renderWithTheme(<EditListingDialog listing={listing(7)} standing={standing} onClose={() => {}} onSent={() => {}} />);
    expect(screen.getByTestId('edit-book-prices').textContent).toBe('No other listing of this item in the book.');
    expect(screen.queryByTestId('edit-match-lowest')).toBeNull();
  });
});

describe('a Doppler against its own phase', () => {
  it('names the phase in the listings table and in the edit dialog', () => {
    installFakeBridge({});
    const standing = { listingId: 7, others: 2, cheaper: 1, lowestOther: 290_000, lowestOtherId: 4, phase: 'Ruby' as const };
    renderWithTheme(
      <Table>
        <Table.Tbody>
          <Table.Tr>
            <BookStandingCell standing={standing} />
            <BookStandingCell standing={{ ...standing, cheaper: 0 }} />
            <BookStandingCell standing={{ ...standing, others: 0, cheaper: 0, lowestOther: null, lowestOtherId: null, phase: 'Phase 2' }} />
          </Table.Tr>
        </Table.Tbody>
      </Table>,
    );
    expect(screen.getAllByTestId('standing').map((e) => e.textContent)).toEqual(['1 Ruby cheaper · $2,900.00', 'lowest Ruby of 3', 'only P2']);
    renderWithTheme(<EditListingDialog listing={listing(7)} standing={standing} onClose={() => {}} onSent={() => {}} />);
    expect(screen.getByTestId('edit-book-prices').textContent).toContain('Cheapest other Ruby in the book $2,900.00 (#4)');
  });
});

describe('BulkDelistDialog', () => {
  it('shows one result row per listing, the failing one with its code in plain words', async () => {
    const user = userEvent.setup();
    installFakeBridge({
      delistListings: ({ listingIds }) => ({
        results: listingIds.map((id, i) =>
          i === 1
            ? { listingId: id, ok: false, error: 'LISTING_NOT_FOUND', explanation: 'That listing is gone: sold, delisted, or private without its share token.' }
            : { listingId: id, ok: true, error: null, explanation: null },
        ),
      }),
    });
    renderWithTheme(<BulkDelistDialog listings={[listing(1), listing(2), listing(3)]} onClose={() => {}} onSent={() => {}} />);
    await user.click(screen.getByTestId('confirm-button'));
    const rows = await screen.findAllByTestId('bulk-result-row');
    expect(rows.map((r) => r.getAttribute('data-ok'))).toEqual(['true', 'false', 'true']);
    expect(within(rows[1]!).getByText('LISTING_NOT_FOUND')).toBeTruthy();
    expect(rows[1]!.textContent).toContain('That listing is gone');
    expect(screen.getByTestId('bulk-summary').textContent).toBe('2 of 3 done; 1 row failed.');
  });

  it('refuses more than 50 listings before sending', () => {
    installFakeBridge({});
    renderWithTheme(<BulkDelistDialog listings={Array.from({ length: 51 }, (_, i) => listing(i + 1))} onClose={() => {}} onSent={() => {}} />);
    expect((screen.getByTestId('confirm-button') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('blocked-reason').textContent).toContain('At most 50 listings per request');
  });
});

describe('ErrorNote', () => {
  it('names the spec’s code with its explanation, lists every problem, and warns when the outcome is unknown', () => {
    renderWithTheme(
      <ErrorNote
        error={
          new SkindeskError({
            code: 'REFUSED',
            message: 'Nothing was sent: 14 trades are in flight (2 more problems listed).',
            apiCode: 'ACTIVE_TRADE_LIMIT',
            issues: [
              { path: '(request)', message: '14 trades are in flight and this would start 2 more' },
              { path: 'group 1', message: 'the price must be a whole number of cents above 0' },
            ],
            outcomeUnknown: true,
          })
        }
      />,
    );
    const note = screen.getByTestId('error-note');
    expect(note.textContent).toContain('ACTIVE_TRADE_LIMIT');
    expect(note.textContent).toContain('At most 15 trades can be in flight; wait for some to finish.');
    expect(note.textContent).toContain('group 1: the price must be a whole number of cents above 0');
    expect(note.textContent).toContain('may have done it');
    // a lost answer is not called a refusal
    expect(note.textContent).toContain('No clear answer');
    expect(note.textContent).not.toContain('did not do it');
  });

  it('does not say "refused" of a marketplace that could not be reached, nor name an unknown code twice', () => {
    const { unmount } = renderWithTheme(
      <ErrorNote error={new SkindeskError({ code: 'MARKET', message: 'The marketplace could not be reached.' })} />,
    );
    expect(screen.getByTestId('error-note').textContent).not.toMatch(/refused/i);
    unmount();
    renderWithTheme(
      <ErrorNote
        error={new SkindeskError({ code: 'MARKET', message: 'The marketplace refused the request with the code ODD_ONE.', apiCode: 'ODD_ONE' })}
      />,
    );
    expect(screen.getByTestId('error-note').textContent?.match(/ODD_ONE/g)).toHaveLength(1);
  });
});

describe('SellDialog', () => {
  it('runs the pre-send checks as the draft changes and blocks sending while they find problems', async () => {
    const user = userEvent.setup();
    const bridge = installFakeBridge({
      sellItems: ({ groups, dryRun }) => {
        const price = groups[0]!.price;
        const problems = price > 100_000 ? [{ code: 'VALIDATION_ERROR', message: 'that price is above what the check allows', group: 0, entry: null, blocking: true }] : [];
        return { check: { ok: problems.length === 0, problems }, depositIds: dryRun ? [] : [41] };
      },
    });
    const row = { assetId: '55', appId: 730 as const, name: 'AK-47 | Redline (Field-Tested)', amount: 1, commodity: false, tradable: true, marketPrice: 2500, recommendedPrice: 2425, iconUrl: '', inOffer: null };
    renderWithTheme(<SellDialog appId={730} rows={[row]} onClose={() => {}} onSent={() => {}} />);
    await waitFor(() => expect((screen.getByTestId('confirm-button') as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByTestId('confirm-button').textContent).toContain('$24.25');

    const price = screen.getByTestId('sell-price');
    await user.clear(price);
    await user.type(price, '2000');
    const problems = await screen.findByTestId('send-problems');
    expect((screen.getByTestId('confirm-button') as HTMLButtonElement).disabled).toBe(true);
    // the problem in words, as a sentence, its code after; beside the button a pointer to it, not a copy
    expect(problems.querySelector('[data-code="VALIDATION_ERROR"]')?.textContent).toBe('That price is above what the check allows. VALIDATION_ERROR');
    expect(screen.getByTestId('blocked-reason').textContent).toBe('Fix the problem above to send.');
    expect(bridge.calls.filter((c) => c.name === 'sellItems').every((c) => (c.input as { dryRun?: boolean }).dryRun === true)).toBe(true);
  });
});

describe('ListDialog', () => {
  it('shows a note that does not block: an earlier listing of the item got no clear answer, so the backpack is read first', async () => {
    installFakeBridge({
      listItems: ({ dryRun }) => ({
        check: {
          ok: true,
          problems: dryRun
            ? [{ code: 'CHECKED_BEFORE_SENDING', message: 'Your earlier listing of 2 × Sticker | X at 14:05 UTC got no clear answer', group: 0, entry: 0, blocking: false }]
            : [],
        },
        listings: [],
      }),
    });
    const row = { id: 9, app_id: 730 as const, market_hash_name: 'Sticker | X', amount: 10, commodity: true, market_price: 120, trade_locked_until: null };
    renderWithTheme(<ListDialog rows={[row]} onClose={() => {}} onSent={() => {}} />);
    expect((await screen.findByTestId('send-notes')).textContent).toContain('got no clear answer');
    expect(screen.queryByTestId('send-problems')).toBeNull();
    await waitFor(() => expect((screen.getByTestId('confirm-button') as HTMLButtonElement).disabled).toBe(false));
  });
});

describe('a send whose answer is lost', () => {
  it('is checked again at once: the form shows that the backpack is read first, without an edit to trigger it', async () => {
    const user = userEvent.setup();
    let lost = false;
    installFakeBridge({
      listItems: ({ dryRun }) => {
        if (!dryRun) {
          lost = true;
          throw new SkindeskError({ code: 'MARKET', message: 'The connection dropped.', outcomeUnknown: true });
        }
        const note = { code: 'CHECKED_BEFORE_SENDING', message: 'Your earlier listing of 2 × Sticker | X got no clear answer', group: 0, entry: 0, blocking: false };
        return { check: { ok: true, problems: lost ? [note] : [] }, listings: [] };
      },
    });
    const row = { id: 9, app_id: 730 as const, market_hash_name: 'Sticker | X', amount: 10, commodity: true, market_price: 120, trade_locked_until: null };
    renderWithTheme(<ListDialog rows={[row]} onClose={() => {}} onSent={() => {}} />);
    const confirm = screen.getByTestId('confirm-button') as HTMLButtonElement;
    await waitFor(() => expect(confirm.disabled).toBe(false));
    expect(screen.queryByTestId('send-notes')).toBeNull();
    await user.click(confirm);
    expect((await screen.findByTestId('send-notes')).textContent).toContain('got no clear answer');
  });
});

describe('a price above what the app can send', () => {
  it('is refused in words as it is typed, never sent and shown as "invalid input for sellItems"', async () => {
    const user = userEvent.setup();
    installFakeBridge({ sellItems: ({ dryRun }) => ({ check: { ok: true, problems: [] }, depositIds: dryRun ? [] : [41] }) });
    const row = { assetId: '55', appId: 730 as const, name: 'AK-47 | Redline (Field-Tested)', amount: 1, commodity: false, tradable: true, marketPrice: 2500, recommendedPrice: 2425, iconUrl: '', inOffer: null };
    renderWithTheme(<SellDialog appId={730} rows={[row]} onClose={() => {}} onSent={() => {}} />);
    const price = screen.getByTestId('sell-price') as HTMLInputElement;
    await user.clear(price);
    await user.type(price, '999999999');
    // the field's words, said beside the button too (in the row they are in a tooltip, not under the field)
    await waitFor(() => expect(screen.getByTestId('blocked-reason').textContent).toBe('At most $100,000,000.00.'));
    expect((screen.getByTestId('confirm-button') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByText(/invalid input/)).toBeNull();
    // a figure of more than 10 whole digits pasted at once says so too, rather than emptying the field
    await user.clear(price);
    await user.paste('999999999999');
    expect(price.value).toBe('999999999999');
    await waitFor(() => expect(screen.getByTestId('blocked-reason').textContent).toBe('At most 10 digits before the point.'));
    // and the highest price it takes is sent
    await user.clear(price);
    await user.type(price, '100,000,000');
    await waitFor(() => expect((screen.getByTestId('confirm-button') as HTMLButtonElement).disabled).toBe(false));
  });
});

describe('DecayEditor', () => {
  it('lets the hours be cleared and typed anew: 72 → 120, never 12024', async () => {
    const user = userEvent.setup();
    let draft: DecayDraft = { start_price: 1500, end_price: 1000, total_hours: 72 };
    function Harness() {
      const [value, setValue] = useState(draft);
      return <DecayEditor value={value} onChange={(d) => setValue((draft = d))} />;
    }
    renderWithTheme(<Harness />);
    const hours = screen.getByTestId('decay-hours') as HTMLInputElement;
    await user.type(hours, '{Backspace}{Backspace}120');
    expect(hours.value).toBe('120');
    expect(completeCurve(draft)).toEqual({ start_price: 1500, end_price: 1000, total_hours: 120 });
    // emptied, the curve is incomplete (not silently 24 hours)
    await user.type(hours, '{Backspace}{Backspace}{Backspace}');
    expect(hours.value).toBe('');
    expect(completeCurve(draft)).toBeNull();
    expect(screen.getByTestId('decay-editor').textContent).toContain('the curve lasts 24 to 168 whole hours');
  });
});

describe('a price decay’s length', () => {
  it('is said in hours, as its field asks it: "72 h" beside "Over (hours) 72", never "3 d"', async () => {
    const user = userEvent.setup();
    installFakeBridge({ listItems: () => ({ check: { ok: true, problems: [] }, listings: [] }) });
    renderWithTheme(<ListDialog rows={[backpackStack(1)]} onClose={() => {}} onSent={() => {}} />);
    await user.click(screen.getByText('Decay'));
    expect((screen.getByTestId('decay-hours') as HTMLInputElement).value).toBe('72');
    const group = screen.getByTestId('list-group');
    expect(group.textContent).toContain('$1.44 → $1.08 / 72 h');
  });
});
