// Pure pieces of the market screens: compressed scrolling, the filter model and its wear presets, the
// share-link reader, the palette's word filter and hotkey labels, the marks of an item name, waits.
import { describe, expect, it } from 'vitest';
import { rowTop, scrollGeometry, toReal, toVirtual } from '../../../src/renderer/screens/market/book/scroll-geometry.ts';
import { activeWearCodes, cleanFilter, describeFilter, rangeProblems, sayRangeProblem, togglePhase, toggleWear, wearRange, withOutsideChanges } from '../../../src/renderer/screens/market/filters/filter-model.ts';
import { parseShareLink } from '../../../src/renderer/screens/market/buying/share-link.ts';
import { matchEveryWord } from '../../../src/renderer/shell/CommandPalette.tsx';
import { hotkeyLabel } from '../../../src/renderer/shell/commands.ts';
import { columnsFor, fitColumns } from '../../../src/renderer/screens/market/book/columns.tsx';
import { DETAIL_PX, FILTER_PANEL_PX, panelsTakeTurns } from '../../../src/renderer/screens/market/book/panel-room.ts';
import { toolbarFitFor } from '../../../src/renderer/screens/market/book/toolbar-fit.ts';
import { watchlistsGiveWay } from '../../../src/renderer/screens/watchlists/feed-room.ts';
import { bookFilter, bookQuery } from '../../../src/shared/query.ts';
import { render } from '@testing-library/react';
import { ItemName, bareName } from '../../../src/renderer/screens/market/parts/item-name.tsx';
import { formatAgainst, formatWait } from '../../../src/renderer/format/numbers.ts';
import type { BookRow } from '../../../src/shared/ipc/index.ts';
import { bookRow } from './fake-app.ts';
import { gameFields } from '../../../src/renderer/screens/market/detail/DetailPanel.tsx';
import { NULL_LISTING_DETAIL, type FullListing } from '../../../src/shared/api/index.ts';

describe('scroll geometry', () => {
  it('needs no compression for a million rows of 28 px', () => {
    expect(scrollGeometry(1_000_000, 28, 700)).toEqual({ spacerPx: 28_000_000, scale: 1 });
  });

  it('compresses beyond the cap so that the whole scroll travel spans every row', () => {
    const rows = 3_000_000;
    const viewport = 700;
    const g = scrollGeometry(rows, 28, viewport);
    expect(g.spacerPx).toBe(30_000_000);
    expect(g.scale).toBeGreaterThan(2.7);
    const realMax = g.spacerPx - viewport;
    // at the bottom of the scrollbar, the last row ends exactly at the bottom of the viewport
    expect(toVirtual(realMax, g)).toBeCloseTo(rows * 28 - viewport, 3);
    const lastTop = rowTop((rows - 1) * 28, realMax, g);
    expect(lastTop + 28).toBeCloseTo(realMax + viewport, 3);
    // and a row scrolled to comes back on screen: real and virtual offsets round-trip
    expect(toVirtual(toReal(1_234_567 * 28, g), g)).toBeCloseTo(1_234_567 * 28, 3);
  });
});

describe('book toolbar fit', () => {
  it('shrinks its buttons, then drops the count, as the panels narrow it; unmeasured is full', () => {
    expect([0, 900, 600, 599, 470, 390, 389, 314].map((w) => toolbarFitFor(w))).toEqual([
      'full',
      'full',
      'full',
      'compact',
      'compact',
      'compact',
      'tight',
      'tight',
    ]);
  });

  it('with filters active, steps down sooner: their count and clear button keep room of their own', () => {
    const steps: [width: number, fit: ReturnType<typeof toolbarFitFor>][] = [
      [0, 'full'],
      [694, 'full'],
      [693, 'compact'],
      [484, 'compact'],
      [483, 'tight'],
    ];
    for (const [width, fit] of steps) expect(toolbarFitFor(width, true), `${width} px`).toBe(fit);
  });
});

describe('panels beside the book', () => {
  it('take turns only in a book too narrow for both beside a usable grid; unmeasured is never narrow', () => {
    expect(panelsTakeTurns(0)).toBe(false);
    // a 1280 px window leaves the book 1222 px: filters, grid and detail side by side
    expect(panelsTakeTurns(1222)).toBe(false);
    expect(panelsTakeTurns(FILTER_PANEL_PX + DETAIL_PX + 520)).toBe(false);
    expect(panelsTakeTurns(FILTER_PANEL_PX + DETAIL_PX + 519)).toBe(true);
    // the smallest window (960 px)
    expect(panelsTakeTurns(902)).toBe(true);
  });
});

