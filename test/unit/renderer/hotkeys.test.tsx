// Which keys reach the commands: typed text stays in its field, a control keeps the keys it uses itself
// (← and → in a radio group), everything else — "/" and ↓ after clicking a game switch included — is a hotkey;
// Alt+letter and Alt+digit match the physical key, as macOS types a character with Option held; a
// symbol ("/", "?") is matched Shift or not, as other layouts type it; Ctrl/⌘ chords reach the commands
// from a field, and Alt chords too except on macOS (Option types there, and Ctrl edits the field: only ⌘
// chords leave it); an open menu keeps the keys as a dialog does.
import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Command } from '../../../src/renderer/shell/commands.ts';
import { useCommandHotkeys } from '../../../src/renderer/shell/hotkeys.ts';

function Keys({ commands }: { commands: Command[] }) {
  useCommandHotkeys(commands);
  return (
    <div>
      <input aria-label="name" type="text" />
      <input aria-label="game" type="radio" name="game" />
      <input aria-label="stattrak" type="checkbox" />
    </div>
  );
}

function setUp() {
  const ran = { slash: vi.fn(), down: vi.fn(), right: vi.fn(), sales: vi.fn(), book: vi.fn() };
  const commands: Command[] = [
    { id: 'search', label: 'Search', group: 'T', hotkey: '/', run: ran.slash },
    { id: 'down', label: 'Down', group: 'T', hotkey: 'arrowdown', run: ran.down },
    { id: 'right', label: 'Right', group: 'T', hotkey: 'arrowright', run: ran.right },
    { id: 'sales', label: 'Sales', group: 'T', hotkey: 'alt+s', run: ran.sales },
    { id: 'book', label: 'Book', group: 'T', hotkey: 'alt+0', run: ran.book },
  ];
  const view = render(<Keys commands={commands} />);
  const field = (label: string) => view.getByLabelText(label);
  return { ran, field };
}

describe('command hotkeys', () => {
  it('leaves typed text to a text field', () => {
    const { ran, field } = setUp();
    fireEvent.keyDown(field('name'), { key: '/', code: 'Slash' });
    fireEvent.keyDown(field('name'), { key: 'ArrowDown', code: 'ArrowDown' });
    expect(ran.slash).not.toHaveBeenCalled();
    expect(ran.down).not.toHaveBeenCalled();
  });

  it('runs "/" and the row keys (↑/↓) from a focused radio or checkbox, and leaves ← and → to the switch', () => {
    const { ran, field } = setUp();
    fireEvent.keyDown(field('game'), { key: '/', code: 'Slash' });
    fireEvent.keyDown(field('stattrak'), { key: '/', code: 'Slash' });
    expect(ran.slash).toHaveBeenCalledTimes(2);
    // the game switch's choices lie in a row: ↓ after a click on it is the screen's, not a change of game
    const down = new KeyboardEvent('keydown', { key: 'ArrowDown', code: 'ArrowDown', bubbles: true, cancelable: true });
    field('game').dispatchEvent(down);
    expect(ran.down).toHaveBeenCalledTimes(1);
    expect(down.defaultPrevented).toBe(true);
    fireEvent.keyDown(field('game'), { key: 'ArrowRight', code: 'ArrowRight' });
    expect(ran.right).not.toHaveBeenCalled();
  });

  it('matches Alt+letter and Alt+digit by the physical key (macOS: Option+S types "ß", Option+0 "º")', () => {
    const { ran } = setUp();
    const sales = new KeyboardEvent('keydown', {
      key: 'ß',
      code: 'KeyS',
      altKey: true,
      bubbles: true,
      cancelable: true,
    });
    document.body.dispatchEvent(sales);
    expect(ran.sales).toHaveBeenCalledTimes(1);
    expect(sales.defaultPrevented).toBe(true);
    document.body.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'º', code: 'Digit0', altKey: true, bubbles: true }),
    );
    expect(ran.book).toHaveBeenCalledTimes(1);
    // without Alt, the typed character decides: "ß" is not "s"
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ß', code: 'KeyS', bubbles: true }));
    expect(ran.sales).toHaveBeenCalledTimes(1);
  });
});

