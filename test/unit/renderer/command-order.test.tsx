// The palette and the help list commands in the order their owners registered them; a component whose
// commands change (the kill switch toggled, a row selected) keeps its place, so the palette does not
// reshuffle between two openings.
import { cleanup, render } from '@testing-library/react';
import { useMemo } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { type Command, commandRegistry, useRegisterCommands } from '../../../src/renderer/shell/commands.ts';

function Owner({ id, label }: { id: string; label: string }) {
  const commands = useMemo<Command[]>(() => [{ id, label, group: id, run: () => undefined }], [id, label]);
  useRegisterCommands(commands);
  return null;
}

function Both({ first }: { first: string }) {
  return (
    <>
      <Owner id="kill" label={first} />
      <Owner id="book" label="Buy the selected listing" />
    </>
  );
}

afterEach(() => cleanup());

describe('command order', () => {
  it('keeps a component’s commands in place when they change, and drops them when it unmounts', () => {
    const view = render(<Both first="Engage the kill switch" />);
    expect(commandRegistry.all().map((c) => c.id)).toEqual(['kill', 'book']);
    view.rerender(<Both first="Release the kill switch" />);
    expect(commandRegistry.all().map((c) => c.label)).toEqual([
      'Release the kill switch',
      'Buy the selected listing',
    ]);
    view.unmount();
    expect(commandRegistry.all()).toEqual([]);
  });
});