describe('the alert feed beside the detail', () => {
  it('has the watchlists give way only while the detail is open in a screen too narrow for all three', () => {
    expect(watchlistsGiveWay(0, true)).toBe(false);
    // a 1280 px window leaves the screen 1222 px: watchlists, feed and detail side by side
    expect(watchlistsGiveWay(1222, true)).toBe(false);
    // the smallest window (960 px): the item column was left a few pixels
    expect(watchlistsGiveWay(902, true)).toBe(true);
    expect(watchlistsGiveWay(902, false)).toBe(false);
  });
});

describe('filter model', () => {
  it('drops empty parts, so the strict query schema accepts it and equal filters compare equal', () => {
    const clean = cleanFilter({
      name: '  ',
      price: { min: undefined, max: 500 },
      float: {},
      paint_seeds: [661, 661],
      stickers: { all: [{ name: ' Katowice ' }, {}] },
      keychains: [{}],
      fields: { cs_weapon: '', dota_hero: 'Axe' },
    });
    expect(clean).toEqual({ price: { max: 500 }, paint_seeds: [661], stickers: { all: [{ name: 'Katowice' }] }, fields: { dota_hero: 'Axe' } });
    expect(bookQuery.safeParse({ filter: clean }).success).toBe(true);
  });

  it('maps wear presets to float ranges and back, with shift-click extending', () => {
    expect(wearRange(['FN'])).toEqual({ min: 0, max: 0.07 });
    const fnToFt = toggleWear(toggleWear(undefined, 'FN', false), 'FT', true);
    expect(fnToFt).toEqual({ min: 0, max: 0.38 });
    expect(activeWearCodes(fnToFt)).toEqual(['FN', 'MW', 'FT']);
    expect(toggleWear(wearRange(['MW']), 'MW', false)).toBeUndefined();
    expect(activeWearCodes({ min: 0.1, max: 0.5 })).toEqual(['FT', 'WW']);
  });

  it('toggles Doppler phases in one canonical order, and none left means no phase filter', () => {
    const p2 = togglePhase(undefined, 'Phase 2');
    expect(p2).toEqual(['Phase 2']);
    const withRuby = togglePhase(togglePhase(p2, 'Ruby'), 'Phase 1');
    expect(withRuby).toEqual(['Phase 1', 'Phase 2', 'Ruby']);
    expect(togglePhase(['Ruby'], 'Ruby')).toBeUndefined();
    expect(cleanFilter({ phases: ['Ruby', 'Phase 4', 'Ruby'] })).toEqual({ phases: ['Phase 4', 'Ruby'] });
    expect(cleanFilter({ phases: [] })).toEqual({});
    expect(describeFilter({ phases: ['Phase 2', 'Black Pearl'] })).toEqual(['P2/Black Pearl']);
  });

  it('says a low float bound in plain decimals, as it was typed (0.0000005, not 5e-7)', () => {
    expect(describeFilter({ float: { max: 0.0000005 } })).toEqual(['float ≤ 0.0000005']);
    expect(describeFilter({ float: { min: 0.00000049, max: 0.0000005 } })).toEqual(['float 0.00000049–0.0000005']);
  });

  it('takes from an outside change only what it changed, keeping a panel edit not sent yet', () => {
    const agreed = { name: 'karambit', price: { max: 5_000 } };
    const draft = { ...agreed, phases: ['Phase 2' as const] }; // clicked in the panel, not sent yet
    // the name box's update lands: the phase stays
    expect(withOutsideChanges(draft, agreed, { name: 'karambit | doppler', price: { max: 5_000 } })).toEqual({
      name: 'karambit | doppler',
      price: { max: 5_000 },
      phases: ['Phase 2'],
    });
    // a reset clears what was agreed; a preset replaces it
    expect(withOutsideChanges(draft, agreed, {})).toEqual({ phases: ['Phase 2'] });
    expect(withOutsideChanges(draft, agreed, { app_id: 730, price: { min: 100 } })).toEqual({ app_id: 730, price: { min: 100 }, phases: ['Phase 2'] });
  });

  it('keeps a sticker condition\'s count of matches, and says it as a craft', () => {
    expect(cleanFilter({ stickers: { all: [{ name: ' Titan ', min_matches: 4 }, { name: 'Crown', min_matches: 1 }] } })).toEqual({
      stickers: { all: [{ name: 'Titan', min_matches: 4 }, { name: 'Crown' }] },
    });
    expect(describeFilter({ stickers: { all: [{ name: 'Titan | Katowice 2014', min_matches: 4 }] } })).toEqual(['4× Titan | Katowice 2014']);
  });

  it('says what is wrong with a range instead of sending it', () => {
    const problems = rangeProblems({ price: { min: 500, max: 100 }, float: { min: 0.2, max: 0.1 } });
    // each says its field (the panel puts it under that field's inputs), and in words that name it
    expect(problems).toEqual([
      { field: 'Price', text: 'min is above max' },
      { field: 'Float', text: 'min is above max' },
    ]);
    expect(problems.map(sayRangeProblem)).toEqual(['Price: min is above max', 'Float: min is above max']);
  });

  it('says what is out of range instead of sending a filter the app refuses', () => {
    const filter = { float: { max: 5 }, fade: { min: 150 }, blue: { max: 100.5 }, stickers: { max_count: 9 }, paint_index: 2 ** 60, keychains: [{ pattern: 1e20 }] };
    expect(rangeProblems(filter).map(sayRangeProblem)).toEqual([
      'Float: between 0 and 1',
      'Fade: between 0 and 100 %',
      'Blue: between 0 and 100 %',
      'Sticker count: between 0 and 6',
      'Paint index: too large',
      'Keychain pattern: too large',
    ]);
    expect(bookFilter.safeParse({ keychains: [{ pattern: 1e20 }] }).success).toBe(false);
    // whatever passes these checks is a filter the app's schema takes
    expect(bookFilter.safeParse(filter).success).toBe(false);
    const fine = { float: { min: 0, max: 1 }, fade: { max: 100 }, stickers: { min_count: 0, max_count: 6 }, paint_index: 618 };
    expect(rangeProblems(fine)).toEqual([]);
    expect(bookFilter.safeParse(fine).success).toBe(true);
  });

  it('summarises every active filter in a few words', () => {
    expect(
      describeFilter({
        name: 'AK-47',
        price: { max: 10_000 },
        float: { min: 0, max: 0.15 },
        stickers: { all: [{ name: 'Katowice 2014', slot: 0, max_wear: 0.1 }], min_count: 3 },
        stattrak: true,
      }),
    ).toEqual(['“AK-47”', 'price ≤ $100.00', 'FN+MW', 'StatTrak', 'Katowice 2014 slot 1 ≤ 10% scrape', '≥ 3 stickers']);
  });

  it('shows per-game columns: CS2 traders get float, seed, stickers, fade and blue; others the amount', () => {
    expect(columnsFor(730, false).map((c) => c.key)).toEqual(['name', 'price', 'market', 'float', 'seed', 'stickers', 'fade', 'blue', 'listed']);
    expect(columnsFor(570, false).map((c) => c.key)).toEqual(['name', 'price', 'market', 'amount', 'listed']);
    expect(columnsFor(570, true).map((c) => c.key)).toEqual(['name', 'price', 'amount', 'listed']);
    expect(columnsFor(undefined, false)[0]?.key).toBe('game');
  });

  it('tags each row with its game as the rest of the app names it ("Dota 2", not "DOTA"), in the same 46 px', () => {
    const game = columnsFor(undefined, false)[0];
    if (game?.key !== 'game') throw new Error('the all-games book has no game column');
    const tags = ([730, 252490, 570, 440] as const).map((app) => render(<>{game.render(bookRow(1, { app_id: app }), 0)}</>).container.textContent);
    expect(tags).toEqual(['CS2', 'Rust', 'Dota 2', 'TF2']);
    expect(game.width).toBe(46);
  });

  it('a grid too narrow for every column gives up blue, fade, vs market, game... never the age', () => {
    const keys = (app: 730 | undefined, width: number) => fitColumns(columnsFor(app, false), width).map((c) => c.key);
    // CS2 needs 724 px for all (the name at its 140 px least, the scrollbar), 666 without blue
    expect(keys(730, 0)).toHaveLength(9);
    expect(keys(730, 724)).toHaveLength(9);
    expect(keys(730, 723)).toEqual(['name', 'price', 'market', 'float', 'seed', 'stickers', 'fade', 'listed']);
    expect(keys(730, 652)).toEqual(['name', 'price', 'market', 'float', 'seed', 'stickers', 'listed']);
    // all games together, in a 960 px window beside the filters: vs market goes, then the game tag
    expect(keys(undefined, 702)).toHaveLength(9);
    expect(keys(undefined, 652)).toEqual(['game', 'name', 'price', 'float', 'seed', 'stickers', 'amount', 'listed']);
    expect(keys(undefined, 620)).toEqual(['name', 'price', 'float', 'seed', 'stickers', 'amount', 'listed']);
    expect(keys(undefined, 100).at(-1)).toBe('listed');
  });

  it('sorted by fade or blue, shows that column where the game or the detail leaves it out, and never drops it', () => {
    expect(columnsFor(undefined, false, 'fade').map((c) => c.key)).toEqual(['game', 'name', 'price', 'market', 'float', 'seed', 'stickers', 'amount', 'fade', 'listed']);
    expect(columnsFor(730, true, 'blue').map((c) => c.key)).toEqual(['name', 'price', 'float', 'seed', 'stickers', 'blue', 'listed']);
    // already there, or a game without either: as before
    expect(columnsFor(730, false, 'fade').map((c) => c.key)).toEqual(['name', 'price', 'market', 'float', 'seed', 'stickers', 'fade', 'blue', 'listed']);
    expect(columnsFor(570, false, 'fade').map((c) => c.key)).toEqual(['name', 'price', 'market', 'amount', 'listed']);
    // a narrow grid sorted by blue gives up fade and the others first, never blue
    expect(fitColumns(columnsFor(730, false, 'blue'), 600, 'blue').map((c) => c.key)).toEqual(['name', 'price', 'float', 'stickers', 'blue', 'listed']);
  });
});