/** The renderer as on macOS (navigator.platform "MacIntel") for the length of `run`. */
function onMac(run: () => void) {
  const platform = vi.spyOn(navigator, 'platform', 'get').mockReturnValue('MacIntel');
  try {
    run();
  } finally {
    platform.mockRestore();
  }
}

describe('Alt chords from a text field', () => {
  it('Windows/Linux: Alt+S and Alt+digit open their screens from a field (Alt types nothing there)', () => {
    const { ran, field } = setUp();
    const sales = new KeyboardEvent('keydown', { key: 's', code: 'KeyS', altKey: true, bubbles: true, cancelable: true });
    field('name').dispatchEvent(sales);
    expect(ran.sales).toHaveBeenCalledTimes(1);
    expect(sales.defaultPrevented).toBe(true);
    fireEvent.keyDown(field('name'), { key: '0', code: 'Digit0', altKey: true });
    expect(ran.book).toHaveBeenCalledTimes(1);
    // AltGr (Ctrl+Alt) types "@" or "{", and Alt+numpad digits type a character by its code (Alt+0169): the field's
    fireEvent.keyDown(field('name'), { key: 's', code: 'KeyS', altKey: true, ctrlKey: true });
    fireEvent.keyDown(field('name'), { key: '0', code: 'Numpad0', altKey: true });
    expect(ran.sales).toHaveBeenCalledTimes(1);
    expect(ran.book).toHaveBeenCalledTimes(1);
  });

  it('macOS: Option+S types "ß" in a field and opens nothing; away from a field it opens the screen', () => {
    onMac(() => {
      const { ran, field } = setUp();
      const typed = new KeyboardEvent('keydown', { key: 'ß', code: 'KeyS', altKey: true, bubbles: true, cancelable: true });
      field('name').dispatchEvent(typed);
      fireEvent.keyDown(field('name'), { key: 'º', code: 'Digit0', altKey: true });
      expect(ran.sales).not.toHaveBeenCalled();
      expect(ran.book).not.toHaveBeenCalled();
      expect(typed.defaultPrevented).toBe(false);
      fireEvent.keyDown(document.body, { key: 'ß', code: 'KeyS', altKey: true });
      expect(ran.sales).toHaveBeenCalledTimes(1);
    });
  });
});

