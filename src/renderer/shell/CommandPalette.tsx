/** The command palette (mod+K): every screen and every command registered right now, searchable. */
import { Spotlight, type SpotlightActionData, type SpotlightActionGroupData, type SpotlightFilterFunction } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import type { Command } from './commands.ts';
import { Keys } from './HelpOverlay.tsx';

/** Every typed word must appear in the label, the group or the keywords ("sort price high" finds "Sort by price (highest first)"). */
export const matchEveryWord: SpotlightFilterFunction = (query, data) => {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return data;
  const out: SpotlightActionGroupData[] = [];
  for (const entry of data) {
    const group = 'actions' in entry ? entry : { group: '', actions: [entry as SpotlightActionData] };
    const actions = group.actions.filter((a) => {
      const text = `${String(a.label ?? '')} ${group.group} ${(a.keywords as string[] | undefined)?.join(' ') ?? ''}`.toLowerCase();
      return words.every((w) => text.includes(w));
    });
    if (actions.length > 0) out.push({ ...group, actions });
  }
  return out;
};

export function CommandPalette({ commands }: { commands: readonly Command[] }) {
  const groups = [...new Set(commands.filter((c) => !c.paletteHidden).map((c) => c.group))];
  const actions: SpotlightActionGroupData[] = groups.map((group) => ({
    group,
    actions: commands
      .filter((c) => c.group === group && !c.paletteHidden)
      .map((c) => ({
        id: c.id,
        label: c.label,
        keywords: c.keywords ?? [],
        disabled: c.enabled === false,
        description: c.enabled === false ? c.disabledReason : undefined,
        rightSection: c.hotkey ? <Keys hotkey={c.hotkey} /> : undefined,
        onClick: () => c.run(),
      })),
  }));
  return (
    <Spotlight
      actions={actions}
      filter={matchEveryWord}
      shortcut={null}
      nothingFound="No such command"
      highlightQuery
      limit={50}
      scrollable
      maxHeight={420}
      // Open at once, the field focused as it mounts: an opening animation waits for frames and the
      // focus trap for a timer after them, and on a loaded machine the keys typed meanwhile (the "so" of
      // "sort…" right after Ctrl+K) went to the screen behind and were lost
      transitionProps={{ duration: 0 }}
      searchProps={{ leftSection: <IconSearch size={16} />, placeholder: 'Go to a screen or run a command…', autoFocus: true }}
    />
  );
}