describe('share links of private listings', () => {
  it('reads the listing id and the token from a link, a pair, or a bare token', () => {
    expect(parseShareLink('https://market.example/listings/123?private_token=pt_abcdef')).toEqual({ listingId: 123, token: 'pt_abcdef', problem: null });
    expect(parseShareLink('https://market.example/share?listing_id=77&token=abc_DEF-9')).toEqual({ listingId: 77, token: 'abc_DEF-9', problem: null });
    expect(parseShareLink('  88 pt_0011 ')).toEqual({ listingId: 88, token: 'pt_0011', problem: null });
    expect(parseShareLink('pt_0123456789abcdef')).toMatchObject({ listingId: null, token: 'pt_0123456789abcdef', problem: 'The link has no listing id: type it in.' });
  });

  it('refuses what is not a token', () => {
    expect(parseShareLink('https://market.example/listings/5')).toMatchObject({ token: null, problem: 'No share token found in what was pasted.' });
    expect(parseShareLink('<script>')).toMatchObject({ token: null });
    expect(parseShareLink('')).toMatchObject({ token: null, problem: 'Paste a share link or a token.' });
  });
});

describe('command palette and hotkeys', () => {
  it('matches every typed word anywhere in the label, group or keywords', () => {
    const data = [
      { group: 'Sort', actions: [{ id: 'a', label: 'Sort by price (highest first)' }, { id: 'b', label: 'Sort by float (lowest first)' }] },
      { group: 'Filters', actions: [{ id: 'c', label: 'Float: Factory New only', keywords: ['FN'] }] },
    ];
    expect(matchEveryWord('sort price high', data)).toEqual([{ group: 'Sort', actions: [data[0]!.actions[0]] }]);
    expect(matchEveryWord('fn', data)).toEqual([{ group: 'Filters', actions: [data[1]!.actions[0]] }]);
    expect(matchEveryWord('', data)).toBe(data);
  });

  it('labels keys the way they are printed on the keyboard', () => {
    expect(hotkeyLabel('shift+?')).toEqual(['?']);
    expect(hotkeyLabel('arrowdown')).toEqual(['↓']);
    expect(hotkeyLabel('b')).toEqual(['B']);
    expect(hotkeyLabel('mod+k')).toEqual(['Ctrl', 'K']);
  });
});