describe('command hotkeys from a field, over a menu, on other layouts', () => {
  function chords() {
    const ran = { kill: vi.fn(), palette: vi.fn(), slash: vi.fn(), help: vi.fn(), close: vi.fn(), buy: vi.fn() };
    const commands: Command[] = [
      { id: 'kill', label: 'Kill switch', group: 'T', hotkey: 'mod+shift+k', inDialogs: true, run: ran.kill },
      { id: 'palette', label: 'Palette', group: 'T', hotkey: 'mod+k', run: ran.palette },
      { id: 'search', label: 'Search', group: 'T', hotkey: '/', run: ran.slash },
      { id: 'help', label: 'Help', group: 'T', hotkey: 'shift+?', run: ran.help },
      { id: 'close', label: 'Close the detail', group: 'T', hotkey: 'escape', run: ran.close },
      { id: 'buy', label: 'Buy', group: 'T', hotkey: 'b', run: ran.buy },
    ];
    const view = render(<Keys commands={commands} />);
    return { ran, field: view.getByLabelText('name') };
  }

  it('runs Ctrl/⌘ chords from a text field: the kill switch must stop auto-buying wherever the focus is', () => {
    const { ran, field } = chords();
    const kill = new KeyboardEvent('keydown', { key: 'K', code: 'KeyK', ctrlKey: true, shiftKey: true, bubbles: true, cancelable: true });
    field.dispatchEvent(kill);
    expect(ran.kill).toHaveBeenCalledTimes(1);
    expect(kill.defaultPrevented).toBe(true);
    fireEvent.keyDown(field, { key: 'k', code: 'KeyK', metaKey: true });
    expect(ran.palette).toHaveBeenCalledTimes(1);
    // typed text, and AltGr (Ctrl+Alt on Windows: "@", "{"), stay the field's
    fireEvent.keyDown(field, { key: 'b', code: 'KeyB' });
    fireEvent.keyDown(field, { key: 'k', code: 'KeyK', ctrlKey: true, altKey: true });
    expect(ran.buy).not.toHaveBeenCalled();
    expect(ran.palette).toHaveBeenCalledTimes(1);
  });

  it('macOS: Ctrl+K in a field is the field\'s (delete to the end of the line); ⌘+K opens the palette', () => {
    onMac(() => {
      const { ran, field } = chords();
      const kill = new KeyboardEvent('keydown', { key: 'k', code: 'KeyK', ctrlKey: true, bubbles: true, cancelable: true });
      field.dispatchEvent(kill);
      fireEvent.keyDown(field, { key: 'K', code: 'KeyK', ctrlKey: true, shiftKey: true });
      expect(ran.palette).not.toHaveBeenCalled();
      expect(ran.kill).not.toHaveBeenCalled();
      expect(kill.defaultPrevented).toBe(false);
      fireEvent.keyDown(field, { key: 'k', code: 'KeyK', metaKey: true });
      fireEvent.keyDown(field, { key: 'K', code: 'KeyK', metaKey: true, shiftKey: true });
      expect(ran.palette).toHaveBeenCalledTimes(1);
      expect(ran.kill).toHaveBeenCalledTimes(1);
      // away from a field, Ctrl+K still opens it, as "mod" matches Ctrl too
      fireEvent.keyDown(document.body, { key: 'k', code: 'KeyK', ctrlKey: true });
      expect(ran.palette).toHaveBeenCalledTimes(2);
    });
  });

  it('leaves the keys to an open menu: Escape closes the menu only, B does not buy behind it', () => {
    const { ran } = chords();
    const menu = document.createElement('div');
    menu.setAttribute('role', 'menu');
    document.body.appendChild(menu);
    const rects = vi.spyOn(menu, 'getClientRects').mockReturnValue([{}] as unknown as DOMRectList);
    try {
      fireEvent.keyDown(menu, { key: 'Escape', code: 'Escape' });
      fireEvent.keyDown(menu, { key: 'b', code: 'KeyB' });
      expect(ran.close).not.toHaveBeenCalled();
      expect(ran.buy).not.toHaveBeenCalled();
      // the kill switch works over anything
      fireEvent.keyDown(menu, { key: 'K', code: 'KeyK', ctrlKey: true, shiftKey: true });
      expect(ran.kill).toHaveBeenCalledTimes(1);
    } finally {
      rects.mockRestore();
      menu.remove();
    }
    fireEvent.keyDown(document.body, { key: 'Escape', code: 'Escape' });
    expect(ran.close).toHaveBeenCalledTimes(1);
  });

  it('matches "/" and "?" by the character typed, Shift or not (German: Shift+7 is "/", French: Shift+: is "/")', () => {
    const { ran } = chords();
    fireEvent.keyDown(document.body, { key: '/', code: 'Digit7', shiftKey: true });
    fireEvent.keyDown(document.body, { key: '/', code: 'Period', shiftKey: true });
    fireEvent.keyDown(document.body, { key: '/', code: 'Slash' });
    expect(ran.slash).toHaveBeenCalledTimes(3);
    fireEvent.keyDown(document.body, { key: '?', code: 'Slash', shiftKey: true });
    expect(ran.help).toHaveBeenCalledTimes(1);
    // Shift still counts for letters: Shift+B is not B
    fireEvent.keyDown(document.body, { key: 'B', code: 'KeyB', shiftKey: true });
    expect(ran.buy).not.toHaveBeenCalled();
  });
});
