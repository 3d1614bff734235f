/**
 * "Watch": turns the book's current filter into a watchlist in one click (or W). The app names it from
 * the filter and checks the whole book for it at once; it is edited on the watchlists screen.
 */
import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBellPlus } from '@tabler/icons-react';
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { BookFilter } from '../../../shared/query.ts';
import { call } from '../../bridge/index.ts';
import { type Command, useRegisterCommands } from '../../shell/commands.ts';
import { navigate } from '../../shell/navigation.ts';
import { cleanFilter } from '../market/filters/filter-model.ts';

/** `compact`: icon only, for a narrow toolbar (the tooltip says what it does either way). */
export function WatchFilterButton({ filter, compact = false }: { filter: BookFilter; compact?: boolean }) {
  const current = useRef(filter);
  useLayoutEffect(() => {
    current.current = filter;
  });
  const commands = useMemo<Command[]>(
    () => [{ id: 'watch.filter', label: 'Watch this filter (new watchlist)', group: 'Watchlists', hotkey: 'w', keywords: ['alert', 'snipe'], run: () => void watch(current.current) }],
    [],
  );
  useRegisterCommands(commands);
  return (
    <Tooltip label="Make this filter a watchlist: alerts for every new listing that matches (W)">
      {compact ? (
        // 30 px: as tall as the full button, so the toolbar does not grow when it goes icon-only
        <ActionIcon variant="default" size={30} onClick={() => void watch(filter)} style={{ flex: 'none' }} aria-label="Watch" data-testid="watch-filter">
          <IconBellPlus size={16} />
        </ActionIcon>
      ) : (
        <Button variant="default" leftSection={<IconBellPlus size={14} />} onClick={() => void watch(filter)} style={{ flex: 'none' }} data-testid="watch-filter">
          Watch
        </Button>
      )}
    </Tooltip>
  );
}

async function watch(filter: BookFilter): Promise<void> {
  // a game alone narrows nothing that matters: CS2 is most of the market
  const { app_id: _game, ...narrowing } = cleanFilter(filter);
  if (Object.keys(narrowing).length === 0) {
    // one key press must not start alerts on every new listing of the market (dozens a second)
    notifications.show({
      title: 'Set a filter first',
      message: `A watchlist of the whole ${filter.app_id === undefined ? 'book' : "game's book"} would alert on every new listing. Narrow the book (a name, a price, a float), then Watch — or make one on the watchlists screen with a price condition.`,
      color: 'yellow',
      onClick: () => navigate('watchlists'),
    });
    return;
  }
  try {
    const created = await call('createWatchlist', { filter });
    notifications.show({
      title: 'Watching',
      message: `“${created.name}” alerts on new matches. Open the watchlists to set its price and auto-buy.`,
      color: 'teal',
      onClick: () => navigate('watchlists'),
    });
  } catch (err) {
    notifications.show({ title: 'Not saved', message: (err as Error).message, color: 'red' });
  }
}