describe('item names in the grids', () => {
  it('shows StatTrak™ and Souvenir as marks read from the name, knives included, details or not', () => {
    const shown = (name: string) => render(<ItemName name={name} paintIndex={null} />).container.textContent;
    expect(shown('StatTrak™ AK-47 | Redline (Field-Tested)')).toBe('STAK-47 | Redline (Field-Tested)');
    expect(shown('★ StatTrak™ Karambit | Fade (Factory New)')).toBe('ST★ Karambit | Fade (Factory New)');
    expect(shown('Souvenir AWP | Dragon Lore (Field-Tested)')).toBe('SVAWP | Dragon Lore (Field-Tested)');
    expect(shown('★ Karambit | Doppler (Factory New)')).toBe('★ Karambit | Doppler (Factory New)');
    expect(bareName('Sticker | StatTrak™ fan club')).toBe('Sticker | StatTrak™ fan club'); // only a leading mark
  });
});

describe('waits on the market', () => {
  const min = 60_000;
  const hour = 60 * min;
  it('shows two units while the first is one digit, one from ten up', () => {
    expect(formatWait(112 * min + 40_000)).toBe('1h 52m');
    expect(formatWait(3 * 24 * hour + 4 * hour + 59 * min)).toBe('3d 4h');
    expect(formatWait(4 * min + 5_000)).toBe('4m 5s');
    expect(formatWait(14 * hour + 30 * min)).toBe('14h');
    expect(formatWait(12 * 24 * hour + 5 * hour)).toBe('12d');
  });
  it('drops a zero second unit, and counts a negative or sub-minute wait in seconds', () => {
    expect(formatWait(2 * hour + 20_000)).toBe('2h');
    expect(formatWait(45_900)).toBe('45s');
    expect(formatWait(-5_000)).toBe('0s');
  });
});

