import { SegmentedControl } from '@mantine/core';
import { APP_IDS, type AppId } from '../../../../shared/api/index.ts';
import { gameShort } from './format.ts';

/** One game (the Steam inventory is read per game). */
export function GamePicker({ value, onChange }: { value: AppId; onChange: (appId: AppId) => void }) {
  return (
    <SegmentedControl
      aria-label="Game"
      value={String(value)}
      onChange={(v) => onChange(Number(v) as AppId)}
      data={APP_IDS.map((id) => ({ value: String(id), label: gameShort(id) }))}
    />
  );
}

/** A game or all of them (filters). */
export function GameFilter({ value, onChange }: { value: AppId | null; onChange: (appId: AppId | null) => void }) {
  return (
    <SegmentedControl
      aria-label="Game filter"
      value={value === null ? 'all' : String(value)}
      onChange={(v) => onChange(v === 'all' ? null : (Number(v) as AppId))}
      data={[{ value: 'all', label: 'All' }, ...APP_IDS.map((id) => ({ value: String(id), label: gameShort(id) }))]}
    />
  );
}
