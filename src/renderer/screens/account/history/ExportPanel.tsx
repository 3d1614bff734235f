/**
 * Export of the whole order history (CSV or JSON, by side, game and dates) through the save dialog,
 * streamed to disk by the app; progress arrives as pushes while the call runs.
 */
import { Badge, Button, Group, Paper, Progress, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconFileExport } from '@tabler/icons-react';
import { useState } from 'react';
import type { AppId } from '../../../../shared/api/index.ts';
import type { ExportProgress } from '../../../../shared/ipc/index.ts';
import { call, usePush } from '../../../bridge/index.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { plural } from '../ui/format.ts';
import { GameFilter } from '../ui/GamePicker.tsx';
import { useAction } from '../ui/useAction.ts';

const UTC_DAYS = 'Whole days in UTC, as the marketplace counts them; the times in the table are your local time';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KB`;

export function ExportPanel() {
  const [format, setFormat] = useState<'csv' | 'json'>('csv');
  const [side, setSide] = useState<'all' | 'bought' | 'sold'>('all');
  const [appId, setAppId] = useState<AppId | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const exporting = useAction(() => {
    setProgress(null);
    return call('exportOrders', { format, side: side === 'all' ? null : side, appId, from: from || null, to: to || null });
  });
  usePush('exportProgress', (p) => {
    if (exporting.running || p.state !== 'running') setProgress(p);
  });
  const badRange = from !== '' && to !== '' && from > to;
  const result = exporting.result;

  return (
    <Paper withBorder p="xs" bg="dark.7" data-testid="export-panel">
      <Stack gap={6}>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Stack gap={2}>
            <Text size="xs" c="dimmed">
              Format
            </Text>
            <SegmentedControl value={format} onChange={(v) => setFormat(v as 'csv' | 'json')} data={[{ value: 'csv', label: 'CSV' }, { value: 'json', label: 'JSON' }]} data-testid="export-format" />
          </Stack>
          <Stack gap={2}>
            <Text size="xs" c="dimmed">
              Side
            </Text>
            <SegmentedControl value={side} onChange={(v) => setSide(v as typeof side)} data={[{ value: 'all', label: 'Both' }, { value: 'bought', label: 'Bought' }, { value: 'sold', label: 'Sold' }]} data-testid="export-side" />
          </Stack>
          <Stack gap={2}>
            <Text size="xs" c="dimmed">
              Game
            </Text>
            <GameFilter value={appId} onChange={setAppId} />
          </Stack>
          {/* the marketplace takes whole days in UTC: the table above shows local times, so a day
              picked here may start and end at another hour of the trader's clock, and must say so */}
          <TextInput type="date" label="From (UTC day)" title={UTC_DAYS} value={from} onChange={(e) => setFrom(e.currentTarget.value)} w={150} data-testid="export-from" />
          <TextInput type="date" label="To (UTC day, inclusive)" title={UTC_DAYS} value={to} onChange={(e) => setTo(e.currentTarget.value)} w={170} error={badRange ? 'before From' : undefined} data-testid="export-to" />
          <Button leftSection={<IconFileExport size={14} />} onClick={() => void exporting.run()} loading={exporting.running} disabled={badRange} data-testid="export-start">
            Export…
          </Button>
        </Group>
        {exporting.running || progress?.state === 'running' ? (
          <Group gap="sm" wrap="nowrap" data-testid="export-progress">
            <Progress
              style={{ flex: 1 }}
              size="sm"
              animated
              value={progress?.totalBytes ? (progress.bytes / progress.totalBytes) * 100 : 100}
              striped={!progress?.totalBytes}
            />
            <Text size="xs" className="sd-num" c="dimmed">
              {progress ? `${plural(progress.rows, 'row')} · ${kb(progress.bytes)}` : 'choosing where to save…'}
            </Text>
          </Group>
        ) : null}
        {result?.saved ? (
          <Group gap="xs" data-testid="export-done">
            <Badge color="teal" variant="light">
              saved
            </Badge>
            <Text size="xs" className="sd-num">
              {plural(result.rows, 'order row')} · {kb(result.bytes)} → {result.file}
            </Text>
          </Group>
        ) : result && !result.saved ? (
          <Text size="xs" c="dimmed">
            Export canceled.
          </Text>
        ) : null}
        {progress?.state === 'failed' && progress.problem ? (
          <Text size="xs" c="red.4">
            {progress.problem}
          </Text>
        ) : null}
        <ErrorNote error={exporting.error} title="The export failed" />
      </Stack>
    </Paper>
  );
}