describe('prices against the market', () => {
  it('shows one decimal within ten percent, whole percents beyond, signed', () => {
    expect(formatAgainst(8_800, 10_000)).toBe('−12%');
    expect(formatAgainst(10_340, 10_000)).toBe('+3.4%');
    expect(formatAgainst(9_950, 10_000)).toBe('−0.5%');
    expect(formatAgainst(25_000, 10_000)).toBe('+150%');
    expect(formatAgainst(10_001, 10_000)).toBe('0%');
  });
  it('says nothing without a market price', () => {
    expect(formatAgainst(500, null)).toBeNull();
    expect(formatAgainst(500, 0)).toBeNull();
  });
  it('marks a deal in the grid, and gives a Doppler with a known phase no figure (its price follows the phase)', () => {
    const cell = columnsFor(730, false).find((c) => c.key === 'market');
    if (!cell) throw new Error('no market column');
    const shown = (row: Partial<BookRow>) => render(<>{cell.render(bookRow(1, { price: 8_500, market_price: 10_000, paint_index: 282, ...row }), 0)}</>).container;
    const deal = shown({}).querySelector('span');
    expect(deal?.textContent).toBe('−15%');
    expect(deal?.style.fontWeight).toBe('700');
    expect(shown({ price: 10_500 }).textContent).toBe('+5%');
    expect(shown({ market_price: null }).textContent).toBe('');
    expect(shown({ paint_index: 418 }).textContent).toBe('–'); // Doppler Phase 1
  });
});

describe('the detail\'s fields', () => {
  it('says a trade lock in the app\'s date format (local time), not the system locale\'s', () => {
    const lockedUntil = new Date(2026, 2, 4, 14, 5, 9);
    const listing = {
      ...NULL_LISTING_DETAIL,
      id: 7,
      app_id: 730,
      market_hash_name: 'AK-47 | Redline (Field-Tested)',
      price: 1_000,
      amount: 1,
      commodity: false,
      created_at: '2026-03-01T00:00:00.000Z',
      trade_locked_until: lockedUntil.toISOString(),
      cs_paint_wear: 0.25,
    } as unknown as FullListing;
    expect(gameFields(listing)).toEqual([
      ['Trade lock until', '2026-03-04 14:05'],
      ['Float', '0.2500000000'],
    ]);
  });

  it('leaves out an empty list, as it leaves out an empty field (no "Spells" with nothing beside it)', () => {
    const listing = {
      ...NULL_LISTING_DETAIL,
      id: 8,
      app_id: 440,
      market_hash_name: 'Strange Sniper Rifle',
      price: 76,
      amount: 1,
      commodity: false,
      created_at: '2026-03-01T00:00:00.000Z',
      tf2_classes: ['Sniper'],
      tf2_spells: [],
    } as unknown as FullListing;
    expect(gameFields(listing)).toEqual([['Classes', 'Sniper']]);
  });
});
