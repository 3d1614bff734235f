// The palette finds a screen by what a trader comes to it for: nothing is called "Sell" or "Withdraw",
// so those words must lead to the screens where the buttons are.
import type { SpotlightActionGroupData } from '@mantine/spotlight';
import { describe, expect, it } from 'vitest';
import { allScreens } from '../../../src/renderer/screens/index.ts';
import { matchEveryWord } from '../../../src/renderer/shell/CommandPalette.tsx';
import { navigationCommand } from '../../../src/renderer/shell/navigation.ts';

function found(query: string): string[] {
  const commands = allScreens().map(navigationCommand);
  const data: SpotlightActionGroupData[] = [
    {
      group: 'Navigation',
      actions: commands.map((c) => ({ id: c.id, label: c.label, keywords: c.keywords ?? [] })),
    },
  ];
  return matchEveryWord(query, data).flatMap((g) =>
    'actions' in g ? g.actions.map((a) => String(a.label)) : [],
  );
}

describe('the palette finds screens by their tasks', () => {
  it.each([
    ['sell', ['Go to Inventory', 'Go to Backpack']],
    ['withdraw', ['Go to Backpack', 'Go to Wallet']],
    ['deposit', ['Go to Inventory']],
    ['reprice', ['Go to Listings']],
    ['delist', ['Go to Listings']],
    ['transactions', ['Go to Ledger']],
    ['export', ['Go to Orders']],
    ['alerts', ['Go to Watchlists']],
    ['api key', ['Go to Settings']],
    ['cash out', ['Go to Wallet']],
  ])('"%s" finds %j', (query, screens) => {
    expect(found(query)).toEqual(screens);
  });

  it('still finds every screen by its name', () => {
    for (const screen of allScreens()) expect(found(screen.label)).toContain(`Go to ${screen.label}`);
  });
});
